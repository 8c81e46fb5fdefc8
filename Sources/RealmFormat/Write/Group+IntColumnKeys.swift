import RealmModel

extension Group {
  /// The keys of `table`'s objects (ascending) and the values of its non-nullable int
  /// column `column`, read straight from the cluster leaves, without a value per object: what
  /// `insert` matches primary keys against. nil when the column is not such a column, the
  /// table has the old layout, or a leaf stores the column in another form (the caller then
  /// reads the values the general way). Throws when the leaves hold another number of objects
  /// than the table says (a damaged or hostile count).
  public func keysAndInts(of table: Table, column: Column) throws(FormatError) -> (keys: [Int64], values: [Int64])? {
    guard !table.isLegacyLayout, Self.isPlainInt(column) else { return nil }
    var keys: [Int64] = []
    var values: [Int64] = []
    // The count is the file's word: a hostile one must not size the arrays.
    let expected = reservableObjectCount(of: table)
    keys.reserveCapacity(expected)
    values.reserveCapacity(expected)
    var plain = true
    try clusterTree.forEachLeaf(root: table.clusterRoot) { (leaf) throws(FormatError) in
      guard plain, leaf.count > 0 else { return }
      guard let node = try Self.plainInts(leaf, column) else {
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

  /// True for a non-nullable int column of single values (not a link).
  static func isPlainInt(_ column: Column) -> Bool {
    column.type == .int && !column.isNullable && !column.isLink && column.collectionKind == .single
  }

  /// The leaf of int column `column` in `leaf` when it is a plain packed array of one value
  /// per object; nil when it is stored in another form.
  static func plainInts(_ leaf: ClusterLeaf, _ column: Column) throws(FormatError) -> ArrayNode? {
    guard let node = try leaf.columnNode(column.leafIndex), !node.hasRefs, node.header.widthType == .bits, node.count == leaf.count else {
      return nil
    }
    return node
  }
}

extension Group {
  /// The keys of cluster leaf `leaf` (of this group's file) and the values of its
  /// non-nullable int column `column`, read without a value per object: what a streamed
  /// upsert reads primary keys with, a leaf at a time (``ClusterAppender/Stream/existingLeaves``).
  /// nil when the column is not such a column or the leaf stores it in another form.
  public func keysAndInts(ofLeaf leaf: ClusterTreeWriter.Leaf, column: Column) throws(FormatError) -> (keys: [Int64], values: [Int64])? {
    guard Self.isPlainInt(column) else { return nil }
    let l = try ClusterLeaf(try ArrayNode(elements: reader, leaf.ref), offset: UInt64(bitPattern: leaf.offset))
    guard let node = try Self.plainInts(l, column) else { return nil }
    var keys: [Int64] = []
    var values: [Int64] = []
    keys.reserveCapacity(l.count)
    values.reserveCapacity(l.count)
    for j in 0..<l.count {
      keys.append(l.key(j))
      values.append(node.uncheckedGet(j))
    }
    return (keys, values)
  }
}
