import Dispatch
import RealmModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Computed columns: the column-wise path of transforms (docs/writing.md, "Column-wise
// transforms"). `ColumnEditor` asks a `ColumnValueSource` for the new values of some
// columns, cluster leaf by cluster leaf, and writes them as new leaves in the copied cluster
// nodes; every other column's leaves stay where they are.

/// Computes the new values of a table's computed columns, one cluster leaf at a time.
///
/// ``ColumnEditor`` calls ``ColumnValueSource/values(keys:columns:)`` once per cluster leaf, in key order, with the
/// objects' current values; the memory in use is one cluster's worth. A progress report
/// (objects done) fits naturally in an implementation: it sees every object once.
public protocol ColumnValueSource: AnyObject, Sendable {
  /// Positions of the public columns (spec order, as ``Group/forEachObject(in:skip:columns:_:)``
  /// delivers them) the computation reads; the others are passed as null and not decoded.
  /// nil reads every column.
  var readColumns: Set<Int>? { get }
  /// True when ``values(keys:columns:)`` may be called from several threads at once (the
  /// values do not depend on the order clusters are computed in).
  var allowsConcurrentCalls: Bool { get }
  /// The new values of the computed columns for the objects of one cluster leaf:
  /// `result[c]`, `c` in the edit's order (``ColumnEditor/TableEdit/recomputed``, then the
  /// computed ``ColumnEditor/TableEdit/added`` columns), one value per key.
  ///
  /// May be called from several threads at once, for different clusters.
  ///
  /// - Parameters:
  ///   - keys: the objects' keys, ascending.
  ///   - columns: their current values by public column (spec order), nil for the columns
  ///     not in ``readColumns`` (their values count as null).
  func values(keys: [Int64], columns: [ColumnValues?]) throws -> [ColumnValues]
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
  /// Whether a full-text index is built from the values' words.
  var fullText = false
  /// True when the column exists: its old leaves are freed.
  var replacesLeaf: Bool
  /// For messages.
  var name: String

  /// The value type of a single-value column type, for recomputed columns.
  static func propertyType(_ t: ColumnType, table: String) throws(FormatError) -> PropertyType {
    guard let type = t.propertyType, type != .mixed, type != .object else {
      throw FormatError.corrupt("a column of type \(t) of '\(table)' cannot be recomputed")
    }
    return type
  }
}

/// The state of computing one table's columns while its cluster tree is copied.
///
/// The values of the clusters ahead are computed on other threads (decoding the rows and
/// calling the value source, the costly part), a bounded number of clusters in advance; the
/// copy of the tree takes them in key order and writes their leaves (writing into the sink
/// stays on the calling thread).
struct ClusterComputation {
  let group: Group
  let tableName: String
  let columns: [ComputedColumn]
  let source: any ColumnValueSource
  /// Decode plans of the table's public columns (spec order) and which of them are read.
  let plans: [ColumnDecodePlan]
  let read: [Int]
  /// Search index entries of the indexed computed columns (by computed column).
  var indexEntries: [SearchIndexEntries]
  /// Words of the full-text indexed computed columns (by computed column).
  var fullTextEntries: [FullTextIndexEntries]
  /// False when the full-text indexes are not built (a check that only counts).
  var buildsFullTextIndexes = true
  /// Values computed ahead, by leaf in key order.
  private let ahead: ValuesAhead
  /// Leaves taken so far.
  private var taken = 0

  init(group: Group, table: Table, columns: [ComputedColumn], source: any ColumnValueSource) throws(FormatError) {
    guard let index = group.tableIndex(table) else { throw FormatError.corrupt("table '\(table.name)' is not part of this group") }
    self.group = group
    self.tableName = table.name
    self.columns = columns
    self.source = source
    plans = group.columnPlans[index]
    read = plans.indices.filter { source.readColumns?.contains($0) ?? true }
    indexEntries = columns.map { _ in SearchIndexEntries() }
    fullTextEntries = columns.map { _ in FullTextIndexEntries() }
    var leaves: [(Ref, UInt64)] = []
    try group.clusterTree.forEachLeaf(root: table.clusterRoot) { leaf in leaves.append((leaf.node.ref, leaf.offset)) }
    let plans = self.plans
    let read = self.read
    ahead = ValuesAhead(leaves: source.allowsConcurrentCalls ? leaves : []) { ref, offset in
      let leaf = try ClusterLeaf(try ArrayNode(elements: group.reader, ref), offset: offset)
      return try Self.compute(leaf, group: group, plans: plans, read: read, source: source)
    }
  }

  /// The keys and computed values of one cluster leaf (in the calling thread).
  static func compute(
    _ leaf: ClusterLeaf, group: Group, plans: [ColumnDecodePlan], read: [Int], source: any ColumnValueSource
  ) throws -> (keys: [Int64], values: [ColumnValues]) {
    let n = leaf.count
    var keys: [Int64] = []
    keys.reserveCapacity(n)
    for row in 0..<n { keys.append(leaf.key(row)) }
    var columns = [ColumnValues?](repeating: nil, count: plans.count)
    if !read.isEmpty && n > 0 {
      let cursors = try group.cursors(leaf, read.map { plans[$0] })
      let budget = group.makeBudget()
      for (r, c) in read.enumerated() {
        columns[c] = try group.columnValues(cursors[r], plans[c], rows: 0..<n, budget: budget)
      }
    }
    return (keys, try source.values(keys: keys, columns: columns))
  }

  /// Writes the computed leaves of one cluster leaf into `slots` (its refs, 1 + leaf index),
  /// appending the replaced leaves to `freed`.
  mutating func computeLeaves<S: NodeSink>(
    _ leaf: ClusterLeaf, slots: inout [Int64], freed: inout [Ref], sink: inout S
  ) throws {
    let n = leaf.count
    let (group, plans, read, source) = (self.group, self.plans, self.read, self.source)
    let (keys, values) = try ahead.take(taken, ref: leaf.node.ref)
      ?? Self.compute(leaf, group: group, plans: plans, read: read, source: source)
    taken += 1
    guard keys.count == n, values.count == columns.count, values.allSatisfy({ $0.count == n }) else {
      throw FormatError.corrupt("the computed values of '\(tableName)' do not match its cluster of \(n) objects")
    }
    for (c, column) in columns.enumerated() {
      let slot = 1 + column.leaf
      guard slot < slots.count else { throw FormatError.corrupt("cluster leaf of '\(tableName)' has no slot for '\(column.name)'") }
      if column.replacesLeaf && slots[slot] != 0 { freed.append(try MetadataEditor.refAt(slots, slot)) }
      let ref = try ColumnLeafEncoder.leaf(type: column.type, nullable: column.nullable, values: values[c], into: &sink)
      slots[slot] = Int64(ref.rawValue)
      if column.indexed {
        for row in 0..<n { try indexEntries[c].append(values[c].value(at: row), key: keys[row]) }
      } else if column.fullText && buildsFullTextIndexes {
        fullTextEntries[c].append(values[c], keys: keys)
      }
    }
  }
}

/// Computes the values of the next clusters on other threads, a bounded number ahead
/// (``OrderedParallelMap``), for a walk that takes them leaf by leaf in key order.
final class ValuesAhead {
  typealias Computed = (keys: [Int64], values: [ColumnValues])
  private let leaves: [(ref: Ref, offset: UInt64)]
  private let pipeline: OrderedParallelMap<(Ref, UInt64), Computed>?
  private var scheduled = 0
  private var next = 0

  /// Leaves to compute ahead with `compute` (none: the caller computes every leaf itself).
  init(leaves: [(Ref, UInt64)], compute: @escaping @Sendable (Ref, UInt64) throws -> Computed) {
    self.leaves = leaves.map { (ref: $0.0, offset: $0.1) }
    let window = 2 * OrderedParallelMap<Int, Int>.processorCount
    pipeline = window > 1 && !leaves.isEmpty ? OrderedParallelMap(window: window) { try compute($0.0, $0.1) } : nil
  }

  /// The values of leaf number `i` (which must be at `ref`); nil when the walk does not follow
  /// the enumerated leaves (then the caller computes, and nothing more is computed ahead).
  func take(_ i: Int, ref: Ref) throws -> Computed? {
    guard let pipeline, i == next, i < leaves.count, leaves[i].ref == ref else { return nil }
    while scheduled < leaves.count && pipeline.inFlight <= pipeline.window {
      pipeline.submitAhead(leaves[scheduled])
      scheduled += 1
    }
    next += 1
    return try pipeline.nextResult()
  }
}
