import RealmTestSupport
import Testing

@testable import RealmStorage
import RealmFormat

@Suite struct CommitFreeListTests {
  func chunk(_ p: Int, _ l: Int, _ v: UInt64) -> FreeChunk {
    FreeChunk(position: p, length: l, version: v)
  }

  @Test func mergesTouchingChunksOfEqualVersionOnly() throws {
    let list = try normalizeFreeList(
      [chunk(64, 16, 3), chunk(24, 40, 3), chunk(80, 8, 4), chunk(96, 0, 9), chunk(104, 8, 4)],
      logicalSize: 112
    ).get()
    expectEqual(list, [chunk(24, 56, 3), chunk(80, 8, 4), chunk(104, 8, 4)])
  }

  @Test func rejectsOverlapsMisalignmentAndChunksPastTheEnd() {
    #expect(throws: FormatError(.corrupt)) {
      try normalizeFreeList([chunk(24, 16, 0), chunk(32, 8, 0)], logicalSize: 64).get()
    }
    #expect(throws: FormatError(.corrupt)) {
      try normalizeFreeList([chunk(28, 8, 0)], logicalSize: 64).get()
    }
    #expect(throws: FormatError(.corrupt)) {
      try normalizeFreeList([chunk(56, 16, 0)], logicalSize: 64).get()
    }
    #expect(throws: FormatError(.corrupt)) {
      try normalizeFreeList([chunk(8, 16, 0)], logicalSize: 64).get()
    }
    #expect(throws: FormatError(.corrupt)) {
      try normalizeFreeList([chunk(Int.max - 7, 16, 0)], logicalSize: 64).get()
    }
  }

  @Test func allocatorReusesOnlyOlderChunksAndKeepsNodesInsideSections() {
    var allocator = SpaceAllocator(
      oldFree: [chunk(1024, 64, 5), chunk(2048, 64, 4), chunk(4096, 32, 0)],
      reuseBelowVersion: 5, appendStart: 8192)
    expectEqual(allocator.allocate(64), 2048)  // version 4 < 5; the version-5 chunk is not reused
    expectEqual(allocator.allocate(16), 4096)
    expectEqual(allocator.allocate(64), 8192)  // nothing left that fits: appended
    #expect(allocator.isNew(4096) && allocator.isNew(8192) && !allocator.isNew(1024))
    // A node that would straddle a 64 MiB boundary starts in the next section.
    var tail = SpaceAllocator(oldFree: [], reuseBelowVersion: nil, appendStart: sectionSize - 16)
    expectEqual(tail.allocate(64), sectionSize)
    expectEqual(tail.released, [chunk(sectionSize - 16, 16, 0)])
  }

  @Test(arguments: [0, 1, 2, 4, 8, 16, 32, 64])
  func integerArraysRoundTripAtEveryWidth(width: Int) throws {
    let maxValue: Int64 =
      width == 0 ? 0 : width < 8 ? (1 << width) - 1 : width == 64 ? .max : (1 << (width - 1)) - 1
    let minValue: Int64 = width < 8 ? 0 : width == 64 ? .min : -(1 << (width - 1))
    for count in [0, 1, 2, 7, 8, 9, 1000] {
      let values = (0..<count).map { i -> Int64 in i % 3 == 0 ? maxValue : i % 3 == 1 ? minValue : 0
      }
      let bytes = NodeEncoder.integerNode(values, width: width, hasRefs: true)
      let node = try ArrayNode(ByteReader(bytes: [UInt8](repeating: 0, count: 24) + bytes), Ref(24))
      expectEqual(node.header.byteSize, bytes.count)
      #expect(node.width == width && node.hasRefs && node.count == count)
      try expectEqual((0..<count).map { try node.get($0) }, values)
      if count > 0 {
        #expect(NodeEncoder.integers(values).count <= bytes.count)  // minimal width
      }
    }
  }
}
