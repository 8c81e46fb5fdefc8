import RealmTestSupport
import Testing
@testable import RealmFormat

@Suite struct EncoderTreeTests {
  @Test("B+-tree leaves hold at most 1000 elements", arguments: [1, 999, 1000, 1001, 2000, 2001, 5500])
  func bptreeShapes(count: Int) throws {
    var sink = makeSink()
    let values = (0..<count).map { Int64($0 * 3 - 1000) }
    let root = CollectionLeafEncoder.keyTree(values, into: &sink)
    let image = DecodedImage(sink)
    let rootNode = try image.node(root)
    expectEqual(rootNode.isInner, (count > 1000))
    if rootNode.isInner {
      try expectEqual(rootNode.refOrTagged(0), .tagged(1000))
      try expectEqual(rootNode.refOrTagged(rootNode.count - 1), .tagged(UInt64(count)))
      expectEqual(rootNode.count, (count + 999) / 1000 + 2)
    }
    let leaves = try image.bptreeLeaves(root)
    #expect(try leaves.dropLast().allSatisfy { try image.node($0).count == 1000 })
    try expectEqual(leaves.flatMap { try image.ints($0) }, values)
  }

  @Test func bptreeGetsASecondInnerLevelPastAMillion() throws {
    var sink = makeSink()
    let count = 1000 * 1000 + 1
    // Empty leaves keep the test cheap: the shape is what is checked.
    var leafSizes = [Int]()
    let root = BPlusTreeWriter.write(count: count, into: &sink) { (range, s) -> Ref in
      leafSizes.append(range.count)
      return s.append(NodeEncoder.integers([Int64]()))
    }
    #expect(leafSizes.count == 1001 && leafSizes.last == 1)
    let image = DecodedImage(sink)
    let top = try image.node(root)
    #expect(top.isInner && top.count == 4)
    try expectEqual(top.refOrTagged(0), .tagged(1_000_000))
    try expectEqual(top.refOrTagged(3), .tagged(UInt64(count)))
    let first = try image.node(try top.ref(1))
    #expect(first.isInner && first.count == 1002)
    try expectEqual(first.refOrTagged(1001), .tagged(1_000_000))
  }

  @Test("cluster trees keep keys, counts and offsets", arguments: [0, 1, 256, 257, 1000, 70_000])
  func clusterTreeRoundTrip(count: Int) throws {
    for squeezed in [false, true] {
      let keys = (0..<Int64(count)).map { squeezed ? TableState.squeezed($0) : $0 }
      var sink = makeSink()
      var leaves = [ClusterTreeWriter.Leaf]()
      var start = 0
      let multiple = count > 256
      repeat {
        let slice = keys[start..<min(start + 256, keys.count)]
        let column = sink.append(NodeEncoder.integers(slice.map { $0 * 2 }))
        leaves.append(ClusterTreeWriter.leaf(keys: slice, offset: multiple ? slice.first ?? 0 : 0, columns: [column], into: &sink))
        start += 256
      } while start < keys.count
      let root = ClusterTreeWriter.root(leaves: leaves, into: &sink)
      let image = DecodedImage(sink)
      let rows = try image.clusterRows(root)
      expectEqual(rows.map(\.key), keys)
      for r in rows.prefix(600) { try expectEqual(r.leaf.child(1).get(r.row), r.key * 2) }
      let rootNode = try image.node(root)
      if !squeezed && count > 256 {
        #expect(try rootNode.ref(0).isNull, "dense keys give compact inner nodes")
      }
      if count == 70_000 {
        try expectEqual(rootNode.tagged(1), 2)
      }
    }
  }

  @Test func leavesUseGeneralFormForGaps() throws {
    var sink = makeSink()
    let leaf = ClusterTreeWriter.leaf(keys: [5, 9, 300], offset: 0, columns: [], into: &sink)
    let image = DecodedImage(sink)
    let n = try image.node(leaf.ref)
    try expectEqual(image.unsigned(try n.ref(0)), [5, 9, 300])
    let compact = ClusterTreeWriter.leaf(keys: [7, 8, 9], offset: 7, columns: [], into: &sink)
    try expectEqual(DecodedImage(sink).node(compact.ref).refOrTagged(0), .tagged(3))
  }

  @Test func squeezedKeysFollowRealm() {
    expectEqual(TableState.squeezed(255), 255)
    expectEqual(TableState.squeezed(256), 65536)
    expectEqual(TableState.squeezed(513), 131073)
    expectEqual(TableState.sequenceAfter(squeezedKey: 0), 1)
    expectEqual(TableState.sequenceAfter(squeezedKey: 65536), 257)
    expectEqual(TableState.sequenceAfter(squeezedKey: 300), 256)
    for s in [Int64(0), 1, 255, 256, 70_000] {
      expectEqual(TableState.sequenceAfter(squeezedKey: TableState.squeezed(s)), s + 1)
    }
  }
}
