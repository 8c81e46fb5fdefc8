import RealmFormat

/// A file image like `BufferNodeSink`'s, whose every node first goes through a rewrite: the way
/// to build a file with one value Realm never writes (an absurd count, a width, a ref) that is
/// otherwise consistent, since the writer places every later node, and the refs to this one,
/// after wherever the rewritten node landed.
public struct RewritingNodeSink: SequentialNodeSink {
  /// The image so far.
  public private(set) var image = BufferNodeSink()
  /// How many nodes `rewrite` changed.
  public private(set) var rewritten = 0
  let rewrite: ([UInt8], Ref) -> [UInt8]?

  /// `rewrite` returns the node to store instead of the one given, or nil to keep it.
  public init(rewrite: @escaping ([UInt8]) -> [UInt8]?) { self.rewrite = { node, _ in rewrite(node) } }

  /// `rewrite` is also told where the node will be: it may return several nodes, one after
  /// the other, the first of which the writer's ref points at (the others at their offsets
  /// from it).
  public init(placing rewrite: @escaping (_ node: [UInt8], _ at: Ref) -> [UInt8]?) { self.rewrite = rewrite }

  public var endOffset: Int { image.endOffset }

  public mutating func append(_ node: [UInt8]) -> Ref {
    guard let changed = rewrite(node, Ref(image.endOffset)) else { return image.append(node) }
    rewritten += 1
    return image.append(changed)
  }

  /// The elements of a node of packed integers (has-refs or not), as the reader reads them.
  public static func elements(of node: [UInt8]) throws -> (header: NodeHeader, elements: [Int64]) {
    let array = try ArrayNode(ByteReader(bytes: [UInt8](repeating: 0, count: 24) + node), Ref(24))
    return (array.header, (0..<array.count).map { array.uncheckedGet($0) })
  }

  /// `node` (packed integers) re-encoded 64 bits wide with `element` set to `value`: room for
  /// any count or ref, whatever width the writer chose.
  public static func widened(_ node: [UInt8], setting element: Int, to value: Int64) throws -> [UInt8] {
    var (header, elements) = try elements(of: node)
    elements[element] = value
    return NodeEncoder.integerNode(
      elements, width: 64, hasRefs: header.hasRefs, isInner: header.isInner, contextFlag: header.contextFlag)
  }

  /// An inner search-index node (context flag) with its first two children swapped, nil for
  /// any other node: each leaf stays sorted, the leaves no longer are.
  public static func innerIndexNodeWithChildrenSwapped(_ node: [UInt8]) -> [UInt8]? {
    guard let (header, elements) = try? elements(of: node), header.isInner, header.hasRefs, header.contextFlag,
      elements.count >= 3
    else { return nil }
    var swapped = elements
    swapped.swapAt(1, 2)
    return NodeEncoder.integerNode(swapped, width: header.width, hasRefs: true, isInner: true, contextFlag: true)
  }
}
