/// Computed columns: the column-wise path of transforms (docs/writing.md, "Column-wise
/// transforms"). ``ColumnEditor`` asks a ``ColumnValueSource`` for the new values of some
/// columns, cluster leaf by cluster leaf, and writes them as new leaves in the copied cluster
/// nodes; every other column's leaves stay where they are.

/// Computes the new values of a table's computed columns, one cluster leaf at a time.
///
/// ``ColumnEditor`` calls ``values(keys:rows:)`` once per cluster leaf, in key order, with the
/// objects' current values; the memory in use is one cluster's worth. A progress report
/// (objects done) fits naturally in an implementation: it sees every object once.
public protocol ColumnValueSource: AnyObject, Sendable {
  /// Positions of the public columns (spec order, as ``Group/forEachObject(in:skip:_:)``
  /// delivers them) the computation reads; the others are passed as null and not decoded.
  /// nil reads every column.
  var readColumns: Set<Int>? { get }
  /// The new values of the computed columns for the objects of one cluster leaf:
  /// `result[c][row]`, `c` in the edit's order (``ColumnEditor/TableEdit/recomputed``, then the
  /// computed ``ColumnEditor/TableEdit/added`` columns), one value per key.
  ///
  /// - Parameters:
  ///   - keys: the objects' keys, ascending.
  ///   - rows: their current values (public columns in spec order; unread ones null).
  func values(keys: [Int64], rows: [[RealmValue]]) throws -> [[RealmValue]]
}

/// A column whose leaves are computed.
struct ComputedColumn {
  /// Leaf index (cluster slot - 1).
  var leaf: Int
  /// Value type of the leaf.
  var type: PropertyType
  /// Whether the leaf is nullable (int leaves have two forms, §6.1).
  var nullable: Bool
  /// Whether a search index is built from the values.
  var indexed: Bool
  /// True when the column exists: its old leaves are freed.
  var replacesLeaf: Bool
  /// For messages.
  var name: String

  /// The value type of a single-value column type, for recomputed columns.
  static func propertyType(_ t: ColumnType, table: String) throws(FormatError) -> PropertyType {
    switch t {
    case .int: return .int
    case .bool: return .bool
    case .string: return .string
    case .binary: return .data
    case .timestamp: return .date
    case .float: return .float
    case .double: return .double
    case .decimal: return .decimal128
    case .objectId: return .objectId
    case .uuid: return .uuid
    default: throw FormatError.corrupt("a column of type \(t) of '\(table)' cannot be recomputed")
    }
  }
}

/// The state of computing one table's columns while its cluster tree is copied.
struct ClusterComputation {
  let group: Group
  let tableName: String
  let columns: [ComputedColumn]
  let source: any ColumnValueSource
  /// Decode plans of the table's public columns (spec order) and which of them are read.
  let plans: [ColumnDecodePlan]
  let read: [Int]
  let budget: DecodeBudget
  /// Search index entries of the indexed computed columns (by computed column).
  var indexEntries: [SearchIndexEntries]

  init(group: Group, table: Table, columns: [ComputedColumn], source: any ColumnValueSource) throws(FormatError) {
    guard let index = group.tableIndex(table) else { throw FormatError.corrupt("table '\(table.name)' is not part of this group") }
    self.group = group
    self.tableName = table.name
    self.columns = columns
    self.source = source
    plans = group.columnPlans[index]
    read = plans.indices.filter { source.readColumns?.contains($0) ?? true }
    budget = group.makeBudget()
    indexEntries = columns.map { _ in SearchIndexEntries() }
  }

  /// Writes the computed leaves of one cluster leaf into `slots` (its refs, 1 + leaf index),
  /// appending the replaced leaves to `freed`.
  mutating func computeLeaves<S: NodeSink>(
    _ leaf: ClusterLeaf, slots: inout [Int64], freed: inout [Ref], sink: inout S
  ) throws {
    let n = leaf.count
    var keys: [Int64] = []
    keys.reserveCapacity(n)
    for row in 0..<n { keys.append(leaf.key(row)) }
    var rows = [[RealmValue]](repeating: [RealmValue](repeating: .null, count: plans.count), count: n)
    if !read.isEmpty && n > 0 {
      let cursors = try group.cursors(leaf, read.map { plans[$0] })
      var column: [RealmValue] = []
      for (r, c) in read.enumerated() {
        column.removeAll(keepingCapacity: true)
        try group.appendColumn(cursors[r], plans[c], rows: 0..<n, budget: budget, into: &column)
        for row in 0..<n { rows[row][c] = column[row] }
      }
    }
    let values = try source.values(keys: keys, rows: rows)
    guard values.count == columns.count, values.allSatisfy({ $0.count == n }) else {
      throw FormatError.corrupt("the computed values of '\(tableName)' do not match its cluster of \(n) objects")
    }
    for (c, column) in columns.enumerated() {
      let slot = 1 + column.leaf
      guard slot < slots.count else { throw FormatError.corrupt("cluster leaf of '\(tableName)' has no slot for '\(column.name)'") }
      if column.replacesLeaf && slots[slot] != 0 { freed.append(try MetadataEditor.refAt(slots, slot)) }
      let ref = try TypedLeafEncoder.leaf(type: column.type, nullable: column.nullable, values: values[c][...], into: &sink)
      slots[slot] = Int64(ref.rawValue)
      if column.indexed {
        for row in 0..<n { try indexEntries[c].append(values[c][row], key: keys[row]) }
      }
    }
  }
}
