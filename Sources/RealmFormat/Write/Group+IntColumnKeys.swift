import RealmModel

extension Group {
  /// The keys of `table`'s objects (ascending) and the values of its non-nullable int
  /// column `column`, read straight from the cluster leaves, without a value per object: what
  /// `insert` matches primary keys against. nil when the column is not such a column, the
  /// table has the old layout, or a leaf stores the column in another form (the caller then
  /// reads the values the general way). Throws when the leaves hold another number of objects
  /// than the table says (a damaged or hostile count).
  public func keysAndInts(of table: Table, column: Column) throws(FormatError) -> (keys: [Int64], values: [Int64])? {
    guard !table.isLegacyLayout, column.type == .int, !column.isNullable, !column.isLink, column.collectionKind == .single else {
      return nil
    }
    var keys: [Int64] = []
    var values: [Int64] = []
    // The count is the file's word: a hostile one must not size the arrays.
    let expected = reservableObjectCount(of: table)
    keys.reserveCapacity(expected)
    values.reserveCapacity(expected)
    var plain = true
    try clusterTree.forEachLeaf(root: table.clusterRoot) { (leaf) throws(FormatError) in
      guard plain, leaf.count > 0 else { return }
      guard let node = try leaf.columnNode(column.leafIndex), !node.hasRefs, node.header.widthType == .bits, node.count == leaf.count else {
        plain = false
        return
      }
      for j in 0..<leaf.count {
        keys.append(leaf.key(j))
        values.append(node.uncheckedGet(j))
      }
    }
    guard plain else { return nil }
    // The caller counts and writes with the table's count: its leaves must agree with it.
    try table.requireObjectCount(keys.count)
    return (keys, values)
  }
}
