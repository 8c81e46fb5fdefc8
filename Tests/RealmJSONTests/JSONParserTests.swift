import RealmTestSupport
import Testing
@testable import RealmJSON

@Suite struct JSONParserTests {
  @Test func keepsExactIntegersAndNegativeZero() throws {
    let v = try JSONParser.parse(#"[9223372036854775807, -9223372036854775808, -0.0, 1.5, 1e3]"#)
    expectEqual(v, .array([.int(.max), .int(.min), .double(-0.0), .double(1.5), .double(1000)]))
    if case .array(let a) = v, case .double(let z) = a[2] { expectEqual(z.sign, .minus) } else { Issue.record("shape") }
  }

  @Test func keepsMemberOrder() throws {
    let v = try JSONParser.parse(#"{"b":1,"a":{"z":null,"y":true}}"#)
    expectEqual(v, .object([JSONMember("b", .int(1)), JSONMember("a", .object([JSONMember("z", .null), JSONMember("y", .bool(true))]))]))
    expectEqual(v["a"]?["y"], .bool(true))
  }

  @Test func decodesEscapesAndSurrogates() throws {
    try expectEqual(JSONParser.parse(#""a\n\u0000\u00e9\ud83d\ude00\/""#), .string("a\n\u{0}é😀/"))
  }

  @Test(arguments: ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "tru", "\"\\x\"", "\"\u{1}\"", "[1] 2", "\"\\ud800\""])
  func rejectsInvalidDocuments(_ text: String) {
    #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
  }

  @Test func reportsLineAndColumn() {
    do {
      _ = try JSONParser.parse("{\n  \"a\": tru\n}")
      Issue.record("should fail")
    } catch {
      expectEqual(error.line, 2)
      expectEqual(error.column, 8)
    }
  }

  @Test func limitsNesting() {
    let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
  }
}
