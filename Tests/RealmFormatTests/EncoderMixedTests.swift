import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

@Suite struct EncoderMixedTests {
  @Test func compositeValuesFollowTheLayout() throws {
    var sink = makeSink()
    let oid = ObjectId(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C)
    let dec = Decimal128(low: 5, high: 0x3040_0000_0000_0000)
    let values: [RealmValue] = [
      .null, .int(-2), .int(1 << 40), .bool(true), .float(1.5), .double(-2.25), .string("hi"), .data([0, 1]),
      .objectId(oid), .date(Timestamp(seconds: 9, nanoseconds: 8)), .decimal128(dec),
      .link(ObjectLink(className: "Dog", key: 77)),
    ]
    let ref = try MixedLeafEncoder.leaf(values[...], tableKeys: ["Dog": 4], into: &sink)
    let image = DecodedImage(sink)
    let top = try image.node(ref)
    #expect(top.count == 6 && top.hasRefs)
    let composite = try image.ints(try top.ref(0))
    let ints = try image.ints(try top.ref(1))
    let pairs = try image.ints(try top.ref(2))
    let strings = try image.byteStrings(try top.ref(3))
    #expect(try top.ref(4).isNull && top.ref(5).isNull)
    // (payload << 8) | (kind << 5) | (type + 1)
    func c(_ payload: Int64, _ kind: Int64, _ type: Int64) -> Int64 { (payload << 8) | (kind << 5) | (type + 1) }
    let expected: [Int64] = [
      0, c(-2, 0, 0), c(0, 1, 0), c(1, 0, 1), c(1, 1, 9), c(2, 1, 10), c(0, 3, 2), c(1, 3, 4), c(2, 3, 15),
      c(0, 2, 8), c(1, 2, 11), c(2, 2, 16),
    ]
    expectEqual(composite, expected)
    expectEqual(ints, [1 << 40, Int64(Float(1.5).bitPattern), Int64(bitPattern: Double(-2.25).bitPattern)])
    expectEqual(pairs, [9, 8, 5, 0x3040_0000_0000_0000, 4, 77])
    expectEqual(strings, [Array("hi".utf8), [0, 1], oid.bytes])
  }

  @Test func nestedCollectionsGetRefsAndSalts() throws {
    var sink = makeSink()
    let values: [RealmValue] = [
      .int(1), .list([.string("a"), .dictionary([DictionaryEntry("k", .bool(false))])]), .dictionary([]),
    ]
    let ref = try MixedLeafEncoder.leaf(values[...], tableKeys: [:], into: &sink)
    let image = DecodedImage(sink)
    let top = try image.node(ref)
    let composite = try image.ints(try top.ref(0))
    let listCode: Int64 = (4 << 5) | 20
    let dictionaryCode: Int64 = (1 << 8) | (4 << 5) | 22
    #expect(composite[1] == listCode && composite[2] == dictionaryCode)
    let refs = try image.node(try top.ref(4))
    #expect(refs.hasRefs && refs.count == 2)
    try expectEqual(refs.refOrTagged(1), .null, "an empty nested dictionary is ref 0")
    let salts = try image.ints(try top.ref(5))
    #expect(salts[0] == 0 && salts[1] != 0 && salts[2] != 0 && salts[1] != salts[2])
    // The nested list: a leaf ArrayMixed whose second element is a dictionary [keys, values].
    let list = try image.node(try refs.ref(0))
    #expect(!list.isInner && list.count == 6)
    try expectEqual(image.byteStrings(try list.ref(3)), [Array("a".utf8)])
    let dictRef = try image.node(try list.ref(4)).ref(0)
    let dict = try image.node(dictRef)
    expectEqual(dict.count, 2)
    try expectEqual(image.strings(try dict.ref(0)), ["k"])
    try expectEqual(image.ints(try image.node(try dict.ref(1)).ref(0)), [2])
  }

  @Test func setsAndEmbeddedObjectsCannotBeMixed() {
    var sink = makeSink()
    #expect(throws: FormatError(.corrupt)) { try MixedLeafEncoder.leaf([.set([])][...], tableKeys: [:], into: &sink) }
    #expect(throws: FormatError(.corrupt)) {
      try MixedLeafEncoder.leaf([.link(ObjectLink(className: "Nope", key: 1))][...], tableKeys: [:], into: &sink)
    }
  }

  @Test func longMixedListsSpanSeveralLeaves() throws {
    var sink = makeSink()
    let elements = (0..<2500).map { RealmValue.int(Int64($0)) }
    let root = try MixedLeafEncoder.list(elements, tableKeys: [:], into: &sink)
    let image = DecodedImage(sink)
    let leaves = try image.bptreeLeaves(root)
    expectEqual(leaves.count, 3)
    let decoded = try leaves.flatMap { try image.ints(try image.node($0).ref(0)) }.map { $0 >> 8 }
    expectEqual(decoded, (0..<2500).map { Int64($0) })
  }
}
