import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmQuery

/// Queries come from users and plans: whatever the text, compiling ends with a query or an
/// `QueryError` whose column lies in the text, and running ends with an answer or an
/// error, in bounded time and stack. A trap or a hang would end the test process.
@Suite struct QueryRobustnessTests {
  typealias F = PersonFixture

  static let pieces = [
    "age", "firstName", "tags", "dogs", "bestFriend", "address", "anything", "scores", "counts", "ratings",
    "@links", "Dog", "owner", ".", "[", "]", "(", ")", "{", "}", ",", "==", "!=", "<", ">=", "=<", "&&", "||",
    "!", " AND ", " OR ", " NOT ", " ANY ", " ALL ", " NONE ", " IN ", " BETWEEN ", " BEGINSWITH ", " LIKE ",
    "[c]", "[d]", "@count", "@size", "@sum", "@max", "@avg", "@type", "@keys", "@values", "[FIRST]", "[LAST]",
    "[SIZE]", "[*]", "0", "-1", "0x7f", "9223372036854775807", "2.5", "1e309", "inf", "nan", "'a'", "'*?'",
    "\"x\"", "null", "true", "T1:2", "2020-01-01@00:00:00", "oid(0123456789abcdef01234567)",
    "uuid(00000000-0000-0000-0000-000000000000)", "B64\"AA==\"", "bin('x')", "O1", "$0", "$t", "SUBQUERY(",
    "TRUEPREDICATE", " SORT(", " DISTINCT(", " LIMIT(", " ASC", " DESC", "+", "-", "*", "/", " ", "'é'", "#",
  ]

  /// Compiles and runs `source`: true when it compiled. An error must name a column inside
  /// the text.
  static func attempt(_ source: String, seed: UInt64) -> Bool {
    do {
      let query = try RealmQuery(source, className: "Person", schema: F.schema)
      _ = try? query.matches(values: F.values(), key: 7, source: F.objects)
      return true
    } catch {
      #expect(error.column >= 1 && error.column <= source.count + 1, "seed \(seed): \(source) -> \(error)")
      #expect(!error.message.isEmpty)
      return false
    }
  }

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func randomTextsNeverTrap(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    for _ in 0..<1_000 {
      var source = ""
      for _ in 0..<Int.random(in: 1...14, using: &random) {
        source += Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &random)]
      }
      _ = Self.attempt(source, seed: seed)
    }
  }

  static let paths = [
    "age", "maybeAge", "firstName", "nickname", "score", "weight", "balance", "active", "created", "tags", "labels",
    "scores", "counts", "ratings", "visits", "anything", "photo", "token", "_id", "dogs.age", "dogs.name",
    "bestFriend.age", "bestFriend.tags", "address.city", "tags.@count", "firstName.@size", "anything.@type",
    "ratings.@avg", "counts.@sum", "dogs.@max.age", "scores['a']", "scores.@keys", "@links.@count",
    "@links.Dog.owner.age", "SUBQUERY(dogs, $d, $d.age > 2).@count", "tags[FIRST]", "anything.x",
  ]
  static let literals = [
    "0", "-3", "36", "1.5", "1e400", "-inf", "nan", "'Ada'", "''", "'a*'", "null", "true", "T0:0",
    "2024-01-01@00:00:00", "oid(000000000000000000000000)", "uuid(12345678-9abc-4def-8123-456789abcdef)",
    "bin('')", "B64\"QWRh\"", "{1, 2}", "{'math', 'poetry'}", "{}", "O7", "0x10",
  ]
  static let operators = ["==", "!=", "<", "<=", ">", ">=", "IN", "==[c]", "BEGINSWITH", "CONTAINS[c]", "LIKE", "ENDSWITH"]

  static func generate(_ depth: Int, _ random: inout SeededRandom) -> String {
    func pick(_ a: [String]) -> String { a[Int.random(in: 0..<a.count, using: &random)] }
    switch depth == 0 ? 0 : Int.random(in: 0..<5, using: &random) {
    case 1: return "(\(generate(depth - 1, &random)) AND \(generate(depth - 1, &random)))"
    case 2: return "\(generate(depth - 1, &random)) OR \(generate(depth - 1, &random))"
    case 3: return "NOT \(generate(depth - 1, &random))"
    default:
      let quantifier = Int.random(in: 0..<4, using: &random) == 0 ? pick(["ANY ", "ALL ", "NONE "]) : ""
      return "\(quantifier)\(pick(paths)) \(pick(operators)) \(pick(literals))"
    }
  }

  /// Queries from the grammar with random paths and literals: many are ill-typed, many compile.
  @Test(arguments: [UInt64(5), 6])
  func generatedQueriesCompileOrExplain(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var compiled = 0
    for _ in 0..<1_500 {
      var source = Self.generate(3, &random)
      if Int.random(in: 0..<4, using: &random) == 0 { source += " SORT(age DESC) LIMIT(2)" }
      if Self.attempt(source, seed: seed) { compiled += 1 }
    }
    #expect(compiled > 200, "seed \(seed)")
  }

  @Test func nestingAndLengthAreBounded() {
    let deep = String(repeating: "(", count: 5_000) + "age == 1" + String(repeating: ")", count: 5_000)
    #expect(throws: QueryError.self) { try RealmQuery(deep, className: "Person", schema: F.schema) }
    let nots = String(repeating: "NOT ", count: 5_000) + "age == 1"
    #expect(throws: QueryError.self) { try RealmQuery(nots, className: "Person", schema: F.schema) }
    let sum = "age" + String(repeating: " + 1", count: 5_000) + " > 0"
    #expect(throws: QueryError.self) { try RealmQuery(sum, className: "Person", schema: F.schema) }
    let long = "firstName == '" + String(repeating: "x", count: 70_000) + "'"
    #expect(throws: QueryError.self) { try RealmQuery(long, className: "Person", schema: F.schema) }
    let subqueries = String(repeating: "SUBQUERY(dogs, $d, ", count: 300) + "age > 1" + String(repeating: ").@count > 0", count: 300)
    #expect(throws: QueryError.self) { try RealmQuery(subqueries, className: "Person", schema: F.schema) }
  }

  /// Many conditions side by side are fine (they are a list, not a nesting).
  @Test func wideQueriesWork() throws {
    let wide = (0..<3_000).map { "age == \($0)" }.joined(separator: " OR ")
    let query = try RealmQuery(wide, className: "Person", schema: F.schema)
    #expect(try query.matches(values: F.values(), key: 0, source: nil))
    let list = "age IN {" + (0..<10_000).map(String.init).joined(separator: ", ") + "}"
    #expect(try RealmQuery(list, className: "Person", schema: F.schema).matches(values: F.values(), key: 0, source: nil))
  }

  /// Backtracking over stars would take forever on these; the matcher's work is bounded by
  /// text length times pattern length.
  @Test func pathologicalLikePatternsFinish() throws {
    let text = String(repeating: "a", count: 20_000)
    let pattern = String(repeating: "*a", count: 200) + "*b"
    let query = try RealmQuery("firstName LIKE '\(pattern)'", className: "Person", schema: F.schema)
    try expectEqual(query.matches(values: F.values(["firstName": .string(text)]), key: 0, source: nil), false)
    let ins = try RealmQuery("firstName LIKE[c] '\(pattern.uppercased())'", className: "Person", schema: F.schema)
    #expect(try ins.matches(values: F.values(["firstName": .string(text + "b")]), key: 0, source: nil))
  }
}
