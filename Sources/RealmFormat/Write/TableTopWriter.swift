/// Writes a table's spec and its 14-slot top array (§4.1, §4.2, §8.3 steps 5-6).
enum TableTopWriter {
  /// The spec: `[types, names, attributes, 0, 0, column keys]`, public columns first, then
  /// backlink columns (which have no name).
  static func spec<S: NodeSink>(_ table: TablePlan, into sink: inout S) -> Ref {
    let all = table.columns + table.backlinks
    let types = sink.append(NodeEncoder.integers(all.map(\.specType)))
    let names = sink.append(StringLeafEncoder.shortStringNode(table.columns.map { Array(($0.name ?? "").utf8) }))
    let attributes = sink.append(NodeEncoder.integers(all.map { Int64($0.attributes.rawValue) }))
    let keys = sink.append(NodeEncoder.integers(all.map(\.colKey.rawValue)))
    return sink.append(
      NodeEncoder.refArray([types, names, attributes, .null, .null, keys].map { Int64($0.rawValue) }))
  }

  /// The table top array. `indexes` holds one entry per leaf index (0 or an index root).
  static func top<S: NodeSink>(
    _ table: TablePlan, clusterRoot: Ref, indexes: [Ref], sequence: Int64, into sink: inout S
  ) -> Ref {
    let all = table.columns + table.backlinks
    let specRef = spec(table, into: &sink)
    let indexRef = sink.append(NodeEncoder.refArray(indexes.map { Int64($0.rawValue) }))
    let oppositeTables = sink.append(
      NodeEncoder.integers(all.map { $0.oppositeTable.map(Int64.init) ?? FormatConstants.nullTableKey }))
    let oppositeColumns = sink.append(NodeEncoder.integers(all.map(\.oppositeColumn.rawValue)))
    let primaryKey = table.primaryKey.map { RefOrTagged.taggedRaw(UInt64(table.columns[$0].colKey.rawValue)) } ?? 0
    let type: TableType = table.isEmbedded ? .embedded : .topLevel
    let slots: [Int64] = [
      Int64(specRef.rawValue),
      0,
      Int64(clusterRoot.rawValue),
      RefOrTagged.taggedRaw(UInt64(table.key)),
      Int64(indexRef.rawValue),
      RefOrTagged.taggedRaw(0),  // column key sequence: no column was ever removed
      RefOrTagged.taggedRaw(0),  // table version
      Int64(oppositeTables.rawValue),
      Int64(oppositeColumns.rawValue),
      RefOrTagged.taggedRaw(UInt64(sequence)),
      0,  // no collision map (format >= 22 keys are not hashed)
      primaryKey,
      RefOrTagged.taggedRaw(UInt64(type.rawValue)),
      0,  // no tombstones
    ]
    return sink.append(NodeEncoder.refArray(slots))
  }
}
