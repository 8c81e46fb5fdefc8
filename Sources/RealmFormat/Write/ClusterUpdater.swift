import RealmModel
/// Changes some values of some objects of a table copy-on-write: only the cluster leaves that
/// hold a changed object get new column leaves (for the changed columns only), and only the
/// inner nodes above them are copied; every other node stays where it is. This is the upsert's
/// path (`insert --upsert` of existing objects): the cost grows with the objects changed, not
/// with the table.
///
/// The changed columns must be single values that are not links, not mixed, not indexed and
/// not the primary key (their search indexes would change), in a table without enumerated
/// strings; ``unsupportedReason(_:table:group:)`` says when that is not so (the caller then
/// rewrites the file). The caller places the new nodes (``NodeSink``), frees `replaced`
/// shallowly and `freedDeep` deeply, and writes `tableTop` into the tables array
/// (``MetadataEditor``).
public enum ClusterUpdater {
  /// The changes of one table.
  public struct Changes: Sendable {
    /// The changed objects' keys, ascending, all existing.
    public var keys: [Int64]
    /// The public columns (spec order positions) that change.
    public var columns: [Int]
    /// Per object (as ``keys``), the new value of each of ``columns`` (in that order), nil
    /// where the object keeps its value.
    public var values: [[RealmValue?]]
    /// Creates the changes of a table.
    public init(keys: [Int64], columns: [Int], values: [[RealmValue?]]) {
      self.keys = keys
      self.columns = columns
      self.values = values
    }
  }

  /// Why `changes` cannot be made in place, or nil when they can.
  public static func unsupportedReason(_ changes: Changes, table: Table, group: Group) -> String? {
    guard let format = WritableFileFormat(keeping: group.fileFormat), format.rawValue == group.fileFormat else {
      return "file format \(group.fileFormat) is not written in place"
    }
    if table.isLegacyLayout { return "table '\(table.name)' has the old layout" }
    if table.columns.contains(where: { !$0.enumValuesRef.isNull }) { return "table '\(table.name)' has an enumerated string column" }
    let columns = table.publicColumns
    for c in changes.columns {
      guard c >= 0 && c < columns.count else { return "table '\(table.name)' has no column \(c)" }
      if let reason = unsupportedReason(column: columns[c], table: table) { return reason }
    }
    guard changes.keys.count == changes.values.count, changes.values.allSatisfy({ $0.count == changes.columns.count }) else {
      return "keys and values differ in number"
    }
    for i in changes.keys.indices.dropFirst() where changes.keys[i - 1] >= changes.keys[i] { return "the keys are not ascending" }
    return nil
  }

  /// Why the values of `column` (of `table`) cannot be changed in place, or nil when they can:
  /// a link, mixed value or collection, an indexed column or the primary key (its search
  /// index would change), a type the leaf encoders do not write.
  public static func unsupportedReason(column: Column, table: Table) -> String? {
    if column.isLink || column.type == .mixed || column.collectionKind != .single { return "column '\(column.name)' is a link, mixed or a collection" }
    if column.hasSearchIndex || column.key == table.primaryKey { return "column '\(column.name)' is indexed" }
    if (try? ComputedColumn.propertyType(column.type, table: table.name)) == nil { return "column '\(column.name)' cannot be written" }
    return nil
  }

  /// Writes the new leaves, the copied nodes above them and the new table top into `sink`.
  public static func apply<S: NodeSink>(_ changes: Changes, to table: Table, in group: Group, sink: inout S) throws -> ClusterAppender.Result {
    if let reason = unsupportedReason(changes, table: table, group: group) {
      throw FormatError.corrupt("cannot change '\(table.name)' in place: \(reason)")
    }
    let publicColumns = table.publicColumns
    var computed: [ComputedColumn] = []
    for c in changes.columns {
      let column = publicColumns[c]
      computed.append(
        ComputedColumn(
          leaf: column.leafIndex, type: try ComputedColumn.propertyType(column.type, table: table.name),
          nullable: column.isNullable, indexed: false, replacesLeaf: true, name: column.name))
    }
    let source = ChangedValues(changes)
    var walk = PatchWalk(
      reader: group.reader, shift: group.clusterShift, changes: changes, tableName: table.name,
      computation: try ClusterComputation(group: group, table: table, columns: computed, source: source))
    var result = ClusterAppender.Result(tableTop: .null)
    let root = try walk.patch(table.clusterRoot, offset: 0, depth: 0, range: 0..<changes.keys.count, sink: &sink)
    guard walk.found == changes.keys.count else {
      throw FormatError.corrupt("\(changes.keys.count - walk.found) of the objects to change are not in '\(table.name)'")
    }
    result.replaced = walk.replaced
    result.freedDeep = walk.freedDeep
    let topNode = try ArrayNode(group.reader, table.ref)
    var top = try MetadataEditor.elements(of: topNode)
    guard top.count >= 3 else { throw FormatError.corrupt("table '\(table.name)' has a short top array") }
    top[2] = Int64(root.rawValue)
    result.replaced.append(table.ref)
    result.tableTop = sink.append(NodeEncoder.refArray(top, contextFlag: topNode.header.contextFlag))
    return result
  }
}

/// The values of one cluster leaf's changed columns: its current values with the changes of
/// its objects put in.
private final class ChangedValues: ColumnValueSource, @unchecked Sendable {
  let changes: ClusterUpdater.Changes
  var readColumns: Set<Int>? { Set(changes.columns) }
  var allowsConcurrentCalls: Bool { false }

  init(_ changes: ClusterUpdater.Changes) { self.changes = changes }

  func values(keys: [Int64], columns: [ColumnValues?]) throws -> [ColumnValues] {
    // The changes of this leaf's keys (both ascending).
    var low = 0
    var high = changes.keys.count
    let first = keys.first ?? 0
    while low < high {
      let mid = (low + high) / 2
      if changes.keys[mid] < first { low = mid + 1 } else { high = mid }
    }
    var rows: [(row: Int, change: Int)] = []
    var j = low
    for (row, key) in keys.enumerated() {
      while j < changes.keys.count && changes.keys[j] < key { j += 1 }
      if j < changes.keys.count && changes.keys[j] == key { rows.append((row, j)) }
    }
    return changes.columns.enumerated().map { c, position in
      let current = columns[position] ?? .values([RealmValue](repeating: .null, count: keys.count))
      let puts = rows.compactMap { r in changes.values[r.change][c].map { (row: r.row, value: $0) } }
      return puts.isEmpty ? current : current.replacing(puts)
    }
  }
}

extension ColumnValues {
  /// The column with `puts` (row, new value: of the column's type, or null) put in, kept typed
  /// (no value per object) when it is a typed scalar column and every new value is a non-null
  /// value of its type.
  func replacing(_ puts: [(row: Int, value: RealmValue)]) -> ColumnValues {
    func put<E>(_ column: inout ScalarColumn<E>, _ extract: (RealmValue) -> E?) -> Bool {
      for (row, v) in puts {
        guard let e = extract(v) else { return false }
        column.values[row] = e
        if column.hasNulls { column.nulls[row] = false }
      }
      return true
    }
    switch self {
    case .int(var column):
      if put(&column, { if case .int(let x) = $0 { return x } else { return nil } }) { return .int(column) }
    case .double(var column):
      if put(&column, { if case .double(let x) = $0 { return x } else { return nil } }) { return .double(column) }
    case .float(var column):
      if put(&column, { if case .float(let x) = $0 { return x } else { return nil } }) { return .float(column) }
    case .bool(var column):
      if put(&column, { if case .bool(let x) = $0 { return x } else { return nil } }) { return .bool(column) }
    case .date(var column):
      if put(&column, { if case .date(let x) = $0 { return x } else { return nil } }) { return .date(column) }
    default:
      break
    }
    var values = (0..<count).map { value(at: $0) }
    for (row, v) in puts { values[row] = v }
    return .values(values)
  }
}

/// The copy-on-write walk: the subtrees without changed objects are kept as they are.
private struct PatchWalk {
  let reader: ByteReader
  let shift: Int
  let changes: ClusterUpdater.Changes
  let tableName: String
  var computation: ClusterComputation
  var replaced: [Ref] = []
  var freedDeep: [Ref] = []
  /// Changed objects found in the leaves.
  var found = 0

  mutating func patch<S: NodeSink>(_ ref: Ref, offset: UInt64, depth: Int, range: Range<Int>, sink: inout S) throws -> Ref {
    guard depth <= ClusterRewriter.maxDepth else { throw FormatError.corrupt("the cluster tree of '\(tableName)' is deeper than \(ClusterRewriter.maxDepth)") }
    let node = try ArrayNode(elements: reader, ref)
    guard node.hasRefs, node.count >= 1 else { throw FormatError.corrupt("cluster node at \(ref) is not a has-refs array") }
    var slots = try MetadataEditor.elements(of: node)
    if node.isInner {
      let inner = try InnerClusterNode(node, shift: shift)
      // The changed keys by child: each child holds the keys from its offset to the next one's.
      var i = range.lowerBound
      while i < range.upperBound {
        let relative = UInt64(bitPattern: changes.keys[i]) &- offset
        guard let child = inner.childContaining(relative) else { throw FormatError.corrupt("key \(changes.keys[i]) is not in '\(tableName)'") }
        var end = i + 1
        while end < range.upperBound, inner.childContaining(UInt64(bitPattern: changes.keys[end]) &- offset) == child { end += 1 }
        let childRef = try node.ref(child + 3)
        slots[child + 3] = Int64(try patch(childRef, offset: offset &+ inner.childOffset(child), depth: depth + 1, range: i..<end, sink: &sink).rawValue)
        i = end
      }
      replaced.append(ref)
      return sink.append(NodeEncoder.refArray(slots, isInner: true, contextFlag: node.header.contextFlag))
    }
    let leaf = try ClusterLeaf(node, offset: offset)
    for i in range where leaf.row(ofRelativeKey: UInt64(bitPattern: changes.keys[i]) &- offset) != nil { found += 1 }
    try computation.computeLeaves(leaf, slots: &slots, freed: &freedDeep, sink: &sink)
    replaced.append(ref)
    return sink.append(NodeEncoder.refArray(slots, contextFlag: node.header.contextFlag))
  }
}
