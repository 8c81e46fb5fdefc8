/// One table of a group: its identity, columns and object count (§4.1, §4.2).
///
/// Corresponds to `realm::Table`. Values are read through ``Group``.
public struct Table: Sendable {
  /// The table name as stored (`class_Foo` for the Object Store class `Foo`).
  public var name: String
  /// Position in the group's table arrays.
  public var slot: Int
  /// The table key (`(tag << 16) | slot`, §3.3).
  public var key: Int64
  /// Top-level, embedded or asymmetric (table slot 12).
  public var type: TableType
  /// The primary key column (table slot 11), nil when the table has none.
  public var primaryKey: ColKey?
  /// All columns in spec order: public columns first, then backlink columns.
  public var columns: [Column]
  /// Number of live objects (tombstones excluded).
  public var objectCount: Int
  /// Number of tombstones (sync files, §4.9).
  public var tombstoneCount: Int
  /// Ref of the table top array.
  public var ref: Ref
  /// Root of the object cluster tree (table slot 2).
  public var clusterRoot: Ref
  /// Root of the tombstone cluster tree (table slot 13), or ``Ref/null``.
  public var tombstoneRoot: Ref
  /// How the objects are stored: a cluster tree (formats 10-24), or one B+-tree per column
  /// with rows as objects (formats 2-9, ``clusterRoot`` null).
  var storage: TableStorage = .clusters

  /// The Object Store class name (name without `class_`), nil for other tables.
  public var className: String? {
    name.hasPrefix(FormatConstants.classPrefix) ? String(name.dropFirst(FormatConstants.classPrefix.count)) : nil
  }
  /// True for embedded tables.
  public var isEmbedded: Bool { type == .embedded }
  /// The public (non-backlink) columns in spec order: the class's properties.
  public var publicColumns: [Column] { columns.filter { !$0.isBacklink } }
  /// The column called `name`.
  public func column(named name: String) -> Column? { columns.first { !$0.isBacklink && $0.name == name } }
  /// The column with key `key`.
  public func column(key: ColKey) -> Column? { columns.first { $0.key == key } }
  /// The name used for links to this table's objects: the class name, or the table name.
  public var linkName: String { className ?? name }
  /// True for a table of file formats 2-9, read as Realm's upgrade presents it.
  public var isLegacyLayout: Bool {
    if case .legacy = storage { return true }
    return false
  }
}

/// Where a table's objects are.
enum TableStorage: Sendable {
  /// A cluster tree at ``Table/clusterRoot`` (formats 10-24).
  case clusters
  /// Per-column B+-trees of file formats 2-9.
  case legacy(LegacyTable)
}

extension Table {
  /// Decodes the table top array at `ref` and its spec.
  init(reader: ByteReader, ref: Ref, slot: Int, name: String) throws(FormatError) {
    let top = try ArrayNode(elements: reader, ref)
    // §4.1: 14 slots (12 in formats 10/11); fewer means a pre-core-6 table (Appendix A).
    guard top.hasRefs, top.count >= 12 else {
      throw FormatError.corrupt("table '\(name)' has a top array of \(top.count) slots, expected 12 or more", at: ref.rawValue)
    }
    self.name = name
    self.slot = slot
    self.ref = ref
    let rawKey = try top.tagged(3)
    guard let key = Int64(exactly: rawKey), key & 0xFFFF == Int64(slot) else {
      throw FormatError.corrupt("table '\(name)' has key \(rawKey), which does not match its slot \(slot)", at: ref.rawValue)
    }
    self.key = key
    // Slot 11: 0 = no primary key, else a tagged ColKey (which may be 0: leaf 0, type Int, tag 0
    // in table 0); a tagged null ColKey also means none.
    switch try top.refOrTagged(11) {
    case .tagged(let v) where v != UInt64(ColKey.null.rawValue): primaryKey = ColKey(rawValue: Int64(bitPattern: v))
    case .tagged, .null: primaryKey = nil
    case .ref: throw FormatError.corrupt("table '\(name)' has a ref where its primary key column belongs", at: ref.rawValue)
    }
    if top.count > 12 {
      let flags = try top.tagged(12)
      guard let t = TableType(rawValue: Int(flags & 3)) else {
        throw FormatError.corrupt("table '\(name)' has an unknown table type \(flags & 3)", at: ref.rawValue)
      }
      type = t
    } else {
      type = .topLevel
    }
    clusterRoot = try top.ref(2)
    tombstoneRoot = top.count > 13 ? try top.ref(13) : .null
    guard !clusterRoot.isNull else {
      throw FormatError.corrupt("table '\(name)' has no cluster tree", at: ref.rawValue)
    }
    objectCount = try Table.clusterObjectCount(reader, clusterRoot)
    tombstoneCount = tombstoneRoot.isNull ? 0 : try Table.clusterObjectCount(reader, tombstoneRoot)
    columns = try Table.loadColumns(reader: reader, top: top, tableName: name)
    if let primaryKey, !columns.contains(where: { $0.key == primaryKey && !$0.isBacklink }) {
      throw FormatError.corrupt("table '\(name)' names a primary key column 0x\(String(primaryKey.rawValue, radix: 16)) that it does not have", at: ref.rawValue)
    }
  }

  /// Number of objects in the cluster tree at `root` (§5.1, §5.2).
  static func clusterObjectCount(_ reader: ByteReader, _ root: Ref) throws(FormatError) -> Int {
    let node = try ArrayNode(elements: reader, root)
    guard node.hasRefs, node.count >= 1 else {
      throw FormatError.corrupt("cluster node at \(root) is not a has-refs array", at: root.rawValue)
    }
    if node.isInner {
      guard node.count >= 3 else { throw FormatError.corrupt("inner cluster node at \(root) has \(node.count) slots", at: root.rawValue) }
      return try checkedInt(try node.tagged(2), "object count")
    }
    switch try node.refOrTagged(0) {
    case .tagged(let n): return try checkedInt(n, "object count")
    case .ref(let r): return try ArrayNode(elements: reader, r).count
    case .null: return 0
    }
  }

  /// Builds the column list from the spec (table slot 0) and the per-leaf arrays.
  private static func loadColumns(reader: ByteReader, top: ArrayNode, tableName: String) throws(FormatError) -> [Column] {
    let spec = try top.element(0)
    guard spec.hasRefs, spec.count >= 6 else {
      throw FormatError.corrupt("the spec of table '\(tableName)' has \(spec.count) slots, expected 6", at: spec.ref.rawValue)
    }
    let (types, names, attrs) = try spec.specColumns(attributesName: "the spec attribute array of '\(tableName)'")
    let n = types.count
    let keys = try spec.element(5)
    try keys.requirePlainIntegers("a spec column-key array")
    try keys.requireCount(n, "the spec column-key array of '\(tableName)'")
    let enumKeys = try spec.optionalChild(4)
    let indexes = try top.optionalChild(4)
    let oppTables = try top.optionalChild(7)
    let oppCols = try top.optionalChild(8)
    try oppTables?.requirePlainIntegers("an opposite-table array")
    try oppCols?.requirePlainIntegers("an opposite-column array")

    var columns: [Column] = []
    columns.reserveCapacity(n)
    var seenLeaves = Set<Int>()
    for i in 0..<n {
      let key = ColKey(rawValue: keys.uncheckedGet(i))
      let rawType = types.uncheckedGet(i)
      guard let type = key.type, type.rawValue == Int(rawType & 0xFFFF) || (type == .link && rawType & 0xFFFF == 13) else {
        throw FormatError.corrupt("column \(i) of '\(tableName)' has type \(rawType & 0xFFFF) in the spec but key 0x\(String(key.rawValue, radix: 16))", at: types.ref.rawValue)
      }
      let leaf = key.leafIndex
      guard seenLeaves.insert(leaf).inserted else {
        throw FormatError.corrupt("two columns of '\(tableName)' share leaf index \(leaf)", at: keys.ref.rawValue)
      }
      var name = ""
      if type != .backlink {
        guard i < names.count else {
          throw FormatError.corrupt("table '\(tableName)' has \(names.count) column names for more public columns", at: spec.ref.rawValue)
        }
        name = try names.string(i) ?? ""
      }
      var column = Column(
        name: name, key: key, type: type,
        attributes: ColumnAttributes(rawValue: Int(truncatingIfNeeded: attrs.uncheckedGet(i) & 0xFFFF)),
        specIndex: i)
      if column.attributes.contains(.dictionary) {
        column.dictionaryKeyType = ColumnType(rawValue: Int(truncatingIfNeeded: (rawType >> 16) & 0x3F))
      }
      if let indexes, leaf < indexes.count { column.searchIndexRef = try indexes.ref(leaf) }
      if let oppTables, leaf < oppTables.count {
        let t = oppTables.uncheckedGet(leaf)
        if t != FormatConstants.nullTableKey { column.oppositeTableKey = t }
      }
      if let oppCols, leaf < oppCols.count {
        let c = ColKey(rawValue: oppCols.uncheckedGet(leaf))
        if !c.isNull { column.oppositeColumnKey = c }
      }
      if let enumKeys, type == .string, i < enumKeys.count { column.enumValuesRef = try enumKeys.ref(i) }
      columns.append(column)
    }
    return columns
  }
}

extension ArrayNode {
  /// The first three slots of a table spec (of every file format): the column types,
  /// names and attributes, the types and attributes checked to be plain integers, one
  /// attribute per type (`attributesName` names the attribute array in the error).
  func specColumns(attributesName: String) throws(FormatError) -> (types: ArrayNode, names: StringLeaf, attributes: ArrayNode) {
    let types = try element(0)
    try types.requirePlainIntegers("a spec type array")
    let names = try StringLeaf(try element(1), isString: true)
    let attributes = try element(2)
    try attributes.requirePlainIntegers("a spec attribute array")
    try attributes.requireCount(types.count, attributesName)
    return (types, names, attributes)
  }
}
