import RealmModel
/// Reading the objects a filter selects: the filter's columns for every object, the rest for
/// the selected objects only.
extension Group {
  /// Calls `select` with batches of at most `Group.rowBatch` (256) consecutive objects of `table`
  /// holding only the properties `filterColumns` (typed, as ``forEachBatch(in:columns:_:)``
  /// gives them), then `body` with the key and values of each object `select` keeps, in key
  /// order. Only those objects' other properties (`columns`, nil for all) are decoded: a
  /// filter that keeps few objects decodes little more than its own columns.
  ///
  /// - Parameters:
  ///   - table: a table of this group.
  ///   - filterColumns: the properties (positions in the values) the filter reads.
  ///   - columns: the other properties to decode for the selected objects, nil for all.
  ///   - select: returns the positions (ascending, below the batch's count) of the objects
  ///     to keep.
  ///   - body: the values hold `filterColumns` and `columns`; other properties read as null.
  public func forEachSelectedObject(
    in table: Table, filterColumns: Set<Int>, columns: Set<Int>?,
    select: (ObjectBatch) throws -> [Int],
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    guard let index = tableIndex(table) else { throw FormatError.corrupt("table '\(table.name)' is not part of this group") }
    let allPlans = columnPlans[index]
    let filterPositions = allPlans.indices.filter { filterColumns.contains($0) }
    let otherPositions = allPlans.indices.filter { !filterColumns.contains($0) && (columns?.contains($0) ?? true) }
    if case .legacy(let stored) = tables[index].storage {
      let width = stored.properties.count
      return try forEachSelectedLegacyObject(
        table, width: width, filterPositions: (0..<width).filter { filterColumns.contains($0) }, columns: columns,
        select: select, body)
    }
    let filterPlans = filterPositions.map { allPlans[$0] }
    let otherPlans = otherPositions.map { allPlans[$0] }
    let budget = makeBudget()
    let objectCost = objectCost(index)
    var values = [RealmValue](repeating: .null, count: allPlans.count)
    var others: [RealmValue] = []
    var bodyError: (any Error)?
    do {
      try clusterTree.forEachLeaf(root: table.clusterRoot) { (leaf) throws(FormatError) in
        do {
          let filterCursors = try cursors(leaf, filterPlans)
          var otherCursors: [Cursor]?
          for start in stride(from: 0, to: leaf.count, by: Group.rowBatch) {
            let rows = start..<min(start + Group.rowBatch, leaf.count)
            try budget.spend(rows.count &* objectCost)
            var batch = ObjectBatch(keys: [], columns: [ColumnValues?](repeating: nil, count: allPlans.count))
            batch.keys.reserveCapacity(rows.count)
            for row in rows { batch.keys.append(leaf.key(row)) }
            for (c, p) in filterPositions.enumerated() {
              batch.columns[p] = try columnValues(filterCursors[c], filterPlans[c], rows: rows, budget: budget)
            }
            let selected: [Int]
            do { selected = try select(batch) } catch {
              bodyError = error
              throw error
            }
            guard !selected.isEmpty else { continue }
            if otherCursors == nil { otherCursors = try cursors(leaf, otherPlans) }
            // Most of the batch kept: its other columns decoded column by column, as a scan does.
            var otherColumns: [ColumnValues] = []
            if selected.count &* 4 >= rows.count {
              for c in otherPlans.indices {
                otherColumns.append(try columnValues(otherCursors![c], otherPlans[c], rows: rows, budget: budget))
              }
            }
            for i in selected {
              guard i >= 0, i < rows.count else { throw FormatError.corrupt("selection \(i) outside a batch of \(rows.count)") }
              for p in filterPositions { values[p] = batch.columns[p]!.value(at: i) }
              if otherColumns.isEmpty {
                others.removeAll(keepingCapacity: true)
                try rowValues(otherCursors!, otherPlans, row: rows.lowerBound + i, depth: 0, budget: budget, into: &others)
                for (c, p) in otherPositions.enumerated() { values[p] = others[c] }
              } else {
                for (c, p) in otherPositions.enumerated() { values[p] = otherColumns[c].value(at: i) }
              }
              do { try body(batch.keys[i], values) } catch {
                bodyError = error
                throw error
              }
            }
          }
        } catch let error as FormatError where bodyError == nil {
          throw error
        } catch {
          if bodyError == nil { bodyError = error }
          throw FormatError(.corrupt, "iteration stopped by its caller")
        }
      }
    } catch {
      if let bodyError { throw bodyError }
      throw error
    }
  }

  /// Tables of formats 2-9: objects read one by one, gathered into batches for `select`.
  private func forEachSelectedLegacyObject(
    _ table: Table, width: Int, filterPositions: [Int], columns: Set<Int>?,
    select: (ObjectBatch) throws -> [Int], _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    var keys: [Int64] = []
    var rows: [[RealmValue]] = []
    func flush() throws {
      guard !keys.isEmpty else { return }
      var batch = ObjectBatch(keys: keys, columns: [ColumnValues?](repeating: nil, count: width))
      for p in filterPositions { batch.columns[p] = .values(rows.map { p < $0.count ? $0[p] : .null }) }
      for i in try select(batch) where i >= 0 && i < keys.count { try body(keys[i], rows[i]) }
      keys.removeAll(keepingCapacity: true)
      rows.removeAll(keepingCapacity: true)
    }
    try forEachObject(in: table, columns: columns.map { $0.union(filterPositions) }) { key, values in
      keys.append(key)
      rows.append(values)
      if keys.count >= Group.rowBatch { try flush() }
    }
    try flush()
  }
}
