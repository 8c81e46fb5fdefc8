/// Reading the backlinks of one object (§4.8, §6.12).
extension Group {
  /// The keys of the objects that link to object `key` of `table` through the link column
  /// that `column` (a backlink column of `table`) mirrors, once per link, as stored; nil when
  /// `table` has no object `key`.
  ///
  /// Reads the object's backlink cell: 0 for none, a tagged key for one origin, or a ref to a
  /// list of keys (a B+-tree, walked with a bounded budget).
  public func backlinkOrigins(in table: Table, key: Int64, column: Column) throws(FormatError) -> [Int64]? {
    guard column.isBacklink else { throw FormatError.corrupt("column '\(column.name)' of '\(table.name)' is not a backlink column") }
    guard tableIndex(table) != nil, legacyStorage(table) == nil else { return nil }
    guard let (leaf, row) = try clusterTree.find(root: table.clusterRoot, key: key) else { return nil }
    guard let node = try leaf.columnNode(column.leafIndex), node.hasRefs, node.count == leaf.count else {
      throw FormatError.corrupt("backlink column leaf does not match its cluster", at: leaf.node.ref.rawValue)
    }
    var origins: [Int64] = []
    switch RefOrTagged(raw: node.uncheckedGet(row)) {
    case .null: break
    case .tagged(let v): origins.append(Int64(bitPattern: v))
    case .ref(let r):
      let budget = makeBudget()
      try bPlusTree.forEachLeaf(root: r, budget: budget) { (list) throws(FormatError) in
        let ints = try IntLeaf(list, nullable: false)
        try budget.spend(ints.count)
        for i in 0..<ints.count { origins.append(ints.value(i) ?? 0) }
      }
    }
    return origins
  }

  /// The stored form of a table of formats 2-9, nil for cluster tables.
  private func legacyStorage(_ table: Table) -> LegacyTable? {
    guard let i = tableIndex(table), case .legacy(let stored) = tables[i].storage else { return nil }
    return stored
  }
}
