import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmFormat

@Suite struct EncoderNodeTests {
  static let widths = [0, 1, 2, 4, 8, 16, 32, 64]
  static let counts = [0, 1, 7, 8, 9, 1000, 1001]

  /// Random values inside the range of `width` (§2.3 bounds).
  func values(width: Int, count: Int, seed: UInt64) -> [Int64] {
    var rng = SeededRandom(seed: seed)
    let low = NodeEncoder.lowerBound(width: width)
    let high = NodeEncoder.upperBound(width: width)
    return (0..<count).map { i in
      if i == 0 { return low }
      if i == 1 { return high }
      return width == 64 ? Int64(bitPattern: rng.next()) : Int64.random(in: low...high, using: &rng)
    }
  }

  @Test("packed integers round-trip at every width and count", arguments: widths)
  func integerRoundTrip(width: Int) throws {
    for count in Self.counts {
      let v = values(width: width, count: count, seed: UInt64(width * 10_000 + count))
      var sink = makeSink()
      let ref = sink.append(NodeEncoder.integerNode(v, width: width))
      let node = try DecodedImage(sink).node(ref)
      #expect(node.width == width && node.count == count && !node.hasRefs)
      expectEqual(node.header.byteSize, sink.bytes.count - 24)
      for i in 0..<count { try expectEqual(node.get(i), v[i]) }
      // The minimal width of values spanning the whole range is that width.
      let minimal = try DecodedImage(bytes: [UInt8](repeating: 0, count: 24) + NodeEncoder.integers(v)).node(Ref(24))
      if count >= 2 { expectEqual(minimal.width, width) }
    }
  }

  @Test func bitWidthFollowsRealm() {
    let cases: [(Int64, Int)] = [
      (0, 0), (1, 1), (2, 2), (3, 2), (4, 4), (15, 4), (16, 8), (-1, 8), (127, 8), (-128, 8),
      (128, 16), (-129, 16), (32767, 16), (32768, 32), (-32769, 32), (Int64(Int32.max), 32),
      (Int64(Int32.max) + 1, 64), (Int64(Int32.min) - 1, 64), (.min, 64), (.max, 64),
    ]
    for (v, w) in cases { expectEqual(NodeEncoder.bitWidth(v), w, "bit width of \(v)") }
    expectEqual(NodeEncoder.bitWidth(of: [Int64]()), 0)
    expectEqual(NodeEncoder.bitWidth(of: [1, -1, 200] as [Int64]), 16)
  }

  @Test func unsignedArraysUseByteWidths() throws {
    let cases: [(UInt64, Int)] = [(0, 8), (255, 8), (256, 16), (65535, 16), (65536, 32), (1 << 32, 64)]
    for (maxValue, width) in cases {
      var sink = makeSink()
      let v: [UInt64] = [0, maxValue / 2, maxValue]
      let ref = sink.append(NodeEncoder.unsignedIntegers(v))
      let image = DecodedImage(sink)
      try expectEqual(image.node(ref).width, width)
      try expectEqual(image.unsigned(ref), v)
    }
  }

  @Test func refArraysCarryFlags() throws {
    var sink = makeSink()
    let ref = sink.append(
      NodeEncoder.refArray([24, RefOrTagged.taggedRaw(5), 0], isInner: true, contextFlag: true))
    let n = try DecodedImage(sink).node(ref)
    #expect(n.hasRefs && n.isInner && n.contextFlag)
    try expectEqual(n.refOrTagged(0), .ref(Ref(24)))
    try expectEqual(n.refOrTagged(1), .tagged(5))
    try expectEqual(n.refOrTagged(2), .null)
  }

  @Test func blobsIgnoreWidth() throws {
    var sink = makeSink()
    let content: [UInt8] = Array(0..<13)
    let ref = sink.append(NodeEncoder.blob(content))
    let n = try DecodedImage(sink).node(ref)
    #expect(n.header.widthType == .ignore && n.count == 13)
    expectEqual(Array(n.payloadBytes), content)
    expectEqual(sink.bytes.count, 24 + 8 + 16)
  }

  @Test func sinkPlacesNodesBackToBack() {
    var sink = makeSink()
    let a = sink.append(NodeEncoder.integers([1, 2, 3] as [Int64]))
    let b = sink.append(NodeEncoder.integers([Int64]()))
    #expect(a == Ref(24) && b == Ref(40))  // 3 x 2 bits padded to 8 bytes
    expectEqual(sink.endOffset, 48)
    sink.finish(header: GroupWriter.header(topRef: a), fileSize: 4096)
    expectEqual(sink.bytes.count, 4096)
    expectEqual(Array(sink.bytes[16..<24]), [0x54, 0x2D, 0x44, 0x42, 24, 0, 0, 0])
  }
}
