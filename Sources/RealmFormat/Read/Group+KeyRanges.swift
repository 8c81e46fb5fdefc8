import RealmModel

/// Where a read of a table's objects starts: after an object key, or at a position in key
/// order. Either is found by walking one path down the table's tree, so the cost of a page does
/// not grow with the objects before it.
public enum ObjectSeek: Sendable, Equatable {
  /// The first object whose key is greater than this one (a key before every object: the
  /// first object).
  case afterKey(Int64)
  /// The object at this position in key order (0 is the first).
  case position(Int)
}

extension Group {
  /// Calls `body` with the key and values of the objects of `table` from `start` on, in key
  /// order, until it returns false: a page of a class read without reading the objects before
  /// it (the browser's pages of `realmctl studio`).
  ///
  /// The first object is found by walking one path down the cluster tree (for a position,
  /// the children's counts are read from their headers); then the objects are decoded a
  /// cluster leaf at a time, exactly as ``forEachObject(in:skip:columns:_:)`` delivers them.
  /// Memory and time depend on the objects delivered, not on where they are in the table.
  ///
  /// - Parameters:
  ///   - table: a table of this group.
  ///   - start: the first object: after a key, or at a position.
  ///   - selected: when given, only these properties (positions in the values) are decoded.
  ///   - body: called with each object's key and values; returns false to stop.
  /// - Throws: ``FormatError`` for a damaged file, or whatever `body` throws.
  public func forEachObject(
    in table: Table, from start: ObjectSeek, columns selected: Set<Int>? = nil,
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Bool
  ) throws {
    guard let index = tableIndex(table) else { throw FormatError.corrupt("table '\(table.name)' is not part of this group") }
    struct Stop: Error {}
    if case .legacy(let stored) = tables[index].storage {
      // Formats 2-9: the key is the row.
      let first: Int
      switch start {
      case .afterKey(let key): first = key < 0 ? 0 : (key >= Int64(stored.rowCount) ? stored.rowCount : Int(key) + 1)
      case .position(let p): first = max(0, p)
      }
      do {
        try forEachLegacyObject(stored, skip: first, columns: selected) { key, values in
          if try !body(key, values) { throw Stop() }
        }
      } catch is Stop {}
      return
    }
    let allPlans = columnPlans[index]
    let positions = selected.map { s in allPlans.indices.filter { s.contains($0) } }
    let plans = positions.map { $0.map { allPlans[$0] } } ?? allPlans
    var values: [RealmValue] = []
    values.reserveCapacity(allPlans.count)
    let budget = makeBudget()
    let rowCost = objectCost(index)
    var columns = [[RealmValue]](repeating: [], count: plans.count)
    var bodyError: (any Error)?
    var stopped = false
    let seek: ClusterTree.Start
    switch start {
    case .afterKey(let key): seek = .afterKey(key)
    case .position(let p): seek = .position(max(0, p))
    }
    do {
      try clusterTree.forEachLeaf(root: table.clusterRoot, from: seek) { (leaf, first) throws(FormatError) -> Bool in
        do {
          try decodeLeaf(
            leaf, plans: plans, positions: positions, width: allPlans.count, from: first, budget: budget,
            objectCost: rowCost, columns: &columns, values: &values
          ) { key, values in
            if stopped { return }
            do {
              if try !body(key, values) { stopped = true }
            } catch {
              bodyError = error
              throw error
            }
          }
        } catch let error as FormatError where bodyError == nil {
          throw error
        } catch {
          if bodyError == nil { bodyError = error }
          throw FormatError(.corrupt, "iteration stopped by its caller")
        }
        return !stopped
      }
    } catch {
      if let bodyError { throw bodyError }
      throw error
    }
  }
}
