/// Walks every node reachable from a root by following each even non-zero element of each
/// has-refs array (§1.4), as Realm's `destroy_deep`, `verify` and `write` do.
///
/// Bounded: at most `maxNodes` visits (a file of `n` bytes holds at most `n / 8` nodes, so a
/// cycle or a shared child is reported instead of looping) and a depth of `maxDepth`.
struct NodeWalk {
  let reader: ByteReader
  var maxNodes: Int
  var maxDepth = 4096

  init(reader: ByteReader) {
    self.reader = reader
    maxNodes = max(1, reader.count / 8)
  }

  /// Calls `visit(ref, byteSize)` for `root` and every node below it, parents first.
  func walk(
    _ root: Ref, _ visit: (Ref, Int) throws(FormatError) -> Void
  ) throws(FormatError) {
    guard !root.isNull else { return }
    var stack: [(ref: Ref, depth: Int)] = [(root, 0)]
    var visits = 0
    while let (ref, depth) = stack.popLast() {
      visits += 1
      guard visits <= maxNodes else {
        throw FormatError.limit(
          "more than \(maxNodes) nodes below \(root): a cycle or shared node", at: ref.rawValue)
      }
      guard depth <= maxDepth else {
        throw FormatError.limit("node tree below \(root) deeper than \(maxDepth)", at: ref.rawValue)
      }
      let node = try ArrayNode(reader, ref)
      try visit(ref, node.header.byteSize)
      guard node.hasRefs else { continue }
      guard node.header.widthType == .bits else {
        throw FormatError.corrupt(
          "has-refs node at \(ref) does not use the bit width type", at: ref.rawValue)
      }
      for i in 0..<node.count {
        let raw = node.uncheckedGet(i)
        guard raw != 0, raw & 1 == 0 else { continue }
        guard case .ref(let child) = RefOrTagged(raw: raw) else { continue }
        stack.append((child, depth + 1))
      }
    }
  }
}
