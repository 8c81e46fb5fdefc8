import RealmModel
/// Appends new objects to a table copy-on-write: the objects become new cluster leaves after
/// the table's last one, and every existing leaf (with all its column data) stays where it is.
///
/// Only the cluster tree's inner nodes (a few per 65,536 objects), the table top array and the
/// search indexes of the table's indexed columns are written again (int indexes extended, the
/// others whole, from the existing values and the new ones; full-text indexes from the words
/// of both). The new leaves are encoded with the encoders the
/// file builder uses (``TypedLeafEncoder``, ``CollectionLeafEncoder``, ``MixedLeafEncoder``),
/// in the file's own format.
///
/// The new objects must have keys above every key of the table, and must not link anywhere
/// (null links and empty link collections are fine): then no other table and no existing
/// object changes, and their backlink columns are empty. ``unsupportedReason(_:table:group:)``
/// says when an append cannot be made this way (the caller then rewrites the file).
///
/// The caller places the new nodes (``NodeSink``), frees `replaced` shallowly and `freedDeep`
/// deeply, and writes `tableTop` into the group's tables array (``MetadataEditor``).
public enum ClusterAppender {
  /// The objects to append to one table.
  public struct Objects: Sendable {
    /// Their keys, ascending, all above the table's largest key.
    public var keys: [Int64]
    /// Their values, one array per object, by public column in spec order (as
    /// ``Group/forEachObject(in:skip:columns:_:)`` gives them).
    public var values: [[RealmValue]]
    /// The table's key sequence number after them (table slot 9).
    public var sequence: Int64
    /// Creates the objects of an append.
    public init(keys: [Int64], values: [[RealmValue]], sequence: Int64) {
      self.keys = keys
      self.values = values
      self.sequence = sequence
    }
  }

  /// The new table top and the nodes the append replaced.
  public struct Result: Sendable {
    /// The new table top array.
    public var tableTop: Ref
    /// Old nodes no longer reachable (free each shallowly): inner cluster nodes, their offset
    /// arrays, the table top, the search-index array.
    public var replaced: [Ref] = []
    /// Old subtrees no longer reachable (free deeply): rebuilt search indexes, an empty root leaf.
    public var freedDeep: [Ref] = []
  }

  /// Why `objects` cannot be appended to `table` in place, or nil when they can.
  public static func unsupportedReason(_ objects: Objects, table: Table, group: Group) -> String? {
    if let reason = unsupportedReason(table: table, group: group) { return reason }
    guard objects.keys.count == objects.values.count else { return "keys and values differ in number" }
    for i in objects.keys.indices.dropFirst() where objects.keys[i - 1] >= objects.keys[i] {
      return "the new keys are not ascending"
    }
    let columns = table.publicColumns
    let linking = linkingColumns(columns)
    for values in objects.values {
      if let reason = unsupportedReason(values, columns: columns, linking: linking) { return reason }
    }
    return nil
  }

  /// Why nothing can be appended to `table` in place (its file or its layout), or nil.
  public static func unsupportedReason(table: Table, group: Group) -> String? {
    guard let format = WritableFileFormat(keeping: group.fileFormat), format.rawValue == group.fileFormat else {
      return "file format \(group.fileFormat) is not written in place"
    }
    if format.derivesObjectKeysFromPrimaryKeys { return "format \(format.rawValue) derives object keys from primary keys" }
    if group.clusterShift != FormatConstants.clusterShift { return "the file's clusters are not of \(ClusterTreeWriter.fanOut) objects" }
    if table.isLegacyLayout { return "table '\(table.name)' has the old layout" }
    if table.isEmbedded { return "table '\(table.name)' is embedded" }
    if table.tombstoneCount > 0 { return "table '\(table.name)' has tombstones" }
    for c in table.columns {
      if !c.enumValuesRef.isNull { return "column '\(c.name)' is an enumerated string column" }
      if !c.isBacklink && c.hasSearchIndex && c.collectionKind != .single { return "column '\(c.name)' is an indexed collection" }
    }
    return nil
  }

  /// The public columns that can hold links: links, mixed values, collections (a scalar
  /// column's values are checked when they are encoded).
  static func linkingColumns(_ columns: [Column]) -> [Int] {
    columns.indices.filter { columns[$0].isLink || columns[$0].type == .mixed || columns[$0].collectionKind != .single }
  }

  /// Why an object with `values` (by public column) cannot be appended: it links to another
  /// object (checked in the `linking` columns), or nil.
  static func unsupportedReason(_ values: [RealmValue], columns: [Column], linking: [Int]) -> String? {
    guard values.count == columns.count else { return "an object has \(values.count) values for \(columns.count) columns" }
    for c in linking where holdsLinks(values[c], column: columns[c]) {
      return "a new object links to another object ('\(columns[c].name)')"
    }
    return nil
  }

  /// True when `v` is or contains a link or an embedded object (backlinks would change).
  static func holdsLinks(_ v: RealmValue, column: Column) -> Bool {
    switch v {
    case .null: return false
    case .link, .embedded: return true
    case .list(let items), .set(let items): return items.contains { holdsLinks($0, column: column) }
    case .dictionary(let entries): return entries.contains { holdsLinks($0.value, column: column) }
    case .int: return column.isLink
    default: return false
    }
  }

  /// Writes the new leaves, inner nodes, search indexes and table top into `sink`.
  public static func append<S: NodeSink>(_ objects: Objects, to table: Table, in group: Group, sink: inout S) throws -> Result {
    if let reason = unsupportedReason(objects, table: table, group: group) {
      throw FormatError.corrupt("cannot append to '\(table.name)' in place: \(reason)")
    }
    var stream = try Stream(table: table, group: group)
    for (key, values) in zip(objects.keys, objects.values) { try stream.append(key: key, values: values, sink: &sink) }
    return try stream.finish(sequence: objects.sequence, sink: &sink)
  }

  /// The largest key of a leaf, nil when it is empty.
  static func lastKey(of leaf: ClusterTreeWriter.Leaf, reader: ByteReader) throws(FormatError) -> Int64? {
    guard leaf.count > 0 else { return nil }
    let l = try ClusterLeaf(try ArrayNode(elements: reader, leaf.ref), offset: UInt64(bitPattern: leaf.offset))
    return l.key(l.count - 1)
  }

  /// The value as the column stores it (a number converted to the column's type).
  static func storedValue(_ v: RealmValue, _ column: Column, table: String) throws(FormatError) -> RealmValue {
    if v.isNull || column.type == .mixed || column.isLink { return v }
    return try TypedLeafEncoder.coerced(v, to: try ComputedColumn.propertyType(column.type, table: table))
  }

  /// True when `v` is a non-null value of `type` as the leaf encoders take it.
  private static func hasType(_ v: RealmValue, _ type: PropertyType) -> Bool {
    switch (v, type) {
    case (.int, .int), (.double, .double), (.float, .float), (.bool, .bool), (.string, .string), (.date, .date),
      (.objectId, .objectId), (.uuid, .uuid), (.decimal128, .decimal128), (.data, .data):
      return true
    default:
      return false
    }
  }

  /// The leaf of one public column for the values of one new cluster.
  static func leaf<S: NodeSink>(
    _ column: Column, _ values: [RealmValue], table: String, format: WritableFileFormat, sink: inout S
  ) throws(FormatError) -> Ref {
    let nullable = column.isNullable
    if column.isLink {
      // No new object links anywhere (checked): null links, empty collections.
      if column.collectionKind == .single { return ScalarLeafEncoder.links([Int64?](repeating: nil, count: values.count), into: &sink) }
      return CollectionLeafEncoder.collectionRefs([Ref](repeating: .null, count: values.count), into: &sink)
    }
    let type: PropertyType = column.type == .mixed ? .mixed : try ComputedColumn.propertyType(column.type, table: table)
    func element(_ v: RealmValue) throws(FormatError) -> RealmValue {
      let e = type == .mixed ? v : try TypedLeafEncoder.coerced(v, to: type)
      if e.isNull && !nullable && type != .mixed {
        throw FormatError.corrupt("'\(table).\(column.name)': a value is required but found null")
      }
      return e
    }
    switch column.collectionKind {
    case .single:
      // Values of the column's type are stored as they are (no copy of the array).
      var stored = values
      if type != .mixed { for i in values.indices where !hasType(values[i], type) { stored[i] = try element(values[i]) } }
      return try TypedLeafEncoder.leaf(type: type, nullable: nullable, values: stored[...], format: format, into: &sink)
    case .list, .set:
      var refs = [Ref]()
      refs.reserveCapacity(values.count)
      for v in values {
        var elements: [RealmValue]
        var isSet = false
        switch v {
        case .list(let e): elements = e
        case .set(let e): elements = e; isSet = true
        case .null: refs.append(.null); continue
        default: throw TypedLeafEncoder.mismatch("list or set", v)
        }
        for i in elements.indices { elements[i] = try element(elements[i]) }
        if isSet || column.collectionKind == .set {
          elements = SetOrdering.sortedUnique(elements, format: format, mixedSet: type == .mixed)
        }
        refs.append(try CollectionLeafEncoder.primitiveCollection(elements, type: type, nullable: nullable, format: format, into: &sink))
      }
      return CollectionLeafEncoder.collectionRefs(refs, into: &sink)
    case .dictionary:
      var refs = [Ref]()
      refs.reserveCapacity(values.count)
      for v in values {
        guard case .dictionary(var entries) = v else {
          guard v.isNull else { throw TypedLeafEncoder.mismatch("dictionary", v) }
          refs.append(.null)
          continue
        }
        for i in entries.indices { entries[i].value = try element(entries[i].value) }
        refs.append(try MixedLeafEncoder.dictionary(entries, tableKeys: [:], format: format, into: &sink))
      }
      return CollectionLeafEncoder.collectionRefs(refs, into: &sink)
    }
  }
}

/// The leaves (with absolute offsets) and inner nodes of an existing cluster tree, walked
/// with bounded depth and node count.
struct ExistingTree {
  let reader: ByteReader
  let shift: Int
  var leaves: [ClusterTreeWriter.Leaf] = []
  /// Inner nodes and their offset arrays.
  var inner: [Ref] = []
  private var visited = 0
  private var leafDepth: Int?

  init(reader: ByteReader, shift: Int) {
    self.reader = reader
    self.shift = shift
  }

  /// Walks the sub-tree at `ref` and returns how many objects its leaves hold; an inner node
  /// whose count says otherwise is refused (the new inner nodes are counted from the leaves,
  /// but the caller reports with the table's count).
  @discardableResult
  mutating func walk(_ ref: Ref, offset: UInt64, depth: Int) throws(FormatError) -> Int {
    guard depth <= ClusterRewriter.maxDepth else { throw FormatError.corrupt("a cluster tree is deeper than \(ClusterRewriter.maxDepth)") }
    visited += 1
    guard visited <= reader.count / 8 else { throw FormatError.corrupt("a cluster tree has a cycle") }
    let node = try ArrayNode(elements: reader, ref)
    guard node.hasRefs, node.count >= 1 else { throw FormatError.corrupt("cluster node at \(ref) is not a has-refs array") }
    guard node.isInner else {
      if let leafDepth, leafDepth != depth { throw FormatError.corrupt("cluster leaf at \(ref) is at another depth than the others") }
      leafDepth = depth
      let leaf = try ClusterLeaf(node, offset: offset)
      leaves.append(ClusterTreeWriter.Leaf(ref: ref, offset: Int64(bitPattern: offset), count: leaf.count))
      return leaf.count
    }
    let n = try InnerClusterNode(node, shift: shift)
    inner.append(ref)
    if let offsets = n.offsets { inner.append(offsets.ref) }
    var total = 0  // at most 1000 objects a leaf, one leaf per 8 bytes: no overflow
    for i in 0..<n.childCount {
      total += try walk(try node.ref(i + 3), offset: offset &+ n.childOffset(i), depth: depth + 1)
    }
    guard total == n.objectCount else {
      throw FormatError.corrupt("inner cluster node at \(ref) says \(n.objectCount) objects but its children hold \(total)", at: ref.rawValue)
    }
    return total
  }
}
