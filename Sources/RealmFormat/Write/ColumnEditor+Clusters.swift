import RealmModel
/// Copies every node of one cluster tree with its column slots changed (§5.1, §5.2): removed
/// columns' slots become holes (or are truncated), added columns get a constant leaf.
///
/// Each leaf gets its own constant leaves: nodes may not be shared (§1.4).
struct ClusterRewriter {
  let reader: ByteReader
  let removedLeaves: [Int]
  let added: [(leaf: Int, column: ColumnEditor.NewColumn)]
  /// Leaf indexes of the table after the edit (cluster leaves have 1 + leafCount slots).
  let leafCount: Int
  let tableName: String
  /// The file's format, which the new leaves keep (Mixed leaves differ, §6.11).
  let format: WritableFileFormat
  /// Old nodes replaced by copies (free shallowly).
  var replaced: [Ref] = []
  /// Removed columns' leaves (free deeply).
  var freedDeep: [Ref] = []
  /// Nodes visited, bounded so that a cycle cannot make the walk endless.
  private var visited = 0
  /// Objects the leaves copied so far hold: the caller checks the table's count against it,
  /// since the copied root keeps the count the file claims.
  private(set) var objects = 0
  /// Columns whose leaves are computed from the objects' values, when there are any.
  var computation: ClusterComputation?

  /// Largest object count accepted in one cluster leaf (core uses 256, test builds less).
  static let maxClusterObjects = 1 << 16
  /// Leaf slots the kept columns need (highest kept leaf index + 1).
  let keptSlotCount: Int

  /// Deeper trees than this cannot exist with 256-way nodes (§5.3) and 2^64 keys.
  static let maxDepth = 16

  init(
    reader: ByteReader, removedLeaves: [Int], added: [(leaf: Int, column: ColumnEditor.NewColumn)],
    leafCount: Int, keptSlotCount: Int, tableName: String, format: WritableFileFormat = .current
  ) {
    self.format = format
    self.reader = reader
    self.keptSlotCount = keptSlotCount
    self.removedLeaves = removedLeaves
    self.added = added
    self.leafCount = leafCount
    self.tableName = tableName
  }

  /// Writes the copy of the subtree at `ref` and returns its new ref.
  /// `offset` is the key offset of the subtree (§5.2), for the keys computed columns are
  /// asked for.
  mutating func rewrite<S: NodeSink>(_ ref: Ref, depth: Int, offset: UInt64, sink: inout S) throws -> Ref {
    guard depth <= Self.maxDepth else { throw FormatError.corrupt("the cluster tree of '\(tableName)' is deeper than \(Self.maxDepth)") }
    visited += 1
    guard visited <= reader.count / 8 else { throw FormatError.corrupt("the cluster tree of '\(tableName)' has a cycle") }
    let node = try ArrayNode(reader, ref)
    guard node.hasRefs, node.count >= 1 else { throw FormatError.corrupt("cluster node at \(ref) is not a has-refs array") }
    var slots = try MetadataEditor.elements(of: node)
    if node.isInner {
      guard slots.count >= 3 else { throw FormatError.corrupt("inner cluster node at \(ref) has \(slots.count) slots") }
      let inner = try computation.map { c throws(FormatError) in try InnerClusterNode(node, shift: c.group.clusterShift) }
      let objectsBefore = objects
      for i in 3..<slots.count {
        let child = try MetadataEditor.refAt(slots, i)
        let childOffset = offset &+ (inner?.childOffset(i - 3) ?? 0)
        slots[i] = Int64(try rewrite(child, depth: depth + 1, offset: childOffset, sink: &sink).rawValue)
      }
      // The copy keeps the node's count: it must be the one its leaves hold (the root's is
      // the table's, checked by the caller with the table's name).
      let claimed = try Table.clusterObjectCount(reader, ref)
      guard depth == 0 || claimed == objects - objectsBefore else {
        throw FormatError.corrupt(
          "inner cluster node at \(ref) of '\(tableName)' says it holds \(claimed) objects but its leaves hold \(objects - objectsBefore)")
      }
      replaced.append(ref)
      return sink.append(NodeEncoder.refArray(slots, isInner: true, contextFlag: node.header.contextFlag))
    }
    let n = try Table.clusterObjectCount(reader, ref)
    // Realm's clusters hold at most 256 objects (§5.3); a larger count is hostile and would
    // make the constant leaf as large as the count says.
    guard n <= Self.maxClusterObjects else {
      throw FormatError.corrupt("cluster leaf at \(ref) claims \(n) objects, more than \(Self.maxClusterObjects)")
    }
    objects += n
    guard slots.count >= 1 + keptSlotCount else {
      throw FormatError.corrupt("cluster leaf at \(ref) has \(slots.count - 1) column slots, '\(tableName)' needs \(keptSlotCount)")
    }
    for leaf in removedLeaves where 1 + leaf < slots.count {
      let old = slots[1 + leaf]
      if old != 0 { freedDeep.append(try MetadataEditor.refAt(slots, 1 + leaf)) }
      slots[1 + leaf] = 0
    }
    if slots.count > 1 + leafCount {
      // Only holes can lie past the last leaf index (removed columns, freed above).
      guard slots[(1 + leafCount)...].allSatisfy({ $0 == 0 }) else {
        throw FormatError.corrupt("cluster leaf at \(ref) has more column slots than '\(tableName)' has columns")
      }
      slots.removeSubrange((1 + leafCount)...)
    } else if slots.count < 1 + leafCount {
      slots += [Int64](repeating: 0, count: 1 + leafCount - slots.count)
    }
    for (c, (leaf, column)) in added.enumerated() {
      slots[1 + leaf] = Int64(try constantLeaf(c, column, count: n, sink: &sink).rawValue)
    }
    if computation != nil {
      let leaf = try ClusterLeaf(try ArrayNode(elements: reader, ref), offset: offset)
      guard leaf.count == n else { throw FormatError.corrupt("cluster leaf at \(ref) has \(leaf.count) keys for \(n) objects") }
      try computation!.computeLeaves(leaf, slots: &slots, freed: &freedDeep, sink: &sink)
    }
    replaced.append(ref)
    return sink.append(NodeEncoder.refArray(slots, contextFlag: node.header.contextFlag))
  }

  /// Encoded single-node constant leaves by added column and object count: most clusters
  /// hold 256 objects, so each distinct leaf is encoded once and its bytes appended again for
  /// every cluster (a new node each time: nodes are never shared, §1.4).
  private var encodedLeaves: [Int: [Int: [UInt8]]] = [:]
  /// Added columns whose leaf is several nodes (timestamps, long strings): encoded per cluster.
  private var multiNodeColumns: Set<Int> = []

  mutating func constantLeaf<S: NodeSink>(
    _ c: Int, _ column: ColumnEditor.NewColumn, count: Int, sink: inout S
  ) throws(FormatError) -> Ref {
    if let bytes = encodedLeaves[c]?[count] { return sink.append(bytes) }
    if !multiNodeColumns.contains(c) {
      var recorder = NodeRecorder()
      _ = try Self.constantLeaf(column, count: count, format: format, sink: &recorder)
      if recorder.nodes.count == 1 {
        encodedLeaves[c, default: [:]][count] = recorder.nodes[0]
        return sink.append(recorder.nodes[0])
      }
      multiNodeColumns.insert(c)
    }
    return try Self.constantLeaf(column, count: count, format: format, sink: &sink)
  }

  /// The leaf of `count` copies of the column's value (§6); collections start empty (null refs).
  static func constantLeaf<S: NodeSink>(
    _ column: ColumnEditor.NewColumn, count: Int, format: WritableFileFormat = .current, sink: inout S
  ) throws(FormatError) -> Ref {
    let p = column.property
    guard p.collection == .single else {
      return CollectionLeafEncoder.collectionRefs([Ref](repeating: .null, count: count), into: &sink)
    }
    let values = ArraySlice(repeatElement(column.value, count: count))
    let nullable = p.isOptional || p.type == .mixed
    return try TypedLeafEncoder.leaf(type: p.type, nullable: nullable, values: values, format: format, into: &sink)
  }
}

/// Keeps the nodes an encoder appends instead of placing them (refs are placeholders, so only
/// a single node without children can be used as is).
private struct NodeRecorder: NodeSink {
  var nodes: [[UInt8]] = []
  private var end = 8
  mutating func append(_ node: [UInt8]) -> Ref {
    nodes.append(node)
    defer { end += node.count }
    return Ref(end)
  }
}
