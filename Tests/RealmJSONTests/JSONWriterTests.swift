import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmJSON

@Suite struct JSONWriterTests {
  private func text(_ body: (inout JSONWriter) -> Void, indent: Int = 0) -> String {
    var w = JSONWriter(indent: indent)
    body(&w)
    return String(decoding: w.buffer, as: UTF8.self)
  }

  @Test func escapesStringsAsRFC8259WithRawUTF8() throws {
    let s = "a\"b\\c/\n\r\t\u{8}\u{c}\u{0}\u{1f}\u{7f}é😀👩‍👩‍👧"
    let out = text { $0.writeString(s) }
    expectEqual(out, "\"a\\\"b\\\\c/\\n\\r\\t\\b\\f\\u0000\\u001f\u{7f}é😀👩‍👩‍👧\"")
    try expectEqual(JSONParser.parse(out), .string(s))
  }

  @Test func writesInt64Exactly() {
    expectEqual(text { $0.writeInt(.min) }, "-9223372036854775808")
    expectEqual(text { $0.writeInt(.max) }, "9223372036854775807")
    expectEqual(text { $0.writeInt(0) }, "0")
    expectEqual(text { $0.writeInt(-7) }, "-7")
  }

  /// Realm's own renderings, taken from the fixtures' dump.jsonl (`double_req`, `float_req`).
  @Test(arguments: [
    (0.1, "0.1"), (1e-07, "1e-07"), (1e21, "1e+21"), (9_007_199_254_740_992, "9007199254740992"),
    (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e+308"), (-0.0, "-0.0"),
    (0, "0"), (-1, "-1"), (123_456_789.125, "123456789.125"), (-123.456, "-123.456"),
    (2.2250738585072014e-308, "2.2250738585072014e-308"),
    (8_330_966_630_389.96, "8330966630389.96"),
    (9.955556128664498e-174, "9.955556128664498e-174"), (0.001, "0.001"), (1e-05, "1e-05"),
    (1e16, "1e+16"), (123_456_789_012_345_680, "123456789012345680"),
  ])
  func writesDoublesLikeRealm(_ value: Double, _ expected: String) {
    expectEqual(text { $0.writeDouble(value) }, expected)
  }

  @Test(
    arguments: [
      (Float(1e-45), "1e-45"), (1.5, "1.5"), (1.1754944e-38, "1.1754944e-38"), (-0.0, "-0.0"),
      (3.4028235e+38, "3.4028235e+38"), (16_777_216, "16777216"), (0.1, "0.1"), (-2.5, "-2.5"),
      (-1e-10, "-1e-10"), (9_627_169_792, "9627169792"), (756_479_168, "756479168"),
      (940_869_746_688, "940869746688"), (6.52194e+21, "6.52194e+21"), (9.88727e-05, "9.88727e-05"),
    ] as [(Float, String)])
  func writesFloatsLikeRealm(_ value: Float, _ expected: String) {
    expectEqual(text { $0.writeFloat(value) }, expected)
  }

  @Test func everyWrittenDoubleReadsBackExactly() throws {
    var rng = SeededRandom(seed: 7)
    for _ in 0..<20_000 {
      let d = Double(bitPattern: rng.next())
      guard d.isFinite else { continue }
      let s = text { $0.writeDouble(d) }
      let back = try #require(Double(s))
      expectEqual(back.bitPattern, d.bitPattern, "\(d) written as \(s)")
      // Valid JSON number, parsed by our parser to the same value.
      switch try JSONParser.parse(s) {
      case .double(let p): expectEqual(p.bitPattern, d.bitPattern)
      case .int(let i): expectEqual(Double(i), d)
      default: Issue.record("not a number: \(s)")
      }
    }
  }

  /// The fast digits of short doubles are the digits Swift's shortest description gives.
  @Test func fewDigitsAgreeWithTheShortestDescription() {
    var rng = SeededRandom(seed: 31)
    var fast = 0
    var values: [Double] = [0.1, 0.2, 0.3, 1, 2.5, 100_000, 1e-6, 123.456789, 2147483647.5, 0.000_001, 999_999.999_999]
    for _ in 0..<20000 {
      let k = Double([1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7][Int(rng.next() % 8)])
      values.append(Double(rng.next() % 3_000_000_000) / k)
      values.append(Double(bitPattern: 0x3E00_0000_0000_0000 | (rng.next() >> 12) | ((rng.next() % 0x60) << 52)))
    }
    for d in values where d > 0 && d.isFinite {
      var a = [UInt8](repeating: 0, count: 48)
      var b = [UInt8](repeating: 0, count: 48)
      var pa = 0
      var pb = 0
      let n = a.withUnsafeMutableBufferPointer { ShortestDecimal.fewDigits(d, into: $0, pointPosition: &pa) }
      guard let n else { continue }
      fast += 1
      let m = b.withUnsafeMutableBufferPointer { ShortestDecimal.parseDescription(d.description, into: $0, pointPosition: &pb) }
      #expect(Array(a[0..<n]) == Array(b[0..<m]) && pa == pb, "\(d)")
    }
    #expect(fast > 10000)
  }

  @Test func everyWrittenFloatReadsBackExactly() throws {
    var rng = SeededRandom(seed: 8)
    for _ in 0..<20_000 {
      let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
      guard f.isFinite else { continue }
      let s = text { $0.writeFloat(f) }
      let back = try #require(Float(s))
      expectEqual(back.bitPattern, f.bitPattern, "\(f) written as \(s)")
    }
  }

  @Test func neverWritesNonFiniteNumbers() {
    expectEqual(text { $0.writeDouble(.nan) }, "null")
    expectEqual(text { $0.writeDouble(-.infinity) }, "null")
    expectEqual(text { $0.writeFloat(.infinity) }, "null")
  }

  @Test func structuralLayerAddsCommas() {
    let out = text { w in
      w.beginObject()
      w.key("a")
      w.value(Int64(1))
      w.key("b")
      w.beginArray()
      w.value(true)
      w.nullValue()
      w.value("x")
      w.endArray()
      w.key("c")
      w.beginObject()
      w.endObject()
      w.endObject()
    }
    expectEqual(out, #"{"a":1,"b":[true,null,"x"],"c":{}}"#)
  }

  @Test func prettyPrintsWithIndentation() {
    let out = text(
      { w in
        w.beginObject()
        w.key("a")
        w.value(Int64(1))
        w.key("b")
        w.beginArray()
        w.value(1.5)
        w.beginArray()
        w.endArray()
        w.endArray()
        w.endObject()
      }, indent: 2)
    expectEqual(out, "{\n  \"a\": 1,\n  \"b\": [\n    1.5,\n    []\n  ]\n}")
  }

  @Test func writesParsedDocumentsBack() throws {
    let doc = #"{"z":[1,-0.0,"s",{"k":null}],"a":false}"#
    expectEqual(text { $0.value(try! JSONParser.parse(doc)) }, doc)
  }

  @Test func base64RoundTripsWithPadding() {
    expectEqual(Base64.encode([]), "")
    expectEqual(Base64.encode(Array("f".utf8)), "Zg==")
    expectEqual(Base64.encode(Array("fo".utf8)), "Zm8=")
    expectEqual(Base64.encode(Array("foobar".utf8)), "Zm9vYmFy")
    var rng = SeededRandom(seed: 3)
    for n in [0, 1, 2, 3, 4, 5, 70_001] {
      let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      expectEqual(Base64.decode(Base64.encode(bytes)), bytes)
    }
    expectEqual(Base64.decode("Zg"), Array("f".utf8))
    #expect(Base64.decode("Z===") == nil)
    #expect(Base64.decode("Zm9v!") == nil)
    #expect(Base64.decode("Zh==") == nil)  // non-zero left-over bits
  }
}
