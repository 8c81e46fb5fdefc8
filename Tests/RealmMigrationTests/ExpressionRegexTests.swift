import RealmTestSupport
import Testing
@testable import RealmMigration

/// The linear-time regex engine behind `matches`.
@Suite struct ExpressionRegexTests {
  private func m(_ pattern: String, _ text: String) throws -> Bool {
    try SafeRegex(pattern).matches(text)
  }

  private func syntaxError(_ pattern: String) -> String? {
    do {
      _ = try SafeRegex(pattern)
      return nil
    } catch {
      return error.message
    }
  }

  static let matches: [(pattern: String, text: String, expected: Bool)] = [
    ("abc", "xxabcxx", true),
    ("^abc", "xxabc", false),
    ("abc$", "abcx", false),
    ("^$", "", true),
    ("a.c", "abc", true),
    ("a.c", "a\nc", false),
    ("a*", "", true),
    ("^a+$", "aaa", true),
    ("^a+$", "", false),
    ("^colou?r$", "color", true),
    ("^colou?r$", "colour", true),
    ("^(ab)+$", "ababab", true),
    ("^(ab)+$", "ababa", false),
    ("^(?:cat|dog)s?$", "dogs", true),
    ("^(?:cat|dog)s?$", "bird", false),
    ("^a{3}$", "aaa", true),
    ("^a{3}$", "aa", false),
    ("^a{2,}$", "aaaa", true),
    ("^a{2,3}$", "aaaa", false),
    ("^[a-c]+$", "abcabc", true),
    ("^[^a-c]+$", "xyz", true),
    ("^[^a-c]+$", "xaz", false),
    ("^[-a]+$", "-a-", true),
    ("^[a-]+$", "-a-", true),
    ("^\\d+$", "2024", true),
    ("^\\D+$", "20a", false),
    ("^\\w+$", "a_1", true),
    ("\\s", "a b", true),
    ("^\\S+$", "a b", false),
    ("^[\\d.]+$", "1.5", true),
    ("\\.", "a.b", true),
    ("\\.", "ab", false),
    ("^a+?$", "aa", true),
    ("(?i)^héllo$", "HÉLLO", true),
    ("(?i)^[a-z]+$", "ABC", true),
    ("^é+$", "éé", true),
    ("^.$", "😀", true),
    ("a|b|c", "zzc", true),
    ("^(a|)$", "", true),
  ]

  @Test(arguments: matches)
  func matching(pattern: String, text: String, expected: Bool) throws {
    try expectEqual(m(pattern, text), expected, "\(pattern) on \(text)")
  }

  @Test func pathologicalPatternsFinish() throws {
    // Exponential for a backtracking engine; linear here.
    let text = String(repeating: "a", count: 5_000)
    try expectEqual(m("^(a*)*b$", text), false)
    try expectEqual(m("^(a|a)*b$", text), false)
    try expectEqual(m("^(a+)+$", text), true)
  }

  @Test func syntaxErrors() {
    expectEqual(syntaxError("(a"), "'(' at position 1 is not closed")
    expectEqual(syntaxError("a)"), "unmatched ')' at position 2")
    expectEqual(syntaxError("[ab"), "'[' at position 1 is not closed")
    expectEqual(syntaxError("*a"), "nothing to repeat at position 1")
    expectEqual(syntaxError("a{3,2}"), "repetition {3,2} has its maximum below its minimum")
    expectEqual(syntaxError("a{2"), "'{' at position 2 is not closed with '}'")
    expectEqual(syntaxError("[z-a]"), "range in '[' at position 1 is reversed")
    expectEqual(syntaxError("\\b"), "escape '\\b' at position 1 is not supported")
    expectEqual(syntaxError("(?=a)"), "only '(?:' groups and a leading '(?i)' are supported (position 1)")
    expectEqual(syntaxError("a\\"), "pattern ends after '\\'")
    expectEqual(syntaxError(String(repeating: "a", count: 1_001)), "pattern is longer than 1000 characters")
    expectEqual(syntaxError("(a{1000}){1000}"), "pattern expands to more than 10000 steps")
    expectEqual(syntaxError(String(repeating: "(", count: 100) + String(repeating: ")", count: 100)), "groups nest deeper than 64")
  }
}
