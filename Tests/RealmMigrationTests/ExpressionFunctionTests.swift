import RealmTestBytes
import Testing
import RealmTestSupport
@testable import RealmMigration
import RealmModel
import RealmQuery

/// Every function, with failing conversions with and without defaults.
@Suite struct ExpressionFunctionTests {
  typealias F = ExpressionFixture

  @Test func integerTextMatchesSwift() {
    var rng = SeededRandom(seed: 9)
    var values: [Int64] = [0, 1, -1, 9, 10, -10, .max, .min, .max - 1, .min + 1, 1_000_000_007]
    for _ in 0..<2000 { values.append(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64)) }
    for v in values { expectEqual(ValueText.decimal(v), String(v)) }
  }

  @Test func stringConversion() throws {
    try expectEqual(F.eval("'C-' + string(old.age)"), str("C-36"))
    try expectEqual(F.eval("string(-5)"), str("-5"))
    try expectEqual(F.eval("string(1.5)"), str("1.5"))
    try expectEqual(F.eval("string(2.0)"), str("2.0"))
    try expectEqual(F.eval("string(old.active)"), str("true"))
    try expectEqual(F.eval("string(old.balance)"), str("1.5"))
    try expectEqual(F.eval("string(old.created)"), str("2024-01-02T03:04:05.000000000Z"))
    try expectEqual(F.eval("string(old._id)"), str("0102030405060708090a0b0c"))
    try expectEqual(F.eval("string(old.token)"), str("12345678-9abc-4def-8123-456789abcdef"))
    try expectEqual(F.eval("string(old.photo)", ["photo": .data(Array("hi".utf8))]), str("hi"))
    try expectEqual(F.eval("string(old.weight)", ["weight": .float(0.1)]), str("0.1"))
    #expect(F.evalError("string(old.photo)", ["photo": .data([0xFF])])?.message
      == "string(): cannot convert data data of 1 bytes to string (give a default: string(value, default))")
    try expectEqual(F.eval("string(old.photo, '?')", ["photo": .data([0xFF])]), str("?"))
  }

  @Test func intConversion() throws {
    try expectEqual(F.eval("int('42')"), .int(42))
    try expectEqual(F.eval("int(' -42 ')"), .int(-42))
    try expectEqual(F.eval("int('+7')"), .int(7))
    try expectEqual(F.eval("int(2.9)"), .int(2))
    try expectEqual(F.eval("int(-2.9)"), .int(-2))
    try expectEqual(F.eval("int(old.active)"), .int(1))
    try expectEqual(F.eval("int(old.created)"), .int(1_704_164_645))
    try expectEqual(F.eval("int(old.balance)"), .int(1))
    let e = F.evalError("1 + int(old.firstName)")
    expectEqual(e?.message, "int(): cannot convert string 'Ada' to int (give a default: int(value, default))")
    expectEqual(e?.column, 5)
    expectEqual(F.evalError("int('1.5')")?.message, "int(): cannot convert string '1.5' to int (give a default: int(value, default))")
    #expect(F.evalError("int('+-1')") != nil)
    expectEqual(F.evalError("int(1e300)")?.message, "int(): cannot convert double '1e+300' to int (give a default: int(value, default))")
    #expect(F.evalError("int('99999999999999999999')") != nil)
    try expectEqual(F.eval("int(old.firstName, 0)"), .int(0))
    try expectEqual(F.eval("int('12', 0)"), .int(12))
    try expectEqual(F.eval("int(old.age, 0)"), .int(36))
  }

  @Test func doubleConversion() throws {
    try expectEqual(F.eval("double('1.25')"), .double(1.25))
    try expectEqual(F.eval("double(' 1e3 ')"), .double(1000))
    try expectEqual(F.eval("double(old.age)"), .double(36))
    try expectEqual(F.eval("double(old.balance)"), .double(1.5))
    try expectEqual(F.eval("double(old.active)"), .double(1))
    #expect(F.evalError("double('abc')")?.message
      == "double(): cannot convert string 'abc' to double (give a default: double(value, default))")
    try expectEqual(F.eval("double('abc', -1)"), .double(-1))  // int default becomes double
  }

  @Test func boolConversion() throws {
    for (text, value) in [("true", true), ("FALSE", false), ("yes", true), ("No", false), ("1", true), ("0", false)] {
      try expectEqual(F.eval("bool('\(text)')"), .bool(value))
    }
    try expectEqual(F.eval("bool(0)"), .bool(false))
    try expectEqual(F.eval("bool(7)"), .bool(true))
    try expectEqual(F.eval("bool(0.0)"), .bool(false))
    #expect(F.evalError("bool('maybe')")?.message
      == "bool(): cannot convert string 'maybe' to bool (give a default: bool(value, default))")
    try expectEqual(F.eval("bool('maybe', false)"), .bool(false))
  }

  @Test func dateConversion() throws {
    let t = { (s: Int64, n: Int32) in RealmValue.date(Timestamp(seconds: s, nanoseconds: n)) }
    try expectEqual(F.eval("date('2024-01-02T03:04:05Z')"), t(1_704_164_645, 0))
    try expectEqual(F.eval("date('2024-01-02T03:04:05.5Z')"), t(1_704_164_645, 500_000_000))
    try expectEqual(F.eval("date('2024-01-02T03:04:05.123456789Z')"), t(1_704_164_645, 123_456_789))
    try expectEqual(F.eval("date('2024-01-02T03:04:05+01:00')"), t(1_704_164_645 - 3600, 0))
    try expectEqual(F.eval("date('2024-01-02T03:04:05')"), t(1_704_164_645, 0))
    try expectEqual(F.eval("date('2024-01-02 03:04')"), t(1_704_164_640, 0))
    try expectEqual(F.eval("date('2024-01-02')"), t(1_704_153_600, 0))
    try expectEqual(F.eval("date('1969-12-31T23:59:59Z')"), t(-1, 0))
    try expectEqual(F.eval("date('2000-02-29')"), t(951_782_400, 0))
    try expectEqual(F.eval("date(0)"), t(0, 0))
    try expectEqual(F.eval("date(1.5)"), t(1, 500_000_000))
    try expectEqual(F.eval("date(-1.5)"), t(-1, -500_000_000))
    try expectEqual(F.eval("date(old.created)"), t(1_704_164_645, 0))
    try expectEqual(F.eval("string(date('1969-12-31T23:59:59.5Z'))"), str("1969-12-31T23:59:59.500000000Z"))
    // Round trip through the dump form.
    try expectEqual(F.eval("date(string(old.created)) == old.created"), .bool(true))
    for bad in ["2023-02-29", "2024-13-01", "2024-01-02T24:00:00Z", "2024-1-2", "yesterday", "2024-01-02T03:04:05Q"] {
      #expect(F.evalError("date('\(bad)')")?.message
        == "date(): cannot convert string '\(bad)' to date (give a default: date(value, default))", "\(bad)")
    }
    try expectEqual(F.eval("date('yesterday', old.created)"), t(1_704_164_645, 0))
  }

  @Test func caseAndTrim() throws {
    try expectEqual(F.eval("lower('ÀBC')"), str("àbc"))
    try expectEqual(F.eval("upper(old.firstName)"), str("ADA"))
    try expectEqual(F.eval("trim('  a b \\n')"), str("a b"))
    try expectEqual(F.eval("trim('')"), str(""))
  }

  @Test func splitAndJoin() throws {
    try expectEqual(F.eval("split('Ada King Lovelace', ' ')"), .list([str("Ada"), str("King"), str("Lovelace")]))
    try expectEqual(F.eval("split('a,,b', ',')"), .list([str("a"), str(""), str("b")]))  // keeps empty parts
    try expectEqual(F.eval("split('', ',')"), .list([str("")]))
    try expectEqual(F.eval("split('abc', '')"), .list([str("a"), str("b"), str("c")]))
    try expectEqual(F.eval("split('a::b', '::')"), .list([str("a"), str("b")]))
    try expectEqual(F.eval("join(old.tags, ', ')"), str("math, poetry"))
    try expectEqual(F.eval("join(['a', null, 'b'], '-')"), str("a-b"))  // nulls skipped
    try expectEqual(F.eval("join([1, 2], '+')"), str("1+2"))
    try expectEqual(F.eval("join(split('a b', ' '), '_')"), str("a_b"))
    try expectEqual(F.eval("join([], ',')"), str(""))
  }

  @Test func replaceAndSubstring() throws {
    try expectEqual(F.eval("replace('a-b-c', '-', '+')"), str("a+b+c"))
    try expectEqual(F.eval("replace('aaa', 'aa', 'b')"), str("ba"))
    try expectEqual(F.eval("replace('abc', '', 'x')"), str("abc"))
    try expectEqual(F.eval("substring('Lovelace', 4)"), str("lace"))
    try expectEqual(F.eval("substring('Lovelace', 0, 4)"), str("Love"))
    try expectEqual(F.eval("substring('Lovelace', 6, 10)"), str("ce"))  // length clamps
    try expectEqual(F.eval("substring('Lovelace', 20)"), str(""))  // start clamps
    try expectEqual(F.eval("substring('Lovelace', -3, 2)"), str("Lo"))  // negative start is 0
    try expectEqual(F.eval("substring('Lovelace', 2, -1)"), str(""))
    try expectEqual(F.eval("substring('héllo👍🏽!', 4, 2)"), str("o👍🏽"))  // by characters
  }

  @Test func length() throws {
    try expectEqual(F.eval("length('héllo')"), .int(5))
    try expectEqual(F.eval("length('👍🏽')"), .int(1))
    try expectEqual(F.eval("length(old.tags)"), .int(2))
    try expectEqual(F.eval("length(old.scores)"), .int(2))
    try expectEqual(F.eval("length(old.photo)", ["photo": .data([1, 2])]), .int(2))
    try expectEqual(F.eval("length([])"), .int(0))
  }

  @Test func containsBeginsEnds() throws {
    try expectEqual(F.eval("contains(old.lastName, 'love')"), .bool(false))
    try expectEqual(F.eval("contains(old.lastName, 'ove')"), .bool(true))
    try expectEqual(F.eval("contains(old.lastName, '')"), .bool(true))
    try expectEqual(F.eval("contains(old.tags, 'math')"), .bool(true))
    try expectEqual(F.eval("contains(old.tags, 'art')"), .bool(false))
    try expectEqual(F.eval("beginsWith(old.lastName, 'Love')"), .bool(true))
    try expectEqual(F.eval("beginsWith(old.lastName, 'love')"), .bool(false))
    try expectEqual(F.eval("endsWith(old.lastName, 'lace')"), .bool(true))
    try expectEqual(F.eval("endsWith('a', 'ba')"), .bool(false))
  }

  @Test func matchesUsesTheSafeEngine() throws {
    try expectEqual(F.eval("matches(old.firstName, '^A')"), .bool(true))
    try expectEqual(F.eval("matches(old.firstName, 'd')"), .bool(true))  // searches
    try expectEqual(F.eval("matches(old.firstName, '^d')"), .bool(false))
    try expectEqual(F.eval("matches('2024-01-02', '^\\\\d{4}-\\\\d{2}-\\\\d{2}$')"), .bool(true))
    try expectEqual(F.eval("matches('a@b.io', '^[^@ ]+@[^@ ]+\\\\.[a-z]{2,}$')"), .bool(true))
    try expectEqual(F.eval("matches('ADA', '(?i)^ada$')"), .bool(true))
    // One backslash is enough: unknown string escapes are kept for the pattern.
    try expectEqual(F.eval(#"matches('2024', '^\d{4}$')"#), .bool(true))
    try expectEqual(F.eval(#"matches('a.b', '^a\.b$') && !matches('axb', '^a\.b$')"#), .bool(true))
  }

  @Test func nowUuidObjectIdAreDeterministicWithASeed() throws {
    try expectEqual(F.eval("now()"), .date(Timestamp(seconds: 1_700_000_000, nanoseconds: 5)))
    let compiled = try F.compiler().compileValue("[string(uuid()), string(uuid()), string(objectId()), string(objectId())]")
    var a = EvaluationContext(environment: F.environment)
    var b = EvaluationContext(environment: F.environment)
    let first = try compiled.evaluate(&a)
    expectEqual(first, (try compiled.evaluate(&b)))
    guard case .list(let items) = first, items.count == 4, case .string(let u1) = items[0], case .string(let u2) = items[1],
      case .string(let o1) = items[2], case .string(let o2) = items[3]
    else {
      Issue.record("unexpected \(first)")
      return
    }
    #expect(u1 != u2)
    expectEqual(Array(u1)[14], "4")  // version 4
    #expect("89ab".contains(Array(u1)[19]))  // RFC 4122 variant
    #expect(o1 != o2)
    #expect(o1.hasPrefix("6553f100"))  // the seconds of `now` (1_700_000_000) in hex
    let other = ExpressionEnvironment(now: F.environment.now, seed: 43)
    var c = EvaluationContext(environment: other)
    #expect(try compiled.evaluate(&c) != first)
  }

  @Test func defaultEnvironmentUsesTheClock() {
    // Any time after 2024 proves it reads the real clock.
    #expect(ExpressionEnvironment().now.seconds > 1_700_000_000)
  }
}
