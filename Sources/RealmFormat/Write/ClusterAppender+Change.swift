import RealmModel

extension ClusterAppender.Stream {
  /// The existing leaves of the table, in key order (empty leaves left out): the leaves
  /// ``change(leaf:rows:columns:values:unchanged:sink:)`` takes by number.
  public var existingLeaves: [ClusterTreeWriter.Leaf] { Array(leaves[0..<existingLeafCount]) }

  /// Changes some objects of existing leaf number `index` (``existingLeaves``): the
  /// streamed upsert's change of one cluster, beside the objects the stream appends.
  ///
  /// Only the columns where some value differs from the stored one (`unchanged` says which do)
  /// get a new column leaf, and the leaf gets a new node when one does; ``finish(sequence:sink:)``
  /// then writes the inner nodes over the changed leaves. A changed column must be a single
  /// value column ``ClusterUpdater/unsupportedReason(column:table:)`` accepts; a value given
  /// unchanged may be of any column (a link, a collection).
  ///
  /// - Parameters:
  ///   - index: the leaf's number in ``existingLeaves``.
  ///   - rows: the changed objects' rows in the leaf, ascending.
  ///   - changed: the public columns (spec order) some of them give.
  ///   - values: by column (as `changed`), the value of each row (as `rows`); nil where that
  ///     object does not give it.
  ///   - unchanged: for a decoded column, rows and their given values (nil: not given),
  ///     whether each row's stored value equals the given one (false where none is given);
  ///     called once per given column.
  ///   - sink: where the new column leaves and the leaf go.
  /// - Returns: the number of objects of which some value changed.
  /// - Throws: ``FormatError`` when a changed column cannot be changed in place or a value does
  ///   not encode (the caller then drops the transaction).
  public mutating func change<S: NodeSink>(
    leaf index: Int, rows: [Int], columns changed: [Int], values: [[RealmValue?]],
    unchanged: (ColumnValues, [Int], [RealmValue?]) -> [Bool], sink: inout S
  ) throws(FormatError) -> Int {
    guard index >= 0 && index < existingLeafCount else { throw FormatError.corrupt("table '\(table.name)' has no leaf \(index)") }
    let entry = leaves[index]
    let node = try ArrayNode(elements: group.reader, entry.ref)
    let leaf = try ClusterLeaf(node, offset: UInt64(bitPattern: entry.offset))
    guard values.count == changed.count, values.allSatisfy({ $0.count == rows.count }),
      rows.indices.allSatisfy({ rows[$0] >= 0 && rows[$0] < leaf.count && ($0 == 0 || rows[$0 - 1] < rows[$0]) })
    else { throw FormatError.corrupt("the changes of a leaf of '\(table.name)' do not match its \(leaf.count) objects") }
    guard let tableIndex = group.tableIndex(table) else { throw FormatError.corrupt("table '\(table.name)' is not part of this group") }
    let plans = group.columnPlans[tableIndex]
    guard changed.allSatisfy({ $0 >= 0 && $0 < columns.count && $0 < plans.count }) else {
      throw FormatError.corrupt("table '\(table.name)' has no such column")
    }
    let cursors = try group.cursors(leaf, changed.map { plans[$0] })
    let budget = group.makeBudget()
    var slots = try MetadataEditor.elements(of: node)
    var differs = [Bool](repeating: false, count: rows.count)
    var written = false
    for (k, c) in changed.enumerated() {
      let current = try group.columnValues(cursors[k], plans[c], rows: 0..<leaf.count, budget: budget)
      let same = unchanged(current, rows, values[k])
      guard same.count == rows.count else { throw FormatError.corrupt("the comparison of a leaf of '\(table.name)' does not match its changes") }
      var puts: [(row: Int, value: RealmValue)] = []
      for (i, row) in rows.enumerated() {
        guard let v = values[k][i], !same[i] else { continue }
        puts.append((row, v))
        differs[i] = true
      }
      guard !puts.isEmpty else { continue }
      let column = columns[c]
      if let reason = ClusterUpdater.unsupportedReason(column: column, table: table) {
        throw FormatError.corrupt("cannot change '\(table.name)' in place: \(reason)")
      }
      let type = try ComputedColumn.propertyType(column.type, table: table.name)
      for i in puts.indices {
        puts[i].value = try TypedLeafEncoder.coerced(puts[i].value, to: type)
        if puts[i].value.isNull && !column.isNullable {
          throw FormatError.corrupt("'\(table.name).\(column.name)': a value is required but found null")
        }
      }
      let slot = 1 + column.leafIndex
      guard slot < slots.count else { throw FormatError.corrupt("cluster leaf of '\(table.name)' has no slot for '\(column.name)'") }
      if slots[slot] != 0 { result.freedDeep.append(try MetadataEditor.refAt(slots, slot)) }
      let ref = try ColumnLeafEncoder.leaf(type: type, nullable: column.isNullable, values: current.replacing(puts), into: &sink)
      slots[slot] = Int64(ref.rawValue)
      written = true
    }
    guard written else { return 0 }
    result.replaced.append(entry.ref)
    leaves[index].ref = sink.append(NodeEncoder.refArray(slots, contextFlag: node.header.contextFlag))
    changedLeaves += 1
    return differs.reduce(0) { $0 + ($1 ? 1 : 0) }
  }
}
