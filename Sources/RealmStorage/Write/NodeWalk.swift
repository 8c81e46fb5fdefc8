import RealmFormat

/// Walks every node reachable from a root by following each even non-zero element of each
/// has-refs array (§1.4), as Realm's `destroy_deep`, `verify` and `write` do.
///
/// Bounded: at most `maxNodes` visits (a file of `n` bytes holds at most `n / 8` nodes, so a
/// cycle or a shared child is reported instead of looping), a depth of `maxDepth`, and at most
/// `maxBytes` bytes of nodes in all: the nodes of a tree never overlap, so together they fit
/// in the file. Without that bound, refs into the middle of one large node (each a "node" of
/// its own, with a header read from the large node's payload) would make the walk read the
/// same bytes again for every such ref, quadratic in the file's size.
package struct NodeWalk {
  let reader: ByteReader
  var maxNodes: Int
  var maxBytes: Int
  var maxDepth = 4096

  package init(reader: ByteReader) {
    self.reader = reader
    maxNodes = max(1, reader.count / 8)
    maxBytes = reader.count
  }

  /// Calls `visit(ref, byteSize)` for `root` and every node below it, parents first.
  package func walk(
    _ root: Ref, _ visit: (Ref, Int) throws(FormatError) -> Void
  ) throws(FormatError) {
    guard !root.isNull else { return }
    var stack: [(ref: Ref, depth: Int)] = [(root, 0)]
    var visits = 0
    var bytes = 0
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
      bytes &+= node.header.byteSize
      guard bytes <= maxBytes else {
        throw FormatError.corrupt(
          "the nodes below \(root) add up to more than the \(maxBytes) bytes they can hold: they overlap", at: ref.rawValue)
      }
      try visit(ref, node.header.byteSize)
      guard node.hasRefs else { continue }
      guard node.header.widthType == .bits else {
        throw FormatError.corrupt(
          "has-refs node at \(ref) does not use the bit width type", at: ref.rawValue)
      }
      // Loops of one width each (the walk of a million-object file reads millions of
      // elements, most of them in search indexes: `uncheckedGet`'s switch per element cost
      // more than the rest of the walk).
      let n = node.count
      func consider(_ raw: Int64) {
        guard raw != 0, raw & 1 == 0, case .ref(let child) = RefOrTagged(raw: raw) else { return }
        stack.append((child, depth + 1))
      }
      let payload = node.payloadBytes
      switch node.width {
      case 8:
        for i in 0..<n { consider(Int64(Int8(bitPattern: payload[i]))) }
      case 16:
        for i in 0..<n { consider(Int64(Int16(littleEndian: payload.loadUnaligned(fromByteOffset: i &<< 1, as: Int16.self)))) }
      case 32:
        for i in 0..<n { consider(Int64(Int32(littleEndian: payload.loadUnaligned(fromByteOffset: i &<< 2, as: Int32.self)))) }
      case 64:
        for i in 0..<n { consider(Int64(littleEndian: payload.loadUnaligned(fromByteOffset: i &<< 3, as: Int64.self))) }
      default:
        // Widths 0 to 4 hold no ref (values up to 15, all below the header's 24 bytes) but
        // are read as before.
        for i in 0..<n { consider(node.uncheckedGet(i)) }
      }
    }
  }
}
