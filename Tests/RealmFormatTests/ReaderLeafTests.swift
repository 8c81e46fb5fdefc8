import RealmTestSupport
import Testing

@testable import RealmFormat
import RealmModel

/// Leaf decoders on hand-built nodes: the corner cases the fixtures do not reach.
@Suite struct ReaderLeafTests {
  @Test func bid32AndBid64WidenToTheSameValue() {
    // 3.14 as BID32: exponent -2 (biased 99), coefficient 314.
    let d32 = DecimalLeaf.widen32(UInt32(99) << 23 | 314)
    expectEqual(d32, Decimal128(low: 314, high: UInt64(6176 - 2) << 49))
    // -1E-300 as BID64: sign, exponent -300 (biased 98), coefficient 1.
    let d64 = DecimalLeaf.widen64(1 << 63 | UInt64(98) << 53 | 1)
    expectEqual(d64, Decimal128(low: 1, high: 1 << 63 | UInt64(6176 - 300) << 49))
    // Realm's null and infinities keep their meaning.
    expectEqual(DecimalLeaf.widen32(0x7C00_00AA), .realmNull)
    expectEqual(DecimalLeaf.widen64(0x7C00_0000_0000_00AA), .realmNull)
    expectEqual(DecimalLeaf.widen32(0xF800_0000), Decimal128(low: 0, high: 0xF800_0000_0000_0000))
    // Large-coefficient form: bits 30:29 = 11, coefficient 0b100 ‖ bits 20:0.
    let large = DecimalLeaf.widen32(0x6000_0000 | UInt32(101) << 21 | 5)
    expectEqual(large, Decimal128(low: 0x80_0005, high: UInt64(6176) << 49))
  }

  @Test func decimalWidthZeroMeansZeroOrNull() throws {
    let zeros = try DecimalLeaf(try handBuiltNode(flags: 0x20 | 0x08, count: 3, payload: []))
    expectEqual(zeros.value(2), .zero)
    let nulls = try DecimalLeaf(try handBuiltNode(flags: 0x08, count: 3, payload: []))
    #expect(nulls.value(0) == nil)
  }

  @Test func shortStringsNullEmptyAndNul() throws {
    // Width 4 (code 3, wtype multiply): "ab", "", null, "a\0b".
    let payload: [UInt8] = [0x61, 0x62, 0, 1, 0, 0, 0, 3, 0, 0, 0, 4, 0x61, 0, 0x62, 0]
    let leaf = try StringLeaf(try handBuiltNode(flags: 0x08 | 3, count: 4, payload: payload), isString: true)
    try expectEqual(leaf.string(0), "ab")
    try expectEqual(leaf.string(1), "")
    #expect(try leaf.string(2) == nil)
    try expectEqual(leaf.string(3), "a\u{0}b")
    let bad = try StringLeaf(try handBuiltNode(flags: 0x08 | 3, count: 1, payload: [0, 0, 0, 9]), isString: true)
    #expect(throws: FormatError(.corrupt)) { try bad.bytes(0) }
  }

  @Test func nullableIntegersUseTheMarker() throws {
    // Width 8: marker 127, values 5, 127 (null), -3.
    let leaf = try IntLeaf(try handBuiltNode(flags: 4, count: 4, payload: [127, 5, 127, 0xFD]), nullable: true)
    expectEqual(leaf.count, 3)
    expectEqual(leaf.value(0), 5)
    #expect(leaf.value(1) == nil)
    expectEqual(leaf.value(2), -3)
  }

  @Test func fixedBytesNeedWholeElements() throws {
    // One ObjectId: a bitmap byte plus 12 bytes.
    let one = try FixedBytesLeaf(try handBuiltNode(flags: 0x08 | 1, count: 13, payload: [0] + Array(1...12)), elementSize: 12)
    expectEqual(one.count, 1)
    expectEqual(one.bytes(0).map(Array.init), Array(1...12))
    let nullOne = try FixedBytesLeaf(try handBuiltNode(flags: 0x08 | 1, count: 13, payload: [1] + Array(repeating: 0xDE, count: 12)), elementSize: 12)
    #expect(nullOne.bytes(0) == nil)
    #expect(throws: FormatError(.corrupt)) { try FixedBytesLeaf(try handBuiltNode(flags: 0x08 | 1, count: 14, payload: Array(repeating: 0, count: 14)), elementSize: 12) }
  }

  @Test func blobsAreNotArrays() throws {
    // A has-refs node with width type "ignore" would make element reads run past its payload.
    #expect(throws: FormatError(.corrupt)) { try ArrayNode(elements: ByteReader(bytes: [UInt8](repeating: 0, count: 24) + [0x41, 0x41, 0x41, 0x41, 0x40 | 0x10 | 7, 0, 0, 8] + [UInt8](repeating: 0, count: 8)), Ref(24)) }
  }

  @Test func mixedInlineAndOutOfLineInts() throws {
    // Composite [int 5 inline, null, bool true] (width 16: (5<<8)+1, 0, (1<<8)+2).
    let composite: [UInt8] = [0x01, 0x05, 0, 0, 0x02, 0x01]
    var bytes = [UInt8](repeating: 0, count: 24)
    bytes += [0x41, 0x41, 0x41, 0x41, 0x40 | 4, 0, 0, 1] + [40, 0, 0, 0, 0, 0, 0, 0]  // top at 24 -> composite at 40
    bytes += [0x41, 0x41, 0x41, 0x41, 5, 0, 0, 3] + composite + [0, 0]
    let top = try ArrayNode(ByteReader(bytes: bytes), Ref(24))
    let leaf = try MixedLeaf(top)
    guard case .value(let a) = try leaf.element(0), case .value(let b) = try leaf.element(1), case .value(let c) = try leaf.element(2) else {
      Issue.record("not plain values")
      return
    }
    expectEqual(a, .int(5))
    expectEqual(b, .null)
    expectEqual(c, .bool(true))
  }
}
