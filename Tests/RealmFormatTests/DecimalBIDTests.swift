import RealmFormat
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

/// The BID64 and BID32 leaf forms of decimals in format 24 (§6.7): widened to a `Decimal128`,
/// and narrowed back exactly or not at all.
@Suite struct DecimalBIDTests {
  @Test func widensBID64AndBID32() {
    expectEqual(Decimal128(bid64: 0x31C0_0000_0000_0001).text, "1")
    expectEqual(Decimal128(bid64: 0x7C00_0000_0000_00AA), .realmNull)
    expectEqual(Decimal128(bid64: 0x7800_0000_0000_0000), .infinity)
    expectEqual(Decimal128(bid64: 0xB1A0_0000_0000_0005).text, "-0.5")  // exponent -1
    // Large-coefficient form: bits 62:61 = 11, coefficient 0b100 ‖ bits 50:0; here exponent 0
    // and coefficients 2^53 and 2^53 + 2^48.
    expectEqual(Decimal128(bid64: 0x6C70_0000_0000_0000).text, "9007199254740992")
    expectEqual(Decimal128(bid64: 0x6C70_0000_0000_0000 | 1 << 48).text, "9288674231451648")
    // Coefficients above 10^16 - 1 are non-canonical: zero.
    expectEqual(Decimal128(bid64: 0x6C77_FFFF_FFFF_FFFF).text, "0")
    expectEqual(Decimal128(bid32: 0x3180_013A).text, "3.14")
    expectEqual(Decimal128(bid32: 0x7C00_00AA), .realmNull)
    expectEqual(Decimal128(bid32: 0xF800_0000), .negativeInfinity)
    expectEqual(Decimal128(bid32: 0x3280_000F).text, "15")
  }

  @Test func narrowsExactlyOrNotAtAll() throws {
    expectEqual(Decimal128.realmNull.bid64, 0x7C00_0000_0000_00AA)
    expectEqual(Decimal128.realmNull.bid32, 0x7C00_00AA)
    expectEqual(Decimal128(text: "3.14")?.bid32, 0x3180_013A)
    expectEqual(Decimal128(text: "1")?.bid64, 0x31C0_0000_0000_0001)
    expectEqual(Decimal128(text: "-Inf")?.bid64, 0xF800_0000_0000_0000)
    #expect(Decimal128(text: "1E-300")?.bid32 == nil)
    #expect(Decimal128(text: "1E-300")?.bid64 != nil)
    #expect(Decimal128(text: "1234567890123456789012345678901234")?.bid64 == nil)
    var rng = SeededRandom(seed: 21)
    for _ in 0..<2000 {
      let d = Decimal128(
        negative: rng.next() % 2 == 0, coefficient: UInt128(rng.next() % (1 << 54)),
        exponent: Int(rng.next() % 900) - 450)!
      if let b = d.bid64 { expectEqual(Decimal128(bid64: b), d) }
      if let b = d.bid32 { expectEqual(Decimal128(bid32: b), d) }
    }
  }
}
