import RealmModel
import RealmTestSupport
import Testing

@testable import RealmQuery

/// Realm Query Language text: the scanner's longest-match rules, every literal form, the
/// grammar's accepted and refused shapes.
@Suite struct QueryParserTests {
  static let schema = QuerySchema(PersonFixture.schema)

  static func constant(_ text: String) throws -> QueryValue {
    let query = try QueryParser.parse("age == \(text)")
    guard case .comparison(let c) = query.predicate, case .constant(let k) = c.right else {
      throw QueryError(column: 0, message: "not a constant")
    }
    return try QueryConstants.value(of: k, schema: schema, lookup: nil)
  }

  static func kinds(_ text: String) throws -> [QueryToken.Kind] {
    try QueryLexer(text).tokenize().map(\.kind).dropLast()
  }

  @Test func theLongestMatchWinsThenTheFirstRule() throws {
    try expectEqual(Self.kinds("in index IN In"), [.inKeyword, .identifier, .inKeyword, .identifier])
    try expectEqual(Self.kinds("a-b 5-3 5 - 3"), [.identifier, .natural, .number, .natural, .minus, .natural])
    try expectEqual(Self.kinds("T1:2 T1 O7 L1:2 $0 $K1 $x"), [.timestamp, .identifier, .link, .typedLink, .argument, .keyPathArgument, .identifier])
    try expectEqual(Self.kinds("0x1F 1e5 5. .5 1.5f inf info nan"), [.number, .float, .float, .float, .float, .infinity, .identifier, .nan])
    try expectEqual(Self.kinds("[c] [ c ] == =< => <> !"), [.caseInsensitive, .leftBracket, .identifier, .rightBracket, .equal, .lessEqual, .greaterEqual, .notEqual, .not])
    try expectEqual(Self.kinds("and AND AnD && or || not NOT Not"), [.and, .and, .and, .and, .or, .or, .not, .not, .identifier])
    try expectEqual(Self.kinds("true TRUE True null NIL Nil first FIRST First"), [.trueValue, .trueValue, .identifier, .null, .null, .null, .indexFirst, .indexFirst, .identifier])
    try expectEqual(Self.kinds("@count @size @links @type @keys @values @max"), [.size, .size, .backlink, .type, .keyOrValue, .keyOrValue, .max])
    let tokens = try QueryLexer(#"true\ love"#).tokenize()
    #expect(tokens[0].kind == .identifier && tokens[0].text == "true love")
    try expectEqual(Self.kinds("名前 == 1"), [.identifier, .equal, .natural])
  }

  @Test func numbers() throws {
    #expect(try Self.constant("42").isInt(42))
    #expect(try Self.constant("-42").isInt(-42))
    #expect(try Self.constant("+7").isInt(7))
    #expect(try Self.constant("0x1F").isInt(31))
    #expect(try Self.constant("010").isInt(8))  // C reads a leading 0 as octal
    #expect(try Self.constant("-9223372036854775808").isInt(.min))
    #expect(try Self.constant("99999999999999999999").isInt(.max))  // saturates, as strtoll
    #expect(try Self.constant("1.5").isDouble(1.5))
    #expect(try Self.constant("1e3").isDouble(1000))
    #expect(try Self.constant(".5").isDouble(0.5))
    #expect(try Self.constant("5.").isDouble(5))
    #expect(try Self.constant("-2.5E-1").isDouble(-0.25))
    #expect(try Self.constant("inf").isDouble(.infinity))
    #expect(try Self.constant("-Infinity").isDouble(-.infinity))
    guard case .double(let nan) = try Self.constant("NaN") else { Issue.record("NaN"); return }
    #expect(nan.isNaN)
    guard case .float(let f) = try Self.constant("1.1f") else { Issue.record("1.1f"); return }
    expectEqual(f, Float(1.1))
  }

  @Test func stringsKeepTheirEscapes() throws {
    #expect(try Self.constant(#"'a\nb'"#).isString(#"a\nb"#))
    #expect(try Self.constant(#""it\"s""#).isString(#"it\"s"#))
    #expect(try Self.constant(#"'\u00e9'"#).isString(#"\u00e9"#))
    #expect(try Self.constant("'été'").isString("été"))
    #expect(try Self.constant(#"B64"SGVsbG8=""#).isString("Hello"))
    #expect(try Self.constant(#"B64"SGVsbG8""#).isString("Hello"))  // padding is optional
    #expect(throws: QueryError.Located.self) { try Self.constant(#"'\q'"#) }  // not an escape Realm knows
    #expect(throws: QueryError.Located.self) { try Self.constant(#"B64"SGVsb=G8=""#) }
  }

  @Test func binaryUUIDObjectIdAndLinks() throws {
    #expect(try Self.constant("bin('ab')").isBinary([0x61, 0x62]))
    #expect(try Self.constant(#"bin(B64"AAH/")"#).isBinary([0x00, 0x01, 0xFF]))
    guard case .uuid(let u) = try Self.constant("uuid(00112233-4455-6677-8899-aabbccddeeff)") else { Issue.record("uuid"); return }
    expectEqual(u.bytes, [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])
    guard case .objectId(let o) = try Self.constant("oid(0a0b0c0d0e0f101112131415)") else { Issue.record("oid"); return }
    expectEqual(o.bytes, [0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15])
    guard case .objectKey(let link) = try Self.constant("O12") else { Issue.record("O12"); return }
    expectEqual(link.key, 12)
    // `oid(` with a character that is not hex is not the literal: Realm's syntax error.
    #expect(throws: QueryError.Located.self) { try QueryParser.parse("_id == oid(xyz)") }
  }

  @Test func dates() throws {
    #expect(try Self.constant("T946684800:0").isDate(946_684_800, 0))
    #expect(try Self.constant("T-5:-100").isDate(-5, -100))
    #expect(try Self.constant("T010:0").isDate(8, 0))
    #expect(try Self.constant("2020-06-30@12:00:00").isDate(1_593_518_400, 0))
    #expect(try Self.constant("2020-06-30T12:00:00:5").isDate(1_593_518_400, 5))
    #expect(try Self.constant("2020-13-45@00:00:00").isDate(1_613_260_800, 0))  // fields carry over, as timegm
    // Realm computes readable dates in 32 bits: years past 2038 wrap around.
    #expect(try Self.constant("2050-01-01@00:00:00").isDate(Int64(Int32(truncatingIfNeeded: 2_524_608_000)), 0))
    #expect(try Self.constant("1950-06-01@00:00:00:7").isDate(-618_105_600, -7))
    #expect(throws: QueryError.Located.self) { try Self.constant("1899-12-31@00:00:00") }
    #expect(throws: QueryError.Located.self) { try Self.constant("T5:-1") }
  }

  @Test func grammarAcceptsWhatRealmAccepts() throws {
    let accepted = [
      "a == b", "a =[c] 'x'", "a != b", "a <> b", "a => 1", "a =< 1", "(a == 1)", "((a == 1))", "!(a == 1)",
      "NOT a == 1 AND b == 2", "a == 1 && b == 2 || c == 3", "(a + 1) * 2 > b", "a == (b)", "a * -1 == 2",
      "in in 'in'", "sort > 0", "size == 3", "a BETWEEN {1, 2}", "a IN {}", "a IN {1, 'x', null}",
      "ANY a == 1", "SOME a == 1", "ALL a.b > 1", "NONE a CONTAINS 'x'", "a == ANY {1, 2}", "a.@count > 1",
      "a[SIZE] == 2", "a.@type == 'int'", "a[FIRST] == 1", "a[LAST] == 1", "a[2] == 1", "a['k'] == 1",
      "a[*] == 1", "a.@sum > 1", "a.@avg.b > 1", "@links.@count > 0", "@links.C.p.@count > 0",
      "SUBQUERY(a, $x, $x.b == 1).@count > 0", "SUBQUERY(a, $x, $x.b == 1).@size > 0", "TRUEPREDICATE",
      "a == 1 SORT(b ASC)", "a == 1 SORT(b asc, c Descending) DISTINCT(d) LIMIT(3)", "a == 1 LIMIT(1) LIMIT(2)",
      "a == B64\"AA==\"", "a == bin('x')", "a == binary(B64\"AA==\")", "a == obj('C', 1)", "a LIKE[c] '*x?'",
    ]
    for q in accepted {
      #expect(throws: Never.self, "\(q)") { try QueryParser.parse(q) }
    }
  }

  @Test func grammarRefusesWhatRealmRefuses() {
    let refused = [
      "", "a", "a ==", "a == 1)", "(a == 1", "a == 1 AND", "a ==[d] 'x'", "a ==[cd] 'x'", "5-3 == 2",
      "a & b", "a == 1 & b == 2", "a IN [1, 2]", "a IN (1, 2)", "a IN {b}", "a == 1 SORT(b)", "SORT(b ASC)",
      "a == 1 LIMIT(-1)", "a == 1 LIMIT(0x10)", "a == 1 LIMIT(1.5)", "a + 1 BEGINSWITH 'x'", "(a) LIKE 'x'",
      "SUBQUERY(a, $x, $x.b == 1) > 0", "SUBQUERY(a, $x, $x.b == 1).@sum > 0", "ANY a.@sum > 1", "@prop > 1",
      "a..b == 1", "not.a == 0", "a > 1 > 2", "a == 'x", "a == '\\a'", "a.@size.b > 1", "a @links > 1",
    ]
    for q in refused {
      #expect(throws: QueryError.Located.self, "\(q)") { try QueryParser.parse(q) }
    }
  }

  @Test func descriptorsMergeConsecutiveSorts() throws {
    let query = try RealmQuery("age > 1 SORT(age ASC) SORT(firstName DESC) DISTINCT(lastName) LIMIT(2)", className: "Person", schema: PersonFixture.schema)
    expectEqual(query.descriptors.count, 3)
    guard case .sort(let columns) = query.descriptors[0] else { Issue.record("sort"); return }
    // A later SORT orders first: firstName, then age.
    expectEqual(columns.map(\.0.property), [1, 3])
    expectEqual(columns.map(\.ascending), [false, true])
  }
}

extension QueryValue {
  func isInt(_ v: Int64) -> Bool { if case .int(v) = self { return true } else { return false } }
  func isDouble(_ v: Double) -> Bool { if case .double(v) = self { return true } else { return false } }
  func isString(_ v: String) -> Bool { if case .string(v) = self { return true } else { return false } }
  func isBinary(_ v: [UInt8]) -> Bool { if case .binary(v) = self { return true } else { return false } }
  func isDate(_ s: Int64, _ ns: Int32) -> Bool {
    if case .timestamp(let t) = self { return t.seconds == s && t.nanoseconds == ns } else { return false }
  }
}
