import RealmModel
/// Reading objects column by column (``ColumnValues``): the input of the column-wise paths.
extension Group {
  /// Calls `body` with the objects of `range` in batches of at most `Group.rowBatch` (256) objects,
  /// column by column: the same keys and values ``forEachObject(in:_:)`` delivers, without a
  /// `RealmValue` per object for plain scalar columns. Safe to call from several threads at
  /// once.
  ///
  /// - Parameters:
  ///   - range: the objects, from ``forEachObjectRange(in:_:)``.
  ///   - selected: the properties (positions in the values) to decode; the others are nil in
  ///     the batch. nil decodes every column.
  ///   - body: called with each batch, in key order.
  public func forEachBatch(
    in range: ObjectRange, columns selected: Set<Int>? = nil, _ body: (ObjectBatch) throws -> Void
  ) throws {
    guard range.tableIndex < tables.count else { throw FormatError.corrupt("object range of another group") }
    if case .legacy = tables[range.tableIndex].storage {
      return try forEachLegacyBatch(in: range, columns: selected, body)
    }
    let leaf = try ClusterLeaf(try ArrayNode(elements: reader, range.leaf), offset: range.keyOffset)
    guard leaf.count == range.count else { throw FormatError.corrupt("object range at \(range.leaf) changed") }
    let plans = columnPlans[range.tableIndex]
    let positions = plans.indices.filter { selected?.contains($0) ?? true }
    let cursors = try self.cursors(leaf, positions.map { plans[$0] })
    let budget = makeBudget()
    let objectCost = objectCost(range.tableIndex)
    // Batches of at most 256 rows keep memory bounded even for a hostile leaf of 2^24 objects.
    for start in stride(from: 0, to: leaf.count, by: Group.rowBatch) {
      let rows = start..<min(start + Group.rowBatch, leaf.count)
      // What the object-by-object reading spends, so a hostile file stops at the same point.
      try budget.spend(rows.count &* objectCost)
      var batch = ObjectBatch(keys: [], columns: [ColumnValues?](repeating: nil, count: plans.count))
      batch.keys.reserveCapacity(rows.count)
      for row in rows { batch.keys.append(leaf.key(row)) }
      for (c, p) in positions.enumerated() {
        batch.columns[p] = try columnValues(cursors[c], plans[p], rows: rows, budget: budget)
      }
      try body(batch)
    }
  }

  /// A range of a table of formats 2-9 (no cluster leaves): its objects as the
  /// object-by-object reading decodes them, gathered into batches of `RealmValue` columns.
  private func forEachLegacyBatch(
    in range: ObjectRange, columns selected: Set<Int>?, _ body: (ObjectBatch) throws -> Void
  ) throws {
    guard case .legacy(let stored) = tables[range.tableIndex].storage, range.leaf.isNull else {
      throw FormatError.corrupt("object range of another group")
    }
    let width = stored.properties.count
    var keys: [Int64] = []
    var columns = [[RealmValue]](repeating: [], count: width)
    func flush() throws {
      guard !keys.isEmpty else { return }
      let batch = ObjectBatch(
        keys: keys,
        columns: (0..<width).map { selected?.contains($0) ?? true ? ColumnValues.values(columns[$0]) : nil })
      keys.removeAll(keepingCapacity: true)
      for c in 0..<width { columns[c].removeAll(keepingCapacity: true) }
      try body(batch)
    }
    try forEachLegacyObject(stored, skip: Int(clamping: range.keyOffset), count: range.count, columns: selected) { key, values in
      keys.append(key)
      for c in 0..<min(width, values.count) { columns[c].append(values[c]) }
      if keys.count >= Group.rowBatch { try flush() }
    }
    try flush()
  }

  /// The values of `rows` of a float or double leaf (`F` is the leaf's type).
  private func floatingPointColumn<F: StoredFloatingPoint>(_ l: FloatingLeaf, rows: Range<Int>) -> ScalarColumn<F> {
    var column = ScalarColumn<F>()
    column.values.reserveCapacity(rows.count)
    for row in rows {
      let bits = F.uncheckedBits(l.node.reader, at: l.node.payload &+ row &* F.storedWidth)
      if l.isNullable && bits == F.nullBits { column.appendNull(0) } else { column.append(F(bitPattern: bits)) }
    }
    return column
  }

  /// The values of `rows` of one column leaf, typed for plain scalar columns.
  func columnValues(
    _ cursor: Cursor, _ plan: ColumnDecodePlan, rows: Range<Int>, budget: DecodeBudget
  ) throws(FormatError) -> ColumnValues {
    guard case .scalar(let leaf) = cursor else {
      var values: [RealmValue] = []
      try appendColumn(cursor, plan, rows: rows, budget: budget, into: &values)
      return .values(values)
    }
    switch leaf {
    case .int(let l):
      var column = ScalarColumn<Int64>()
      column.values.reserveCapacity(rows.count)
      for row in rows {
        if let v = l.value(row) { column.append(v) } else { column.appendNull(0) }
      }
      return .int(column)
    case .bool(let n):
      var column = ScalarColumn<Bool>()
      column.values.reserveCapacity(rows.count)
      for row in rows {
        switch n.uncheckedGet(row) {
        case 0: column.append(false)
        case 1: column.append(true)
        case 3: column.appendNull(false)  // §6.2
        case let v: throw FormatError.corrupt("bool value \(v) at index \(row) of \(n.ref)", at: n.ref.rawValue)
        }
      }
      return .bool(column)
    case .string(let l, let nullable):
      var column = StringColumn()
      column.ends.reserveCapacity(rows.count)
      for row in rows {
        if let b = try l.bytes(row) {
          column.append(unvalidated: b)
        } else if nullable {
          column.appendNull()
        } else {
          column.ends.append(column.bytes.count)
          if column.hasNulls { column.nulls.append(false) }
        }
      }
      return .string(column)
    case .floating(let l):
      return l.isDouble ? .double(floatingPointColumn(l, rows: rows)) : .float(floatingPointColumn(l, rows: rows))
    case .timestamp(let l):
      var column = ScalarColumn<Timestamp>()
      column.values.reserveCapacity(rows.count)
      for row in rows {
        if let t = l.value(row) { column.append(t) } else { column.appendNull(Timestamp(seconds: 0, nanoseconds: 0)) }
      }
      return .date(column)
    default:
      var values: [RealmValue] = []
      try appendColumn(cursor, plan, rows: rows, budget: budget, into: &values)
      return .values(values)
    }
  }
}

/// Consecutive objects of one table, column by column.
public struct ObjectBatch: Sendable, Equatable {
  /// The objects' keys, ascending.
  public var keys: [Int64]
  /// By public column (spec order): the values, or nil for a column not decoded.
  public var columns: [ColumnValues?]

  /// Creates a batch.
  public init(keys: [Int64], columns: [ColumnValues?]) {
    self.keys = keys
    self.columns = columns
  }

  /// Number of objects.
  public var count: Int { keys.count }

  /// The values of object `i` (columns not decoded read as null).
  public func values(at i: Int) -> [RealmValue] {
    columns.map { $0?.value(at: i) ?? .null }
  }
}
