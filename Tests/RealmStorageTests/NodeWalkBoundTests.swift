import RealmFormat
import RealmTestSupport
import Testing

@testable import RealmStorage

/// The node walk behind the pre-write tree check, `freeDeep` and the space accounting reads
/// at most the file's size in nodes: refs into the middle of one large node (each read as a
/// node of its own, from the large node's payload) made it read the same bytes again for
/// every such ref, quadratic in the file (the `legacy` fuzz target's timeout, in `--check`'s
/// walk of the same shape).
@Suite struct NodeWalkBoundTests {
  /// `count` has-refs nodes starting 8 bytes apart, each reaching to the same end (so each
  /// overlaps all the ones after it), and a root holding a ref to each.
  static func nestedNodes(count: Int) -> (bytes: [UInt8], root: Ref) {
    var bytes = [UInt8](repeating: 0, count: 24)
    for j in 0..<count {
      // Node j's elements are the headers of the nodes after it: odd words (the checksum
      // bytes 'AAAA' come first), read as tagged values, not refs.
      let header = NodeEncoder.integerNode([Int64](repeating: 1, count: count - 1 - j), width: 64, hasRefs: true)
      bytes += header.prefix(8)
    }
    let root = bytes.count
    bytes += NodeEncoder.refArray((0..<count).map { Int64(24 + 8 * $0) })
    while bytes.count % 8 != 0 { bytes.append(0) }
    return (bytes, Ref(root))
  }

  @Test func overlappingNodesStopTheWalkAtTheFileSize() throws {
    let (bytes, root) = Self.nestedNodes(count: 4000)
    let reader = ByteReader(bytes: bytes)
    var visited = 0
    var bytesVisited = 0
    var error: FormatError?
    do throws(FormatError) {
      try NodeWalk(reader: reader).walk(root) { (_, size) throws(FormatError) in
        visited += 1
        bytesVisited += size
      }
    } catch let e {
      error = e
    }
    let e = try #require(error, "the walk read \(bytesVisited) bytes of nodes in a file of \(bytes.count)")
    #expect(e.detail.contains("they overlap"), "\(e)")
    #expect(bytesVisited <= bytes.count)
    // Popped smallest first, node k (from the end) holds 8k bytes: the walk stops after about
    // sqrt(file size / 4) nodes, not after all 4,001.
    #expect(visited < 200, "\(visited) nodes visited before the walk stopped")
  }

  /// The bound is the file's size: a sound file's tree, whose nodes tile part of it, walks
  /// to the end.
  @Test func soundTreeWalksToTheEnd() throws {
    var bytes = [UInt8](repeating: 0, count: 24)
    var refs: [Int64] = []
    for i in 0..<100 {
      refs.append(Int64(bytes.count))
      bytes += NodeEncoder.integers((0..<Int64(i)).map { $0 })
      while bytes.count % 8 != 0 { bytes.append(0) }
    }
    let root = bytes.count
    bytes += NodeEncoder.refArray(refs)
    while bytes.count % 8 != 0 { bytes.append(0) }
    var visited = 0
    try NodeWalk(reader: ByteReader(bytes: bytes)).walk(Ref(root)) { (_, _) throws(FormatError) in visited += 1 }
    expectEqual(visited, 101)
  }
}
