import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmModel
import RealmQuery

/// Syntax: precedence and associativity, literals, and syntax errors with their columns.
@Suite struct ExpressionParserTests {
  typealias F = ExpressionFixture

  /// Each expression, evaluated, gives the value that only the documented precedence gives.
  @Test(arguments: [
    ("1 + 2 * 3", RealmValue.int(7)),
    ("(1 + 2) * 3", .int(9)),
    ("10 - 4 - 3", .int(3)),  // + - are left-associative
    ("100 / 10 / 5", .int(2)),  // / is left-associative
    ("2 * 3 % 4", .int(2)),  // * and % share a level, left to right
    ("7 % 4 * 2", .int(6)),
    ("-2 * 3", .int(-6)),
    ("- -3", .int(3)),
    ("-(2 + 3)", .int(-5)),
    ("2 - -3", .int(5)),
    ("1 + 2 == 3", .bool(true)),  // arithmetic binds tighter than comparison
    ("true || false && false", .bool(true)),  // && binds tighter than ||
    ("(true || false) && false", .bool(false)),
    ("true OR false AND false", .bool(true)),
    ("!1 == 2", .bool(true)),  // ! negates the whole comparison (RQL)
    ("NOT 1 == 2 AND 1 == 1", .bool(true)),  // NOT binds tighter than AND
    ("NOT (1 == 1 AND 1 == 2)", .bool(true)),
    ("!true || true", .bool(true)),
    ("1 == 1 && !false", .bool(true)),  // ! also works as a prefix of a value
    ("null ?? 1 + 2", .int(3)),  // ?? is looser than +
    ("null ?? 1 == 1", .bool(true)),  // ... and tighter than ==
    ("null ?? null ?? 3", .int(3)),  // ?? is right-associative
    ("2 ?? 1 * 10", .int(2)),
    ("true ? 1 : 0 + 5", .int(1)),  // ?: is the loosest
    ("false ? 1 : true ? 2 : 3", .int(2)),  // ?: is right-associative
    ("true ? false ? 1 : 2 : 3", .int(2)),
    ("true || false ? 'a' : 'b'", .string("a")),
    ("(1 < 2) == true", .bool(true)),
    ("[1, 2, 3][1] + 1", .int(3)),  // postfix binds tighter than +
    ("-old.age", .int(-36)),
    ("'a' + 'b' + 'c'", .string("abc")),
  ])
  func precedence(source: String, expected: RealmValue) throws {
    try expectEqual(F.eval(source), expected, "\(source)")
  }

  @Test func literals() throws {
    try expectEqual(F.eval("12"), .int(12))
    try expectEqual(F.eval("1.5"), .double(1.5))
    try expectEqual(F.eval("1e3"), .double(1000))
    try expectEqual(F.eval("2.5E-1"), .double(0.25))
    try expectEqual(F.eval("'text'"), str("text"))
    try expectEqual(F.eval("\"text\""), str("text"))
    try expectEqual(F.eval("true"), .bool(true))
    try expectEqual(F.eval("FALSE"), .bool(false))
    try expectEqual(F.eval("null"), .null)
    try expectEqual(F.eval("nil"), .null)
    try expectEqual(F.eval("[1, 2]"), .list([.int(1), .int(2)]))
    try expectEqual(F.eval("[]"), .list([]))
    try expectEqual(F.eval("{'a', 'b'}"), .list([str("a"), str("b")]))
    try expectEqual(F.eval("-9223372036854775808"), .int(.min))
    try expectEqual(F.eval("9223372036854775807"), .int(.max))
  }

  @Test func stringEscapes() throws {
    try expectEqual(F.eval(#"'it\'s'"#), str("it's"))
    try expectEqual(F.eval(#""say \"hi\"""#), str("say \"hi\""))
    try expectEqual(F.eval(#"'a\\b'"#), str("a\\b"))
    try expectEqual(F.eval(#"'a\nb\tc\r'"#), str("a\nb\tc\r"))
    try expectEqual(F.eval(#"'\u00e9\u{1F600}'"#), str("é😀"))
    try expectEqual(F.eval(#"'a"b'"#), str("a\"b"))
    try expectEqual(F.eval("'héllo'"), str("héllo"))
    // Other escapes are kept as written (for regex patterns).
    try expectEqual(F.eval(#"'^\d+\.\q$'"#), str(#"^\d+\.\q$"#))
  }

  @Test func whitespaceAndKeywordsAnyCase() throws {
    try expectEqual(F.eval(" \t1\n+\r2 "), .int(3))
    try expectEqual(F.eval("true and false or true"), .bool(true))
    try expectEqual(F.eval("not false"), .bool(true))
  }

  @Test func syntaxErrorsCarryTheirColumn() {
    expectCompileError("⟪", "expression is empty")
    expectCompileError("1 + ⟪", "expression ends where a value was expected")
    expectCompileError("1 + ⟪)", "expected a value, found ')'")
    expectCompileError("(1 + 2⟪", "expected ')' to close '(', found the end of the expression")
    expectCompileError("[1, 2⟪", "expected ',' or ']' after an element, found the end of the expression")
    expectCompileError("lower('a' ⟪'b')", "expected ',' or ')' after an argument, found string 'b'")
    expectCompileError("1 ⟪2", "unexpected number '2' after a complete expression")
    expectCompileError("⟪'abc", "string is not terminated")
    expectCompileError("'⟪\\u{110000}'", "'\\u' escape '110000' is not a Unicode scalar in hexadecimal")
    expectCompileError("old.age ⟪# 2", "unexpected character '#'")
    expectCompileError("old.age ⟪& 2", "unexpected '&' (did you mean '&&'?)")
    expectCompileError("old.age ⟪| 2", "unexpected '|' (did you mean '||'?)")
    expectCompileError("⟪99999999999999999999", "integer is out of range (-9223372036854775808 to 9223372036854775807)")
    expectCompileError("12⟪abc", "unexpected 'a' after a number")
    expectCompileError("old.⟪1", "expected a property name after '.', found number '1'")
    expectCompileError("true ? 1 ⟪2", "expected ':' between the branches of '?', found number '2'")
    expectCompileError("1 < 2 ⟪< 3", "comparisons cannot be chained; use parentheses and '&&'")
    expectCompileError("old.firstName⟪('x')", "only a function name can be called; found '(' after '.firstName'")
    expectCompileError("⟪@count", "'@count' must follow a property, as in 'tags.@count'")
    expectCompileError("old.tags.⟪@", "expected a name after '@' such as '@count'")
    expectCompileError("old.firstName BEGINSWITH[⟪d] 'a'", "modifier '[d]' is not supported; only '[c]' (case-insensitive) is")
    expectCompileError("1 <[c]⟪ 2", "'[c]' applies to ==, !=, IN and the string operators, not '<'")
    expectCompileError("old.age ⟪BETWEEN {1, 2}", "'BETWEEN' is not supported; see docs/expression-language.md")
    expectCompileError("⟪ANY == 'a'", "'ANY' must be followed by a collection property, as in 'ANY dogs.age > 5'")
    expectCompileError("ANY old.tags⟪", "'ANY' needs a comparison, as in 'ANY dogs.age > 5'")
    expectCompileError("⟪SUBQUERY(dogs, $d, $d.age > 1).@count > 0", "unknown function 'SUBQUERY'")
  }

  @Test func columnsCountCharactersNotBytes() {
    // 'é' is two bytes in UTF-8 but one column.
    expectCompileError("'é' + ⟪#", "unexpected character '#'")
    expectCompileError("'😀😀' ⟪old", "unexpected 'old' after a complete expression")
  }

  @Test func nestingLimit() throws {
    let ok = String(repeating: "(", count: 200) + "1" + String(repeating: ")", count: 200)
    try expectEqual(F.eval(ok), .int(1))
    let deep = String(repeating: "(", count: 300) + "1" + String(repeating: ")", count: 300)
    let (error, _) = F.compileError(deep)
    expectEqual(error?.message, "expression is nested more than 256 levels deep")
    // A long left-leaning chain nests too, without recursion in the parser.
    let chain = Array(repeating: "1", count: 400).joined(separator: " + ")
    expectEqual(F.compileError(chain).error?.message, "expression is nested more than 256 levels deep")
    let negations = String(repeating: "-", count: 300) + "1"
    expectEqual(F.compileError(negations).error?.message, "expression is nested more than 256 levels deep")
    let lists = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
    expectEqual(F.compileError(lists).error?.message, "expression is nested more than 256 levels deep")
  }

  @Test func sourceLengthLimit() {
    let long = "'" + String(repeating: "a", count: 20_000) + "'"
    expectEqual(F.compileError(long).error?.message, "expression is 20002 bytes long; the limit is 16384")
    expectEqual(F.compileError(long).error?.column, 1)
  }

  @Test func errorDescriptionHasColumn() {
    let e = ExpressionError(column: 12, message: "x")
    expectEqual(e.description, "column 12: x")
  }
}
