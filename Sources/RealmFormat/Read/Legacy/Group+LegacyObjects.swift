import RealmModel
/// Reading the objects of tables of file formats 2-9 (see ``LegacyGroupLayout``): object key
/// = row index, values decoded column by column in batches of rows, one leaf at a time.
extension Group {
  /// Calls `body` with every object of a legacy table from row `skip` on (`count` of them at
  /// most), in row order; with `selected`, only those properties are decoded (the others are
  /// null).
  func forEachLegacyObject(
    _ table: LegacyTable, skip: Int, count: Int? = nil, columns selected: Set<Int>? = nil,
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    let start = min(max(skip, 0), table.rowCount)
    let end = count.map { min(table.rowCount, start + max($0, 0)) } ?? table.rowCount
    guard start < end else { return }
    try checkLegacyColumnSizes(table)
    let context = LegacyReadContext(reader: reader, limits: limits, budget: makeBudget())
    let positions = table.properties.indices.filter { selected?.contains($0) ?? true }
    var scans: [LegacyColumnScan] = []
    scans.reserveCapacity(positions.count)
    for p in positions {
      let property = table.properties[p]
      scans.append(try LegacyColumnScan(kind: property.kind, root: table.roots[property.specIndex], startingAt: start, context: context))
    }
    var columns = [[RealmValue]](repeating: [], count: scans.count)
    var values = [RealmValue](repeating: .null, count: table.properties.count)
    let rowCost = legacyObjectCost(table)
    for batch in stride(from: start, to: end, by: Group.rowBatch) {
      let n = min(Group.rowBatch, end - batch)
      try context.budget.spend(n &* rowCost)
      for c in scans.indices {
        columns[c].removeAll(keepingCapacity: true)
        try scans[c].append(n, into: &columns[c])
      }
      for r in 0..<n {
        for (c, p) in positions.enumerated() { values[p] = columns[c][r] }
        try body(Int64(batch + r), values)
      }
    }
  }

  /// The values of row `key` of a legacy table, nil when there is no such row; with
  /// `selected`, only those properties are decoded (the others are null).
  func legacyObject(_ table: LegacyTable, key: Int64, columns selected: Set<Int>? = nil) throws(FormatError) -> [RealmValue]? {
    guard key >= 0, key < Int64(table.rowCount) else { return nil }
    try checkLegacyColumnSizes(table)
    let context = LegacyReadContext(reader: reader, limits: limits, budget: makeBudget())
    try context.budget.spend(legacyObjectCost(table))
    var values = [RealmValue](repeating: .null, count: table.properties.count)
    for (p, property) in table.properties.enumerated() where selected?.contains(p) ?? true {
      var one: [RealmValue] = []
      var scan = try LegacyColumnScan(kind: property.kind, root: table.roots[property.specIndex], startingAt: Int(key), context: context)
      try scan.append(1, into: &one)
      values[p] = one[0]
    }
    return values
  }

  /// The units an object of a legacy table costs before its values: 1, and 1 per 16 bytes of
  /// the class and property names a dump prints with it (as ``objectCost(_:)``).
  func legacyObjectCost(_ table: LegacyTable) -> Int {
    var nameBytes = table.name.utf8.count
    for p in table.properties { nameBytes &+= (table.spec.columns[p.specIndex].name ?? "").utf8.count }
    return ReadBudget.cost(ofPayloadBytes: nameBytes)
  }

  /// Every column read as a property must hold one value per row (Realm Core 11's
  /// `migrate_objects` asserts it).
  func checkLegacyColumnSizes(_ table: LegacyTable) throws(FormatError) {
    for p in table.properties {
      let n = try LegacyColumnScan.count(kind: p.kind, root: table.roots[p.specIndex], reader: reader)
      guard n == table.rowCount else {
        let name = table.spec.columns[p.specIndex].name ?? ""
        throw FormatError.corrupt(
          "column '\(name)' of table '\(table.name)' holds \(n) values for \(table.rowCount) rows", at: table.roots[p.specIndex].rawValue)
      }
    }
  }
}
