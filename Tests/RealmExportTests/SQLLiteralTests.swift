import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmExport

/// The SQL literals of `dump --format sql` (docs/sql-export.md, "Values"), checked without
/// SQLite: the export tests load them into sqlite3 as well.
@Suite struct SQLLiteralTests {
  static func text(_ v: Double) -> String {
    var out: [UInt8] = []
    SQLRealLiteral.append(v, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  static func text(_ f: Float) -> String {
    var out: [UInt8] = []
    SQLRealLiteral.append(f, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The value SQLite computes for a literal of the forms written (decimal, `CAST(n AS REAL)`,
  /// `(a*b)`), computed exactly here.
  static func value(_ literal: String) -> Double? {
    if literal.hasPrefix("CAST(") { return Int64(literal.dropFirst(5).prefix { $0 != " " }).map(Double.init) }
    if literal.hasPrefix("(") {
      let factors = literal.dropFirst().dropLast().split(separator: "*").compactMap { value(String($0)) }
      return factors.count == 2 ? factors[0] * factors[1] : nil
    }
    if literal == "9e999" { return .infinity }
    if literal == "-9e999" { return -.infinity }
    return Double(literal)
  }

  @Test func doublesReadBackExactlyAndShortWhereSafe() {
    expectEqual(Self.text(0.1), "0.1")
    expectEqual(Self.text(1.5), "1.5")
    expectEqual(Self.text(-2.0), "-2.0")
    expectEqual(Self.text(Double("9619.019002")!), "9619.0190019999991")  // SQLite 3.40 misreads the shortest
    expectEqual(Self.text(0x1p60), "CAST(1152921504606846976 AS REAL)")
    expectEqual(Self.text(1e22), "1.0e+22")
    #expect(Self.text(Double.infinity) == "9e999" && Self.text(-Double.infinity) == "-9e999")
    expectEqual(Self.text(Double.nan), "'NaN'")
    expectEqual(Self.text(-0.0), "-0.0")
    #expect(Self.text(Double.leastNonzeroMagnitude).hasPrefix("("))
    var random = SeededRandom(seed: 7)
    for _ in 0..<20_000 {
      let v = Double(bitPattern: random.next())
      guard v.isFinite else { continue }
      let literal = Self.text(v)
      expectEqual(Self.value(literal)?.bitPattern, v.bitPattern, "\(v) written as \(literal)")
      // Always a REAL for SQLite: a point, an exponent or a CAST.
      #expect(literal.contains(".") || literal.contains("e") || literal.hasPrefix("CAST"))
    }
  }

  @Test func floatsAreTheirShortestDecimalWhenItReadsBackAsTheSameFloat() {
    expectEqual(Self.text(Float(0.1)), "0.1")
    expectEqual(Self.text(Float(16_777_216)), "16777216.0")
    expectEqual(Self.text(Float(-7.5)), "-7.5")
    expectEqual(Self.text(Float.leastNonzeroMagnitude), Self.text(Double(Float.leastNonzeroMagnitude)))
    var random = SeededRandom(seed: 8)
    for _ in 0..<20_000 {
      let f = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
      guard f.isFinite else { continue }
      let literal = Self.text(f)
      let read = Self.value(literal)
      expectEqual(read.map(Float.init), f, "\(f) written as \(literal)")
    }
  }

  @Test func datesAreISOTextWithNanosecondsAndExpandedYears() {
    func text(_ s: Int64, _ ns: Int32) -> String {
      var out: [UInt8] = []
      SQLDateText.append(Timestamp(seconds: s, nanoseconds: ns), to: &out)
      return String(decoding: out, as: UTF8.self)
    }
    expectEqual(text(0, 0), "1970-01-01T00:00:00.000000000Z")
    expectEqual(text(1_704_164_645, 123_456_789), "2024-01-02T03:04:05.123456789Z")
    expectEqual(text(-1, -500_000_000), "1969-12-31T23:59:58.500000000Z")
    expectEqual(text(-62_167_219_200, 0), "0000-01-01T00:00:00.000000000Z")
    expectEqual(text(-62_167_219_201, 0), "-0001-12-31T23:59:59.000000000Z")
    expectEqual(text(253_402_300_799, 999_999_999), "9999-12-31T23:59:59.999999999Z")
    expectEqual(text(253_402_300_800, 0), "+10000-01-01T00:00:00.000000000Z")
    expectEqual(text(Int64.max, 999_999_999), "+292277026596-12-04T15:30:07.999999999Z")
    expectEqual(text(Int64.min, -999_999_999), "-292277022657-01-27T08:29:51.000000001Z")
  }

  @Test func textKeepsEveryByte() {
    func text(_ s: String) -> String {
      var out: [UInt8] = []
      SQLLiteral.append(s, to: &out)
      return String(decoding: out, as: UTF8.self)
    }
    expectEqual(text("it's"), "'it''s'")
    expectEqual(text(""), "''")
    expectEqual(text("line\nbreak"), "'line\nbreak'")
    expectEqual(text("a\u{0}b"), "CAST(X'610062' AS TEXT)")
    expectEqual(text("a\r\n"), "CAST(X'610d0a' AS TEXT)")
    expectEqual(text("😀"), "'😀'")
    var out: [UInt8] = []
    SQLLiteral.append(Int64.min, to: &out)
    expectEqual(String(decoding: out, as: UTF8.self), "-9223372036854775808")
  }

  @Test func identifiersAreQuotedAndUniqueWithoutRegardToASCIICase() {
    expectEqual(SQLIdentifier.quoted("order"), "\"order\"")
    expectEqual(SQLIdentifier.quoted("a\"b"), "\"a\"\"b\"")
    var names = SQLNameSpace()
    expectEqual(names.claim("Person"), "Person")
    expectEqual(names.claim("person"), "person_2")
    expectEqual(names.claim("PERSON"), "PERSON_3")
    expectEqual(names.claim("Persön"), "Persön")
    expectEqual(SQLExportPlan.tableName("sqlite_stat1"), "_sqlite_stat1")
  }
}
