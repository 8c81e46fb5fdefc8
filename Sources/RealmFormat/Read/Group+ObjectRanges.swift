import RealmModel
/// Objects in independent ranges: the unit of parallel reading (`dump` decodes ranges on all
/// cores and writes them in order).
///
/// A range is a run of consecutive objects of one table that can be decoded on its own, on any
/// thread: today one cluster leaf (§5.1). Callers must not assume more than "consecutive
/// objects, in key order, ranges in key order"; other layouts (older file formats) may cut
/// tables differently.
public struct ObjectRange: Sendable, Equatable {
  /// Position of the table in ``Group/tables``.
  let tableIndex: Int
  /// The cluster leaf and its key offset; for a table of formats 2-9 (no cluster trees), a
  /// null leaf and the first row.
  let leaf: Ref
  let keyOffset: UInt64
  /// Number of objects in the range.
  public let count: Int
}

/// A cluster leaf of a table found by walking the inner nodes of its tree, not opened yet: its
/// objects are ``Group/objectRange(at:)``.
public struct LeafLocation: Sendable, Equatable {
  let tableIndex: Int
  let leaf: Ref
  let keyOffset: UInt64
  /// The objects, for a table of formats 2-9 (known without opening anything).
  let range: ObjectRange?
  /// The objects the leaf is expected to hold (its tree's cluster size; exact for formats
  /// 2-9): what a scan counts before it opens the leaf.
  public let expectedCount: Int
  /// No object of the leaf has a smaller key (its key offset); every key of the leaf is below
  /// the next leaf's bound.
  public var firstKeyBound: Int64 { Int64(bitPattern: keyOffset) }
}

extension Group {
  /// Calls `body` with the ranges of `table`'s objects, in key order. Cheap: only the cluster
  /// tree's nodes are read, not the values.
  ///
  /// - Throws: ``FormatError`` for a damaged tree, or whatever `body` throws.
  public func forEachObjectRange(in table: Table, _ body: (ObjectRange) throws -> Void) throws {
    try forEachLeafLocation(in: table) { location in
      if let range = try objectRange(at: location) { try body(range) }
    }
  }

  /// Calls `body` with the cluster leaves of `table`, in key order, reading only the inner
  /// nodes of its tree: each leaf's objects are known once it is opened
  /// (``objectRange(at:)``), which a scan does on the thread that reads the leaf, so that the
  /// one thread that walks the tree touches as little of the file as it can.
  ///
  /// - Throws: ``FormatError`` for a damaged tree, or whatever `body` throws.
  public func forEachLeafLocation(in table: Table, _ body: (LeafLocation) throws -> Void) throws {
    guard let index = tableIndex(table) else { throw FormatError.corrupt("table '\(table.name)' is not part of this group") }
    if case .legacy(let stored) = tables[index].storage {
      // Formats 2-9: runs of rows the size of a B+-tree leaf.
      for first in stride(from: 0, to: stored.rowCount, by: FormatConstants.maxBPNodeSize) {
        let count = min(FormatConstants.maxBPNodeSize, stored.rowCount - first)
        let range = ObjectRange(tableIndex: index, leaf: .null, keyOffset: UInt64(first), count: count)
        try body(LeafLocation(tableIndex: index, leaf: .null, keyOffset: range.keyOffset, range: range, expectedCount: count))
      }
      return
    }
    var bodyError: (any Error)?
    do {
      // The walk holds the group: its nodes need no reference to the file's owner.
      let tree = ClusterTree(reader: reader.unretained, shift: clusterShift, limits: limits)
      let clusterSize = 1 << clusterShift
      try tree.forEachLeafRef(root: table.clusterRoot) { (leaf, offset) throws(FormatError) in
        do {
          try body(LeafLocation(tableIndex: index, leaf: leaf, keyOffset: offset, range: nil, expectedCount: clusterSize))
        } catch {
          bodyError = error
          throw FormatError(.corrupt, "iteration stopped by its caller")
        }
      }
    } catch {
      if let bodyError { throw bodyError }
      throw error
    }
  }

  /// The objects of the leaf at `location` (from ``forEachLeafLocation(in:_:)``), nil when it
  /// holds none. Safe to call from several threads at once.
  ///
  /// - Throws: ``FormatError`` when the node there is not a cluster leaf.
  public func objectRange(at location: LeafLocation) throws -> ObjectRange? {
    if let range = location.range { return range.count > 0 ? range : nil }
    guard location.tableIndex < tables.count else { throw FormatError.corrupt("leaf location of another group") }
    let tree = ClusterTree(reader: reader.unretained, shift: clusterShift, limits: limits)
    let leaf = try tree.openLeaf(location.leaf, offset: location.keyOffset)
    guard leaf.count > 0 else { return nil }
    return ObjectRange(tableIndex: location.tableIndex, leaf: location.leaf, keyOffset: location.keyOffset, count: leaf.count)
  }

  /// Calls `body` with the key and values of every object of `range`, in key order, exactly as
  /// ``forEachObject(in:skip:columns:_:)`` delivers them. Safe to call from several threads at once
  /// (each call has its own decoding state).
  public func forEachObject(in range: ObjectRange, _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void) throws {
    guard range.tableIndex < tables.count else { throw FormatError.corrupt("object range of another group") }
    if case .legacy(let stored) = tables[range.tableIndex].storage {
      guard range.leaf.isNull else { throw FormatError.corrupt("object range of another group") }
      return try forEachLegacyObject(stored, skip: Int(clamping: range.keyOffset), count: range.count, body)
    }
    let leaf = try ClusterLeaf(try ArrayNode(elements: reader, range.leaf), offset: range.keyOffset)
    guard leaf.count == range.count else { throw FormatError.corrupt("object range at \(range.leaf) changed") }
    let plans = columnPlans[range.tableIndex]
    var columns = [[RealmValue]](repeating: [], count: plans.count)
    var values: [RealmValue] = []
    values.reserveCapacity(plans.count)
    try decodeLeaf(
      leaf, plans: plans, positions: nil, width: plans.count, from: 0, budget: makeBudget(),
      objectCost: objectCost(range.tableIndex), columns: &columns,
      values: &values, body)
  }

  /// Decodes the objects of `leaf` from row `first` on, in batches of ``rowBatch`` rows
  /// decoded column by column, and passes each object to `body`. With `positions`, `plans`
  /// are the columns at those positions of values `width` long; the others read as null.
  func decodeLeaf(
    _ leaf: ClusterLeaf, plans: [ColumnDecodePlan], positions: [Int]?, width: Int, from first: Int, budget: DecodeBudget,
    objectCost: Int, columns: inout [[RealmValue]], values: inout [RealmValue],
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    let cursors = try self.cursors(leaf, plans)
    // Batches of at most 256 rows keep memory bounded even for a hostile leaf of 2^24 objects.
    for start in stride(from: first, to: leaf.count, by: Group.rowBatch) {
      let rows = start..<min(start + Group.rowBatch, leaf.count)
      try budget.spend(rows.count &* objectCost)
      try decodeRows(
        leaf, cursors: cursors, plans: plans, positions: positions, width: width, rows: rows, selected: nil,
        budget: budget, columns: &columns, values: &values, body)
    }
  }
}
