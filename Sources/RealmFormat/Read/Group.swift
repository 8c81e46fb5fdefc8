import RealmModel
/// A Realm file's group: the top array, its tables and free space (§3), read in place.
///
/// Corresponds to `realm::Group`. Creating a `Group` validates the header, the top array,
/// every table top array and spec; object values are decoded lazily (see
/// ``Group/forEachObject(in:skip:columns:_:)`` and ``Group/object(in:key:columns:)``).
///
/// ## Topics
/// - ``init(reader:limits:)``
/// - ``tables``
/// - ``table(named:)``
/// - ``schema()``
/// - ``schemaVersion()``
public final class Group: Sendable {
  /// One free-list entry (§3.4).
  public struct FreeChunk: Sendable, Hashable {
    /// Start of the chunk.
    public var position: Int
    /// Length in bytes.
    public var length: Int
    /// Snapshot version in which the chunk was freed (0 = free for anybody).
    public var version: Int64
  }

  /// The bytes of the file.
  public let reader: ByteReader
  /// The decoded header.
  public let header: FileHeader
  /// Bounds for walks over hostile files.
  public let limits: Limits
  /// Number of slots of the top array (0 for an empty file without one).
  public let topArraySize: Int
  /// The logical file size (top slot 2): the end of the space the allocator manages.
  public let logicalSize: Int
  /// The history type (top slot 7); `.none` when the top array has no such slot.
  public let historyType: HistoryType
  /// The history schema version (top slot 9), 0 when absent.
  public let historySchemaVersion: Int
  /// The snapshot version ("transaction number", top slot 6), nil when absent.
  public let snapshotVersion: Int64?
  /// Ref of the history (top slot 8), ``Ref/null`` when absent.
  public let historyRef: Ref
  /// The free list (top slots 3-5), sorted as stored; empty for streaming files.
  public let freeList: [FreeChunk]
  /// Every table in slot order, removed slots skipped.
  public let tables: [Table]
  /// ``Table/linkName`` of every table, by position (made once: links name it per value).
  let linkNames: [String]
  /// log2 of the cluster size the file was written with (§5.2).
  let clusterShift: Int
  /// Position in ``tables`` by table key.
  let tableIndexByKey: [Int64: Int]
  /// Decoding plans of every table's public columns, by table position.
  let columnPlans: [[ColumnDecodePlan]]
  /// Objects in embedded tables (bounds inline expansion of embedded objects).
  let embeddedObjectTotal: Int
  /// The budget every reading of this group charges when it was opened with
  /// ``Limits/sharedReadBudget``; nil when each pass has its own.
  public let readBudget: ReadBudget?
  /// For file formats 2-9: every stored table, `pk` included (see `LegacyGroupLayout`).
  let legacy: LegacyGroupLayout?

  /// The file format version of the live snapshot.
  public var fileFormat: Int { header.fileFormat }
  /// The ref of the top array.
  public var topRef: Ref { header.topRef }
  /// True for a compacted copy in streaming form (§1.2).
  public var isStreaming: Bool { header.isStreaming }
  /// Total bytes in the free list.
  public var freeBytes: Int { freeList.reduce(0) { $0 &+ $1.length } }

  /// Reads the group of the file in `reader`.
  ///
  /// Files of formats 2-9 are read as Realm presents them after upgrading them (see
  /// `LegacyGroupLayout`): their tables have the same API as those of newer formats.
  ///
  /// - Throws: ``FormatError``: `notRealmFile` for a missing mnemonic, `unsupportedVersion`
  ///   for file formats other than 2-11 and 20-24 and for old files Realm's upgrade refuses,
  ///   `corrupt`/`truncated`/`limitExceeded` for damaged files.
  public init(reader: ByteReader, limits: Limits = .default) throws(FormatError) {
    let header = try FileHeader(reader: reader)
    try Group.checkVersion(header)
    self.reader = reader
    self.header = header
    self.limits = limits
    if header.topRef.isNull {
      // §1.1: a never-committed file has no top array and no tables.
      topArraySize = 0
      logicalSize = reader.count
      historyType = .none
      historySchemaVersion = 0
      snapshotVersion = nil
      historyRef = .null
      freeList = []
      tables = []
      linkNames = []
      clusterShift = FormatConstants.clusterShift
      tableIndexByKey = [:]
      columnPlans = []
      embeddedObjectTotal = 0
      readBudget = Group.makeReadBudget(reader, limits)
      legacy = nil
      return
    }
    let top = try ArrayNode(elements: reader, header.topRef)
    guard top.hasRefs, [3, 5, 7, 9, 10, 11, 12].contains(top.count) else {
      throw FormatError.corrupt("the top array has \(top.count) slots, expected 3, 5, 7, 9, 10, 11 or 12", at: top.ref.rawValue)
    }
    topArraySize = top.count
    logicalSize = try checkedInt(try top.tagged(2), "logical file size")
    guard logicalSize <= reader.count else {
      throw FormatError.corrupt("the logical file size \(logicalSize) exceeds the file size \(reader.count)", at: top.ref.rawValue)
    }
    snapshotVersion = top.count > 6 ? Int64(bitPattern: try top.tagged(6)) : nil
    if top.count > 7 {
      let h = try top.tagged(7)
      guard let t = HistoryType(rawValue: Int(truncatingIfNeeded: h & 0xFF)), h < 5 else {
        throw FormatError.corrupt("the top array has an unknown history type \(h)", at: top.ref.rawValue)
      }
      historyType = t
      historyRef = try top.ref(8)
    } else {
      historyType = .none
      historyRef = .null
    }
    historySchemaVersion = top.count > 9 ? Int(truncatingIfNeeded: try top.tagged(9)) : 0
    freeList = top.count > 3 ? try Group.readFreeList(top) : []

    let names = try StringLeaf(try top.element(0), isString: true)
    let slots = try top.element(1)
    guard slots.hasRefs, slots.count == names.count else {
      throw FormatError.corrupt("the group has \(names.count) table names but \(slots.count) table slots", at: slots.ref.rawValue)
    }
    if header.fileFormat <= 9 {
      // Formats 2-9: the old table layout, read as Realm's upgrade presents it.
      var tableNames: [String] = []
      var refs: [Ref] = []
      for i in 0..<slots.count {
        guard case .ref(let ref) = try slots.refOrTagged(i) else {
          throw FormatError.corrupt("table slot \(i) of the group is not a table ref (file formats 2-9 have no removed tables)", at: slots.ref.rawValue)
        }
        tableNames.append(try names.string(i) ?? "")
        refs.append(ref)
      }
      let layout = try LegacyGroupLayout(reader: reader, names: tableNames, refs: refs, fileFormat: header.fileFormat, limits: limits)
      legacy = layout
      tables = layout.tables
      linkNames = layout.tables.map(\.linkName)
      tableIndexByKey = Dictionary(uniqueKeysWithValues: layout.tables.enumerated().map { ($1.key, $0) })
      clusterShift = FormatConstants.clusterShift
      columnPlans = layout.tables.map { _ in [] }
      embeddedObjectTotal = 0
      readBudget = Group.makeReadBudget(reader, limits)
      return
    }
    legacy = nil
    var tables: [Table] = []
    var byKey: [Int64: Int] = [:]
    for i in 0..<slots.count {
      guard case .ref(let ref) = try slots.refOrTagged(i) else { continue }  // removed table, §3.3
      let table = try Table(reader: reader, ref: ref, slot: i, name: try names.string(i) ?? "")
      byKey[table.key] = tables.count
      tables.append(table)
    }
    self.tables = tables
    linkNames = tables.map(\.linkName)
    tableIndexByKey = byKey
    clusterShift = try Group.inferClusterShift(reader, tables)
    var plans: [[ColumnDecodePlan]] = []
    plans.reserveCapacity(tables.count)
    for table in tables {
      var p: [ColumnDecodePlan] = []
      for column in table.columns where !column.isBacklink {
        p.append(try ColumnDecodePlan(column, reader: reader, tableIndexByKey: byKey))
      }
      plans.append(p)
    }
    columnPlans = plans
    // Object counts of inner roots are unverified tagged values; a valid file spends more than
    // one byte per embedded object, so the file size bounds the expansion budget too.
    embeddedObjectTotal = tables.reduce(0) { total, table in
      guard table.isEmbedded else { return total }
      return min(total + min(max(table.objectCount, 0), reader.count), reader.count)
    }
    readBudget = Group.makeReadBudget(reader, limits)
  }

  /// The budget every reading shares under ``Limits/sharedReadBudget``, else nil.
  private static func makeReadBudget(_ reader: ByteReader, _ limits: Limits) -> ReadBudget? {
    limits.sharedReadBudget ? ReadBudget(fileSize: reader.count, limits: limits) : nil
  }

  /// Refuses formats this reader does not read (§1.3, Appendix A).
  private static func checkVersion(_ header: FileHeader) throws(FormatError) {
    let f = header.fileFormat
    if header.topRef.isNull { return }  // empty file: the format byte may be 0
    if ReadableFileFormats.contains(f) { return }
    switch f {
    case 0: throw FormatError.corrupt("the file format byte is 0 but the file has a top array", at: 20)
    case 1:
      throw FormatError(.unsupportedVersion, "file format 1 is not supported (the first Realm files, before 2014, which no Realm Core since 2015 reads)")
    case 25:
      // realm-core's next-major branch bumped the format to 25 (compressed integer arrays);
      // no release of Realm Core has it.
      throw FormatError(
        .unsupportedVersion,
        "file format 25 is not supported (realmctl reads formats \(ReadableFileFormats.description); format 25 comes only from realm-core's unreleased next-major branch)")
    default:
      throw FormatError(.unsupportedVersion, "file format \(f) is not supported (realmctl reads formats \(ReadableFileFormats.description))")
    }
  }

  /// Reads the three parallel free-list arrays (§3.4). Arrays of unequal length are read up to
  /// the shortest (``check()`` reports them); entries outside the `Int` range are an error.
  private static func readFreeList(_ top: ArrayNode) throws(FormatError) -> [FreeChunk] {
    guard let positions = try top.optionalChild(3), let lengths = try top.optionalChild(4) else { return [] }
    let versions = top.count > 5 ? try top.optionalChild(5) : nil
    try positions.requirePlainIntegers("a free-list position array")
    try lengths.requirePlainIntegers("a free-list length array")
    try versions?.requirePlainIntegers("a free-list version array")
    let n = min(positions.count, lengths.count, versions?.count ?? Int.max)
    var chunks: [FreeChunk] = []
    chunks.reserveCapacity(n)
    for i in 0..<n {
      let p = positions.uncheckedGet(i)
      let l = lengths.uncheckedGet(i)
      guard p >= 0, l >= 0, let pos = Int(exactly: p), let len = Int(exactly: l) else {
        throw FormatError.corrupt("free-list entry \(i) has position \(p) and length \(l)", at: positions.ref.rawValue)
      }
      chunks.append(FreeChunk(position: pos, length: len, version: versions?.uncheckedGet(i) ?? 0))
    }
    return chunks
  }

  /// Infers the cluster shift from a compact inner root whose first child is full (§5.2):
  /// that child holds exactly `2^(depth * shift)` objects.
  private static func inferClusterShift(_ reader: ByteReader, _ tables: [Table]) throws(FormatError) -> Int {
    for table in tables {
      let root = try ArrayNode(elements: reader, table.clusterRoot)
      guard root.isInner, root.count >= 5, try root.ref(0).isNull else { continue }
      let depth = try root.tagged(1)
      let first = try root.element(3)
      let n = try UInt64(Table.clusterObjectCount(reader, first.ref))
      guard depth > 0, depth < 64, n > 0, n & (n - 1) == 0 else { continue }
      let bits = UInt64(n.trailingZeroBitCount)
      if bits % depth == 0 { return Int(bits / depth) }
    }
    return FormatConstants.clusterShift
  }

  /// The table called `name` (the stored name, e.g. `class_Person`).
  public func table(named name: String) -> Table? {
    tables.first { $0.name == name }
  }

  /// The table of the Object Store class `name` (without `class_`).
  public func table(forClass name: String) -> Table? {
    table(named: FormatConstants.classPrefix + name)
  }

  /// The table with key `key`.
  public func table(key: Int64) -> Table? {
    tableIndexByKey[key].map { tables[$0] }
  }

  /// A walker over this file's cluster trees.
  var clusterTree: ClusterTree { ClusterTree(reader: reader, shift: clusterShift, limits: limits) }
  /// A walker over this file's B+-trees.
  var bPlusTree: BPlusTree { BPlusTree(reader: reader, limits: limits) }
}
