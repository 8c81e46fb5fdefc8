import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

@Suite struct EncoderLeafTests {
  /// The unsigned integer of `bytes`, least significant byte first.
  static func littleEndian<T: FixedWidthInteger & UnsignedInteger>(_ bytes: ArraySlice<UInt8>) -> T {
    var value: T = 0
    for (shift, byte) in zip(stride(from: 0, to: bytes.count * 8, by: 8), bytes) { value |= T(byte) << T(shift) }
    return value
  }

  /// Decodes an `ArrayIntNull` per §6.1.
  func nullableInts(_ image: DecodedImage, _ ref: Ref) throws -> (width: Int, marker: Int64, values: [Int64?]) {
    let all = try image.ints(ref)
    let marker = all[0]
    return (try image.node(ref).width, marker, all.dropFirst().map { $0 == marker ? nil : $0 })
  }

  @Test func nullableIntegersKeepMarkerAtUpperBound() throws {
    let cases: [([Int64?], Int)] = [
      ([], 0), ([nil, nil], 0), ([0], 1), ([0, 1], 2), ([2, nil], 2), ([3], 4), ([14, nil], 4),
      ([15], 8), ([-1, nil], 8), ([126], 8), ([127], 16), ([-128], 8), ([32767], 32),
      ([Int64(Int32.max) - 1, nil], 32), ([Int64(Int32.max)], 64), ([.max, .min, nil], 64),
    ]
    for (values, width) in cases {
      var sink = makeSink()
      let ref = ScalarLeafEncoder.nullableIntegers(values, into: &sink)
      let decoded = try nullableInts(DecodedImage(sink), ref)
      expectEqual(decoded.width, width, "width for \(values)")
      expectEqual(decoded.values, values)
      if width < 64 {
        expectEqual(decoded.marker, NodeEncoder.upperBound(width: width))
        #expect(values.allSatisfy { ($0 ?? .min) < decoded.marker })
      } else {
        #expect(!values.contains(decoded.marker))
      }
    }
  }

  @Test func boolsUseThreeForNull() throws {
    var sink = makeSink()
    let ref = ScalarLeafEncoder.bools([true, false, nil, true], into: &sink)
    let image = DecodedImage(sink)
    try expectEqual(image.ints(ref), [1, 0, 3, 1])
    try expectEqual(image.node(ref).width, 2)
    let plain = ScalarLeafEncoder.bools([true, false], into: &sink)
    try expectEqual(DecodedImage(sink).node(plain).width, 1)
  }

  @Test func singleLinksAreStoredPlusOne() throws {
    var sink = makeSink()
    let ref = ScalarLeafEncoder.links([0, nil, 65536], into: &sink)
    try expectEqual(DecodedImage(sink).ints(ref), [1, 0, 65537])
  }

  @Test func floatAndDoubleNullsAreRealmsNaN() throws {
    var sink = makeSink()
    let nullBitsAsValue = Float(bitPattern: ScalarLeafEncoder.nullFloatBits)
    let f = ScalarLeafEncoder.floats([1.5, nil, .nan, nullBitsAsValue, -0.0], into: &sink)
    let d = ScalarLeafEncoder.doubles([nil, .infinity, Double(bitPattern: ScalarLeafEncoder.nullDoubleBits)], into: &sink)
    let image = DecodedImage(sink)
    let fn = try image.node(f)
    #expect(fn.header.widthType == .multiply && fn.width == 4 && fn.count == 5)
    let fb = Array(fn.payloadBytes)
    let fbits: [UInt32] = (0..<5).map { (i: Int) -> UInt32 in Self.littleEndian(fb[(i * 4)..<(i * 4 + 4)]) }
    expectEqual(fbits, [Float(1.5).bitPattern, 0x7FC0_00AA, Float.nan.bitPattern, Float.nan.bitPattern, Float(-0.0).bitPattern])
    let dn = try image.node(d)
    #expect(dn.width == 8 && dn.count == 3)
    let db = Array(dn.payloadBytes)
    let dbits: [UInt64] = (0..<3).map { (i: Int) -> UInt64 in Self.littleEndian(db[(i * 8)..<(i * 8 + 8)]) }
    expectEqual(dbits, [0x7FF8_0000_0000_00AA, Double.infinity.bitPattern, Double.nan.bitPattern])
  }

  @Test func decimalsAreSixteenBytesWithNullNaN() throws {
    var sink = makeSink()
    let one = Decimal128(low: 1, high: 0x3040_0000_0000_0000)
    let ref = ScalarLeafEncoder.decimals([one, nil], into: &sink)
    let n = try DecodedImage(sink).node(ref)
    #expect(n.width == 16 && n.count == 2 && n.header.widthType == .multiply)
    let b = Array(n.payloadBytes)
    expectEqual(Array(b[0..<8]), [1, 0, 0, 0, 0, 0, 0, 0])
    expectEqual(Array(b[8..<16]), [0, 0, 0, 0, 0, 0, 0x40, 0x30])
    expectEqual(Array(b[16..<24]), [0xAA, 0, 0, 0, 0, 0, 0, 0])
    expectEqual(Array(b[24..<32]), [0, 0, 0, 0, 0, 0, 0, 0x7C])
    let empty = ScalarLeafEncoder.decimals([], into: &sink)
    try expectEqual(DecodedImage(sink).node(empty).count, 0)
  }

  @Test("ObjectId blocks: one bitmap byte per 8 elements", arguments: [0, 1, 7, 8, 9, 17])
  func objectIdBlocks(count: Int) throws {
    var sink = makeSink()
    var values = [ObjectId?]()
    for i in 0..<count {
      values.append(i % 3 == 1 ? nil : ObjectId(high: UInt64(i), low: UInt32(i * 7)))
    }
    let ref = ScalarLeafEncoder.objectIds(values, into: &sink)
    let n = try DecodedImage(sink).node(ref)
    let bytes = Array(n.payloadBytes)
    #expect(n.width == 1 && n.count == bytes.count)
    expectEqual(bytes.count, count * 12 + (count + 7) / 8)
    let blocks = (bytes.count + 96) / 97
    expectEqual((bytes.count - blocks) / 12, count)  // §6.8 element count
    for i in 0..<count {
      let block = (i / 8) * 97
      let isNull = bytes[block] & (1 << UInt8(i % 8)) != 0
      expectEqual(isNull, (values[i] == nil))
      if let v = values[i] {
        let start = block + 1 + (i % 8) * 12
        expectEqual(Array(bytes[start..<(start + 12)]), v.bytes)
      }
    }
  }

  @Test func uuidBlocksAre129Bytes() throws {
    var sink = makeSink()
    let u = RealmUUID(high: 0x0011_2233_4455_6677, low: 0x8899_AABB_CCDD_EEFF)
    let ref = ScalarLeafEncoder.uuids(Array(repeating: u, count: 9), into: &sink)
    let bytes = Array(try DecodedImage(sink).node(ref).payloadBytes)
    expectEqual(bytes.count, 129 + 17)
    #expect(bytes[0] == 0 && bytes[129] == 0)
    expectEqual(Array(bytes[130..<146]), u.bytes)
  }

  @Test func timestampsAreSecondsAndNanoseconds() throws {
    var sink = makeSink()
    let ref = ScalarLeafEncoder.timestamps(
      [Timestamp(seconds: -5, nanoseconds: -1), nil, Timestamp(seconds: 1 << 40, nanoseconds: 999_999_999)], into: &sink)
    let image = DecodedImage(sink)
    let top = try image.node(ref)
    #expect(top.hasRefs && top.count == 2)
    let all = try image.ints(try top.ref(0))
    expectEqual(Array(all.dropFirst()), [-5, all[0], 1 << 40])
    try expectEqual(image.ints(try top.ref(1)), [-1, 0, 999_999_999])
  }

  @Test("string forms change at 15/16 and 63/64 bytes", arguments: [0, 1, 15, 16, 63, 64, 200])
  func stringForms(longest: Int) throws {
    let long = String(repeating: "x", count: longest)
    let values: [String?] = [long, nil, "", "a\u{0}b", "é"]
    var sink = makeSink()
    let ref = try StringLeafEncoder.strings(values, into: &sink)
    let image = DecodedImage(sink)
    let n = try image.node(ref)
    let expected = StringLeafEncoder.form(forLongest: max(longest, 3))
    switch expected {
    case .short:
      #expect(!n.hasRefs && n.header.widthType == .multiply)
      expectEqual(n.width, (longest >= 8 ? 16 : longest >= 4 ? 8 : 4))
    case .medium:
      #expect(n.hasRefs && !n.contextFlag && n.count == 3)
      // Strings carry their terminator in the blob, and so does a null (§6.3).
      let offsets = try image.ints(try n.ref(0))
      expectEqual(offsets, [Int64(longest + 1), Int64(longest + 2), Int64(longest + 3), Int64(longest + 7), Int64(longest + 10)])
    case .big:
      #expect(n.hasRefs && n.contextFlag && n.count == 5)
      #expect(try n.ref(1).isNull)
      try expectEqual(image.node(try n.ref(2)).count, 1)  // "" is a one-byte blob
    }
    try expectEqual(image.strings(ref), values)
    #expect(longest <= 15 ? expected == .short : longest <= 63 ? expected == .medium : expected == .big)
  }

  @Test func shortStringsEncodeLengthInLastByte() throws {
    let node = StringLeafEncoder.shortStringNode([Array("abc".utf8), nil, []])
    expectEqual(Array(node[8...]), [0x61, 0x62, 0x63, 0, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 0])
    let allNull = StringLeafEncoder.shortStringNode([nil])
    #expect(allNull[4] & 7 == 1 && allNull[8] == 1)
  }

  @Test("binary forms change at 64/65 bytes", arguments: [0, 64, 65])
  func binaryForms(longest: Int) throws {
    let values: [[UInt8]?] = [Array(repeating: 7, count: longest), nil, []]
    var sink = makeSink()
    let ref = try StringLeafEncoder.binaries(values, into: &sink)
    let image = DecodedImage(sink)
    let n = try image.node(ref)
    #expect(n.hasRefs && n.contextFlag == (longest > 64))
    if !n.contextFlag {
      // No terminator, and nothing for a null binary.
      try expectEqual(image.ints(try n.ref(0)), [Int64(longest), Int64(longest), Int64(longest)])
    }
    try expectEqual(image.byteStrings(ref, terminated: false), values)
  }

  @Test func backlinksAreTaggedOrTrees() throws {
    var sink = makeSink()
    let many = (0..<1001).map { Int64($0) }
    let ref = CollectionLeafEncoder.backlinks([[], [42], [3, 3, 1], many], into: &sink)
    let image = DecodedImage(sink)
    let n = try image.node(ref)
    try expectEqual(n.refOrTagged(0), .null)
    try expectEqual(n.refOrTagged(1), .tagged(42))
    try expectEqual(image.ints(try n.ref(2)), [3, 3, 1])
    let tree = try image.node(try n.ref(3))
    #expect(tree.isInner)
    try expectEqual(image.bptreeLeaves(tree.ref).flatMap { try image.ints($0) }, many)
  }
}

@Suite struct EncoderTypedLeafTests {
  @Test func numbersAreConvertedToThePropertyType() throws {
    try expectEqual(TypedLeafEncoder.coerced(.double(4), to: .int), .int(4))
    try expectEqual(TypedLeafEncoder.coerced(.int(3), to: .double), .double(3))
    try expectEqual(TypedLeafEncoder.coerced(.double(0.5), to: .float), .float(0.5))
    try expectEqual(TypedLeafEncoder.coerced(.string("x"), to: .mixed), .string("x"))
    try expectEqual(TypedLeafEncoder.coerced(.null, to: .uuid), .null)
    #expect(throws: FormatError(.corrupt)) { try TypedLeafEncoder.coerced(.double(4.5), to: .int) }
    #expect(throws: FormatError(.corrupt)) { try TypedLeafEncoder.coerced(.double(1e300), to: .int) }
    #expect(throws: FormatError(.corrupt)) { try TypedLeafEncoder.coerced(.string("1"), to: .int) }
    #expect(throws: FormatError(.corrupt)) { try TypedLeafEncoder.coerced(.int(1), to: .bool) }
  }

  @Test func requiredLeavesRejectNull() throws {
    var sink = makeSink()
    #expect(throws: FormatError(.corrupt)) {
      try TypedLeafEncoder.leaf(type: .string, nullable: false, values: [.string("a"), .null][...], into: &sink)
    }
    #expect(throws: FormatError(.corrupt)) { try TypedLeafEncoder.intLeaf([.null][...], nullable: false, into: &sink) }
    // Mixed leaves take null whatever the flag says (Mixed columns are always nullable).
    _ = try TypedLeafEncoder.leaf(type: .mixed, nullable: false, values: [.null][...], into: &sink)
  }

  @Test func intLeafClassFollowsNullability() throws {
    var sink = makeSink()
    let plain = try TypedLeafEncoder.intLeaf([.int(5), .int(6)][...], nullable: false, into: &sink)
    let nullable = try TypedLeafEncoder.intLeaf([.int(5), .int(6)][...], nullable: true, into: &sink)
    let image = DecodedImage(sink)
    try expectEqual(image.ints(plain), [5, 6])
    try expectEqual(image.ints(nullable), [15, 5, 6])  // ArrayIntNull: marker first
  }

  @Test func tooLongStringsAreRefused() {
    var sink = makeSink()
    let huge = [UInt8](repeating: 1, count: StringLeafEncoder.maxValueLength + 1)
    #expect(throws: FormatError(.limitExceeded)) { try StringLeafEncoder.stringBytes([huge], into: &sink) }
  }
}
