import RealmModel
/// Reading the objects a filter selects: the filter reads its columns for every object (from
/// the leaves, or decoded), the other properties are decoded for the selected objects only.
extension Group {
  /// Calls `body` with the objects of `range` in batches of at most `Group.rowBatch` (256)
  /// consecutive objects, in key order, as a filter sees them (``SelectionBatch``): the keys,
  /// the properties `filterColumns` read from the leaves or decoded on demand, and the
  /// decoding of the objects the filter keeps. Safe to call from several threads at once.
  ///
  /// - Parameters:
  ///   - range: the objects, from ``forEachObjectRange(in:_:)``.
  ///   - filterColumns: the properties (positions in the values) the filter reads.
  ///   - body: called with each batch, in key order.
  public func forEachSelectionBatch(
    in range: ObjectRange, filterColumns: Set<Int>, _ body: (SelectionBatch) throws -> Void
  ) throws {
    guard range.tableIndex < tables.count else { throw FormatError.corrupt("object range of another group") }
    if case .legacy(let stored) = tables[range.tableIndex].storage {
      return try forEachLegacySelectionBatch(stored, range, filterColumns: filterColumns, body)
    }
    let leaf = try ClusterLeaf(try ArrayNode(elements: reader, range.leaf), offset: range.keyOffset)
    guard leaf.count == range.count else { throw FormatError.corrupt("object range at \(range.leaf) changed") }
    let plans = columnPlans[range.tableIndex]
    let positions = plans.indices.filter { filterColumns.contains($0) }
    // Built by appending: `Array(repeating:count:)` of this large enum is not specialized
    // and costs more than the rest of a leaf's set-up.
    let built = try cursors(leaf, positions.map { plans[$0] })
    var filterCursors: [Cursor?] = []
    filterCursors.reserveCapacity(plans.count)
    var next = 0
    for p in plans.indices {
      if next < positions.count, positions[next] == p {
        filterCursors.append(built[next])
        next += 1
      } else {
        filterCursors.append(nil)
      }
    }
    let budget = makeBudget()
    let objectCost = objectCost(range.tableIndex)
    let source = SelectionBatch.LeafSource(group: self, leaf: leaf, plans: plans, filterCursors: filterCursors, budget: budget)
    for start in stride(from: 0, to: leaf.count, by: Group.rowBatch) {
      let rows = start..<min(start + Group.rowBatch, leaf.count)
      try budget.spend(rows.count &* objectCost)
      try body(SelectionBatch(storage: .leaf(source, rows: rows)))
    }
  }

  /// Calls `select` with the batches of every object of `table` (see
  /// ``forEachSelectionBatch(in:filterColumns:_:)``), then `body` with the key and values of
  /// each object `select` keeps, in key order. Only those objects' properties `columns` (nil
  /// for all) are decoded.
  ///
  /// - Parameters:
  ///   - table: the table whose objects are read.
  ///   - filterColumns: the properties (positions in the values) `select` reads.
  ///   - columns: the properties decoded for the kept objects; nil for all.
  ///   - select: returns the positions (ascending, below the batch's count) of the objects
  ///     to keep.
  ///   - body: the values hold `columns`; other properties read as null.
  public func forEachSelectedObject(
    in table: Table, filterColumns: Set<Int>, columns: Set<Int>?,
    select: (SelectionBatch) throws -> [Int],
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    try forEachObjectRange(in: table) { range in
      try forEachSelectionBatch(in: range, filterColumns: filterColumns) { batch in
        let selected = try select(batch)
        guard !selected.isEmpty else { return }
        try batch.forEachObject(selected, columns: columns, body)
      }
    }
  }

  /// Tables of formats 2-9 (no cluster leaves): the objects of `range` decoded one by one,
  /// gathered into batches of decoded columns.
  private func forEachLegacySelectionBatch(
    _ stored: LegacyTable, _ range: ObjectRange, filterColumns: Set<Int>, _ body: (SelectionBatch) throws -> Void
  ) throws {
    guard range.leaf.isNull else { throw FormatError.corrupt("object range of another group") }
    var keys: [Int64] = []
    var rows: [[RealmValue]] = []
    func flush() throws {
      guard !keys.isEmpty else { return }
      try body(SelectionBatch(storage: .decoded(keys: keys, objects: rows)))
      keys.removeAll(keepingCapacity: true)
      rows.removeAll(keepingCapacity: true)
    }
    try forEachLegacyObject(stored, skip: Int(clamping: range.keyOffset), count: range.count) { key, values in
      keys.append(key)
      rows.append(values)
      if keys.count >= Group.rowBatch { try flush() }
    }
    try flush()
  }

  /// Calls `body` with the key and values of the objects at `selected` (ascending positions
  /// in `rows`, nil for every row) of a cluster leaf: column by column for the whole batch
  /// when most of it is wanted, object by object otherwise. With `positions`, `plans` are the
  /// columns at those positions of values `width` long; the others read as null.
  func decodeRows(
    _ leaf: ClusterLeaf, cursors: [Cursor], plans: [ColumnDecodePlan], positions: [Int]?, width: Int,
    rows: Range<Int>, selected: [Int]?, budget: DecodeBudget, columns: inout [[RealmValue]], values: inout [RealmValue],
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    let byColumn = selected.map { $0.count &* 4 >= rows.count } ?? true
    if byColumn {
      for c in 0..<cursors.count {
        columns[c].removeAll(keepingCapacity: true)
        try appendColumn(cursors[c], plans[c], rows: rows, budget: budget, into: &columns[c])
      }
    }
    func emit(_ n: Int) throws {
      guard n >= 0, n < rows.count else { throw FormatError.corrupt("selection \(n) outside a batch of \(rows.count)") }
      values.removeAll(keepingCapacity: true)
      if byColumn {
        if let positions {
          values.append(contentsOf: repeatElement(.null, count: width))
          for c in 0..<cursors.count { values[positions[c]] = columns[c][n] }
        } else {
          for c in 0..<cursors.count { values.append(columns[c][n]) }
        }
      } else {
        try rowValues(cursors, plans, row: rows.lowerBound &+ n, depth: 0, budget: budget, into: &values)
        if let positions {
          var placed = [RealmValue](repeating: .null, count: width)
          for c in 0..<positions.count { placed[positions[c]] = values[c] }
          values = placed
        }
      }
      try body(leaf.key(rows.lowerBound &+ n), values)
    }
    if let selected {
      for n in selected { try emit(n) }
    } else {
      for n in 0..<rows.count { try emit(n) }
    }
  }
}

/// Consecutive objects of one cluster leaf (at most 256) as a filter sees them: their keys
/// (``key(_:)``, read from the leaf when asked for: a filter mostly needs only the kept
/// objects' keys), the filter's properties straight from the leaves (``leafColumn(_:)``) or
/// decoded (``values(_:)``), and the decoding of the objects it keeps
/// (``forEachObject(_:columns:_:)``).
public struct SelectionBatch {
  let storage: Storage
  /// Number of objects.
  public let count: Int

  enum Storage {
    /// Rows of a cluster leaf.
    case leaf(LeafSource, rows: Range<Int>)
    /// Objects of a table of formats 2-9, decoded, and their keys.
    case decoded(keys: [Int64], objects: [[RealmValue]])
  }

  init(storage: Storage) {
    self.storage = storage
    switch storage {
    case .leaf(_, let rows): count = rows.count
    case .decoded(let keys, _): count = keys.count
    }
  }

  /// The key of object `i`; keys ascend with `i`.
  ///
  /// - Precondition: `0 <= i < count` (checked: a position past the batch would read past
  ///   the leaf's key array, so it traps as an array's subscript does).
  public func key(_ i: Int) -> Int64 {
    switch storage {
    case .leaf(let source, let rows):
      precondition(UInt(bitPattern: i) < UInt(bitPattern: rows.count), "object \(i) of a batch of \(rows.count)")
      return source.leaf.key(rows.lowerBound &+ i)
    case .decoded(let keys, _): return keys[i]
    }
  }

  /// What the batches of one cluster leaf share.
  final class LeafSource {
    let group: Group
    let leaf: ClusterLeaf
    let plans: [ColumnDecodePlan]
    /// By property position: the filter's columns.
    let filterCursors: [Group.Cursor?]
    let budget: DecodeBudget
    /// The budget of decoding the selected objects: a second pass over the leaf, which may
    /// expand the embedded objects the filter expanded once more.
    lazy var decodeBudget = group.makeBudget()
    /// The accessors of the columns last decoded for selected objects, and their positions.
    var decodeCursors: (positions: [Int]?, cursors: [Group.Cursor])?
    var columns: [[RealmValue]] = []
    var values: [RealmValue] = []

    init(group: Group, leaf: ClusterLeaf, plans: [ColumnDecodePlan], filterCursors: [Group.Cursor?], budget: DecodeBudget) {
      self.group = group
      self.leaf = leaf
      self.plans = plans
      self.filterCursors = filterCursors
      self.budget = budget
    }
  }

  /// Property `property` read straight from its leaf, nil when it is not one of the filter's
  /// properties or not a plain int, double, float, date or string column.
  public func leafColumn(_ property: Int) -> LeafColumn? {
    guard case .leaf(let source, let rows) = storage, property >= 0, property < source.filterCursors.count,
      case .scalar(let leaf)? = source.filterCursors[property]
    else { return nil }
    return LeafColumn(leaf, rows: rows, budget: source.budget)
  }

  /// The values of property `property` for every object, nil when it is not one of the
  /// filter's properties (objects of formats 2-9: every property).
  public func values(_ property: Int) throws -> ColumnValues? {
    switch storage {
    case .leaf(let source, let rows):
      guard property >= 0, property < source.filterCursors.count, let cursor = source.filterCursors[property] else { return nil }
      return try source.group.columnValues(cursor, source.plans[property], rows: rows, budget: source.budget)
    case .decoded(_, let objects):
      return .values(objects.map { property >= 0 && property < $0.count ? $0[property] : .null })
    }
  }

  /// The objects at `selected` (ascending positions in the batch) with every property, as
  /// one batch: the keys and values ``Group/forEachBatch(in:columns:_:)`` gives for those
  /// objects. Column by column, typed, when a quarter of the batch or more is selected (the
  /// whole batch decoded, then the selected objects taken); object by object otherwise.
  public func objectBatch(_ selected: [Int]) throws -> ObjectBatch {
    switch storage {
    case .decoded(let keys, let objects):
      let kept = selected.filter { $0 >= 0 && $0 < objects.count }
      let width = objects.first?.count ?? 0
      var columns = [[RealmValue]](repeating: [], count: width)
      for i in kept {
        for c in 0..<width { columns[c].append(c < objects[i].count ? objects[i][c] : .null) }
      }
      return ObjectBatch(keys: kept.map { keys[$0] }, columns: columns.map { ColumnValues.values($0) })
    case .leaf(let source, let rows):
      let plans = source.plans
      guard selected.count &* 4 >= rows.count else {
        var keys: [Int64] = []
        var columns = [[RealmValue]](repeating: [], count: plans.count)
        try forEachObject(selected, columns: nil) { key, values in
          keys.append(key)
          for c in 0..<min(values.count, columns.count) { columns[c].append(values[c]) }
        }
        return ObjectBatch(keys: keys, columns: columns.map { ColumnValues.values($0) })
      }
      for n in selected where n < 0 || n >= rows.count {
        throw FormatError.corrupt("selection \(n) outside a batch of \(rows.count)")
      }
      let cursors: [Group.Cursor]
      if let cached = source.decodeCursors, cached.positions == nil {
        cursors = cached.cursors
      } else {
        cursors = try source.group.cursors(source.leaf, plans)
        source.decodeCursors = (nil, cursors)
      }
      let all = selected.count == rows.count
      var batch = ObjectBatch(keys: [], columns: [])
      batch.keys.reserveCapacity(selected.count)
      for n in selected { batch.keys.append(source.leaf.key(rows.lowerBound &+ n)) }
      batch.columns.reserveCapacity(plans.count)
      for c in plans.indices {
        let column = try source.group.columnValues(cursors[c], plans[c], rows: rows, budget: source.decodeBudget)
        batch.columns.append(all ? column : column.gathering(selected))
      }
      return batch
    }
  }

  /// Calls `body` with the key and values of the objects at `selected` (ascending positions
  /// in the batch), decoding their properties `columns` (nil for all; the others read as
  /// null).
  public func forEachObject(
    _ selected: [Int], columns: Set<Int>?, _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    switch storage {
    case .decoded(let keys, let objects):
      for i in selected where i >= 0 && i < objects.count { try body(keys[i], objects[i]) }
    case .leaf(let source, let rows):
      let plans = source.plans
      let positions = columns.map { s in plans.indices.filter { s.contains($0) } }
      let chosen = positions.map { $0.map { plans[$0] } } ?? plans
      let cursors: [Group.Cursor]
      if let cached = source.decodeCursors, cached.positions == positions {
        cursors = cached.cursors
      } else {
        cursors = try source.group.cursors(source.leaf, chosen)
        source.decodeCursors = (positions, cursors)
      }
      if source.columns.count < cursors.count { source.columns = [[RealmValue]](repeating: [], count: cursors.count) }
      try source.group.decodeRows(
        source.leaf, cursors: cursors, plans: chosen, positions: positions, width: plans.count, rows: rows,
        selected: selected, budget: source.decodeBudget, columns: &source.columns, values: &source.values, body)
    }
  }
}
