/// Copies a reachable node tree from an existing file into a sink: children before parents,
/// refs relocated, tagged values kept (§1.4). The tool behind `compact` and behind
/// migrations that keep unchanged subtrees (a column, a table) verbatim.
///
/// The source is untrusted: every node is validated by `ArrayNode`, the depth is bounded by
/// ``Limits/maxDepth``, a node reached twice (a cycle or a shared node, both invalid in
/// Realm) is an error, and the number of nodes is bounded by the file size.
public struct NodeTreeCopier {
  /// The file being copied from.
  public let reader: ByteReader
  /// Limits for the walk.
  public let limits: Limits
  private var visited = Set<Int>()

  /// Creates a copier reading `reader`.
  public init(reader: ByteReader, limits: Limits = .default) {
    self.reader = reader
    self.limits = limits
  }

  /// Number of nodes copied so far.
  public var copiedNodeCount: Int { visited.count }

  /// Copies the tree rooted at `ref` into `sink` and returns the new root. Null stays null.
  public mutating func copy<S: NodeSink>(_ ref: Ref, into sink: inout S) throws(FormatError) -> Ref {
    if ref.isNull { return .null }
    return try copy(ref, depth: 0, into: &sink)
  }

  private mutating func copy<S: NodeSink>(_ ref: Ref, depth: Int, into sink: inout S) throws(FormatError) -> Ref {
    guard depth <= limits.maxDepth else {
      throw FormatError.limit("node tree deeper than \(limits.maxDepth) levels at \(ref)", at: ref.rawValue)
    }
    guard visited.insert(ref.rawValue).inserted else {
      throw FormatError.corrupt("node at \(ref) is reached twice (a cycle or a shared node)", at: ref.rawValue)
    }
    let node = try ArrayNode(reader, ref)
    guard node.hasRefs else {
      // Plain node: header and payload verbatim, padding zeroed.
      var bytes = node.header.encoded
      bytes.append(contentsOf: try reader.bytes(at: node.payload, count: node.header.payloadSize))
      NodeEncoder.finish(&bytes, node.header)
      return sink.append(bytes)
    }
    guard node.header.widthType == .bits else {
      throw FormatError.corrupt("has-refs node at \(ref) has a byte-sized width type", at: ref.rawValue)
    }
    var elements = [Int64]()
    elements.reserveCapacity(node.count)
    for i in 0..<node.count {
      let raw = node.uncheckedGet(i)
      if raw != 0 && raw & 1 == 0 {
        guard let offset = Int(exactly: raw), offset > 0 else {
          throw FormatError.corrupt("element \(i) of node at \(ref) is not a valid ref", at: ref.rawValue)
        }
        elements.append(Int64(try copy(Ref(offset), depth: depth + 1, into: &sink).rawValue))
      } else {
        elements.append(raw)
      }
    }
    return sink.append(NodeEncoder.refArray(elements, isInner: node.isInner, contextFlag: node.contextFlag))
  }
}

/// Writes a compacted copy of a file: every table and the history copied node by node, no
/// free space but the tail of the last page, in the same committed form as new files.
public enum RealmFileCompactor {
  /// Copies the group at `topRef` of `reader` into `sink` and returns the new header and
  /// size. `fileFormat` is kept (the nodes are copied unchanged). The history type, history,
  /// history schema version, sync file ident and snapshot version are kept when the source
  /// top array has them; the free lists and an evacuation point are dropped.
  public static func compact<S: SequentialNodeSink>(
    _ reader: ByteReader, topRef: Ref, fileFormat: Int, into sink: inout S, limits: Limits = .default
  ) throws(FormatError) -> GroupWriter.FinishedFile {
    let top = try ArrayNode(reader, topRef)
    guard top.hasRefs, top.count >= 3 else {
      throw FormatError.corrupt("the top array at \(topRef) has \(top.count) slots, expected at least 3", at: topRef.rawValue)
    }
    var copier = NodeTreeCopier(reader: reader, limits: limits)
    let names = try copier.copy(try top.ref(0), into: &sink)
    let tables = try copier.copy(try top.ref(1), into: &sink)
    var history = GroupWriter.HistorySlots()
    if top.count >= 7 { history.snapshotVersion = max(1, try top.tagged(6)) }
    if top.count >= 9 {
      history.type = try top.tagged(7)
      history.ref = try copier.copy(try top.ref(8), into: &sink)
    }
    if top.count >= 10 { history.schemaVersion = try top.tagged(9) }
    if top.count >= 11 { history.syncFileIdent = try top.tagged(10) }
    return GroupWriter.finish(namesRef: names, tablesRef: tables, history: history, fileFormat: fileFormat, into: &sink)
  }
}
