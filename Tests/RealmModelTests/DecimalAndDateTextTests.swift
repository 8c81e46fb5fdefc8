import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

@Suite struct DecimalTextTests {
  private func bid(_ negative: Bool, _ coefficient: UInt128, _ exponent: Int) -> Decimal128 {
    Decimal128(negative: negative, coefficient: coefficient, exponent: exponent)!
  }

  /// Realm's renderings, from the fixtures' dump.jsonl.
  @Test func writesRealmsStyle() {
    expectEqual(bid(false, 15, -1).text, "1.5")
    expectEqual(bid(true, 1, -3).text, "-0.001")
    expectEqual(bid(false, 1, 400).text, "1E+400")
    expectEqual(bid(false, 1, -6176).text, "1E-6176")
    expectEqual(bid(false, 1, -34).text, "1E-34")
    expectEqual(bid(false, 1000, -3).text, "1.000")
    expectEqual(bid(false, 100, 0).text, "100")
    expectEqual(bid(true, 0, 0).text, "-0")
    expectEqual(bid(false, 9, 26).text, "9E+26")
    expectEqual(bid(true, 4, -8).text, "-4E-8")
    #expect(
      bid(true, 482_178_708_410_952_174_078_206, -29).text == "-0.00000482178708410952174078206")
    expectEqual(bid(false, 96_220_505_959_908_031_874_057, -29).text, "9.6220505959908031874057E-7")
    let nines = Decimal128.coefficientLimit - 1
    expectEqual(bid(false, nines, 6111).text, "9.999999999999999999999999999999999E+6144")
    #expect(
      bid(false, 1_234_567_890_123_456_789_012_345_678_901_234, 0).text
        == "1234567890123456789012345678901234")
    expectEqual(Decimal128.realmNull.text, "NaN")
    expectEqual(Decimal128.nan.text, "NaN")
    expectEqual(Decimal128.infinity.text, "Inf")
    expectEqual(Decimal128.negativeInfinity.text, "-Inf")
    expectEqual(Decimal128.zero.text, "0")
  }

  @Test func decodesBID128Fields() {
    // 1.5: biased exponent 6175 in bits 62:49, coefficient 15.
    #expect(
      Decimal128(low: 15, high: 6175 << 49).parts
        == .finite(negative: false, coefficient: 15, exponent: -1))
    // Coefficient >= 10^34 and the `11` combination form are non-canonical zeros.
    let big = Decimal128.coefficientLimit
    let nonCanonical = Decimal128(
      low: UInt64(truncatingIfNeeded: big), high: 6176 << 49 | UInt64(big >> 64))
    expectEqual(nonCanonical.text, "0")
    #expect(
      Decimal128(low: 5, high: 0x6000_0000_0000_0000 | 6176 << 47).parts
        == .finite(negative: false, coefficient: 0, exponent: 0))
  }

  @Test func parsesBackExactly() throws {
    for s in [
      "1.5", "-0.001", "1E+400", "1E-6176", "1.000", "100", "-0", "0", "9E+26",
      "9.999999999999999999999999999999999E+6144", "-9.999999999999999999999999999999999E+6144",
      "1234567890123456789012345678901234", "-0.00000482178708410952174078206", "NaN", "Inf",
      "-Inf",
    ] {
      let d = try #require(Decimal128(text: s), "\(s)")
      expectEqual(d.text, s)
    }
    #expect(Decimal128(text: "-0")!.isSignMinus)
    expectEqual(Decimal128(text: "1.5"), Decimal128(negative: false, coefficient: 15, exponent: -1))
    #expect(
      Decimal128(text: "+2.50e3") == Decimal128(negative: false, coefficient: 250, exponent: 1))
    expectEqual(Decimal128(text: "infinity"), .infinity)
    expectEqual(Decimal128(text: ".5"), Decimal128(negative: false, coefficient: 5, exponent: -1))
    for bad in ["", "-", "1.2.3", "1e", "1e+", "abc", "1x", "e5", "."] {
      #expect(Decimal128(text: bad) == nil, "\(bad)")
    }
  }

  /// 35 or more digits: half to even on the dropped digit.
  @Test(arguments: [
    ("12345678901234567890123456789012345", "1.234567890123456789012345678901234E+34"),
    ("12345678901234567890123456789012355", "1.234567890123456789012345678901236E+34"),
    ("12345678901234567890123456789012345001", "1.234567890123456789012345678901235E+37"),
    ("99999999999999999999999999999999995", "1.000000000000000000000000000000000E+35"),
  ])
  func roundsLikeIEEE(text: String, rounded: String) {
    expectEqual(Decimal128(text: text)?.text, rounded)
  }

  @Test func clampsLikeIEEE() {
    // Exponent above 6111: coefficient padded while it fits, else infinity.
    expectEqual(Decimal128(text: "1E+6144")?.text, "1.000000000000000000000000000000000E+6144")
    expectEqual(Decimal128(text: "1E+6145"), .infinity)
    expectEqual(Decimal128(text: "-1E+99999999"), .negativeInfinity)
    #expect(
      Decimal128(text: "0E+9999")?.parts == .finite(negative: false, coefficient: 0, exponent: 6111)
    )
    // Below -6176: digits shifted out, rounded, possibly to zero.
    expectEqual(Decimal128(text: "15E-6177")?.text, "2E-6176")
    #expect(
      Decimal128(text: "1E-6177")?.parts
        == .finite(negative: false, coefficient: 0, exponent: -6176))
    #expect(
      Decimal128(text: "1E-99999999")?.parts
        == .finite(negative: false, coefficient: 0, exponent: -6176))
  }

  @Test func randomValuesRoundTripThroughText() throws {
    var rng = SeededRandom(seed: 11)
    for _ in 0..<5000 {
      let c = UInt128(rng.next()) << 64 | UInt128(rng.next())
      let coefficient =
        c % (rng.next() % 2 == 0 ? Decimal128.coefficientLimit : UInt128(rng.next() % 100_000))
      let exponent = Int(rng.next() % 12288) - 6176
      let d = bid(rng.next() % 2 == 0, coefficient, exponent)
      let back = try #require(Decimal128(text: d.text))
      expectEqual(back, d, "\(d.text)")
    }
  }

  @Test func comparesNumerically() {
    let ordered = [
      "NaN", "-Inf", "-1E+400", "-1.5", "-0.001", "0", "1E-6176", "1", "1.5", "1E+400", "Inf",
    ]
    .map { Decimal128(text: $0)! }
    for i in 0..<ordered.count {
      for j in 0..<ordered.count {
        let expected = i < j ? -1 : (i == j ? 0 : 1)
        #expect(
          ordered[i].compareNumerically(to: ordered[j]) == expected,
          "\(ordered[i].text) vs \(ordered[j].text)")
      }
    }
    #expect(Decimal128(text: "1.0")!.isNumericallyEqual(to: Decimal128(text: "1.00")!))
    #expect(Decimal128(text: "-0")!.isNumericallyEqual(to: Decimal128(text: "0E+5")!))
    #expect(
      Decimal128(text: "9.99E+399")!.compareNumerically(to: Decimal128(text: "1E+400")!) == -1)
    #expect(
      Decimal128(text: "123456789012345678901234567890123.4")!
        .compareNumerically(to: Decimal128(text: "123456789012345678901234567890123.5")!) == -1)
  }
}

@Suite struct TimestampTextTests {
  @Test func writesUTCWithNineDigits() {
    expectEqual(Timestamp(seconds: 0, nanoseconds: 0).text, "1970-01-01T00:00:00.000000000Z")
    #expect(
      Timestamp(seconds: -1, nanoseconds: -500_000_000).text == "1969-12-31T23:59:58.500000000Z")
    expectEqual(Timestamp(seconds: 0, nanoseconds: -1).text, "1969-12-31T23:59:59.999999999Z")
    #expect(
      Timestamp(seconds: 951_782_400, nanoseconds: 7).text == "2000-02-29T00:00:00.000000007Z")
    #expect(
      Timestamp(seconds: Timestamp.firstTextSecond, nanoseconds: 0).text
        == "0001-01-01T00:00:00.000000000Z")
    #expect(
      Timestamp(seconds: Timestamp.lastTextSecond, nanoseconds: 999_999_999).text
        == "9999-12-31T23:59:59.999999999Z")
    // Outside years 1-9999 there is no text form (the dump uses seconds/nanoseconds).
    #expect(Timestamp(seconds: -62_135_596_801, nanoseconds: 0).text == nil)
    #expect(Timestamp(seconds: Timestamp.firstTextSecond, nanoseconds: -1).text == nil)
    #expect(Timestamp(seconds: 253_402_300_800, nanoseconds: 0).text == nil)
    #expect(Timestamp(seconds: .min, nanoseconds: -5).text == nil)
    #expect(Timestamp(seconds: .max, nanoseconds: 999_999_999).text == nil)
  }

  @Test func parsesWithRealmsSignConvention() {
    // From alltypes/dump.jsonl: the Gregorian reform noon plus 1 ns, before 1970.
    #expect(
      Timestamp(text: "1582-10-15T12:00:00.000000001Z")
        == Timestamp(seconds: -12_219_249_599, nanoseconds: -999_999_999))
    #expect(
      Timestamp(text: "1969-12-31T23:59:58.500000000Z")
        == Timestamp(seconds: -1, nanoseconds: -500_000_000))
    #expect(
      Timestamp(text: "1970-01-01T00:00:01.5Z") == Timestamp(seconds: 1, nanoseconds: 500_000_000))
    #expect(
      Timestamp(text: "2000-02-29T00:00:00Z") == Timestamp(seconds: 951_782_400, nanoseconds: 0))
    for bad in [
      "1900-02-29T00:00:00Z", "2023-13-01T00:00:00Z", "2023-01-01T24:00:00Z",
      "2023-01-01 00:00:00Z",
      "2023-01-01T00:00:00", "2023-01-01T00:00:00.Z", "2023-01-01T00:00:00.1234567890Z",
      "0000-01-01T00:00:00Z", "",
    ] {
      #expect(Timestamp(text: bad) == nil, "\(bad)")
    }
  }

  @Test func randomInstantsRoundTrip() throws {
    var rng = SeededRandom(seed: 5)
    let span = UInt64(Timestamp.lastTextSecond - Timestamp.firstTextSecond)
    for _ in 0..<5000 {
      let s = Timestamp.firstTextSecond + Int64(rng.next() % span)
      var ns = Int32(rng.next() % 1_000_000_000)
      if s < 0 { ns = -ns }
      if s == 0 { ns = 0 }
      let t = Timestamp(seconds: s, nanoseconds: ns)
      guard let text = t.text else { continue }  // the first second with negative nanos
      expectEqual(Timestamp(text: text), t, "\(text)")
    }
  }
}
