import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmModel
import RealmQuery

/// Random sources built from the language's own pieces: each compiles or fails with an
/// `ExpressionError` whose column lies inside the source, and each compiled one evaluates
/// or fails with an `EvaluationError`. A trap would end the test process.
@Suite struct ExpressionRobustnessTests {
  typealias F = ExpressionFixture

  static let pieces = [
    "old.", "new.", "age", "firstName", "tags", "dogs", "bestFriend", "address", "anything", "nickname",
    "maybeAge", "scores", ".", "[", "]", "(", ")", "{", "}", ",", "?", ":", "??", "+", "-", "*", "/", "%",
    "==", "!=", "<", "<=", ">", ">=", "&&", "||", "!", " AND ", " OR ", " NOT ", " BEGINSWITH ", " LIKE ",
    " IN ", "[c]", "@count", "@sum", "@max", "@keys", " ALL ", " NONE ", "0", "1", "-9223372036854775808", "9223372036854775807", "2.5", "'a'", "'*?'",
    "\"x\"", "null", "true", "int(", "string(", "date(", "lower(", "split(", "join(", "substring(",
    "matches(", "'(a|b)*'", "coalesce(", "length(", "contains(", " ", "'\\u{41}'", "'é'", "#", "'",
  ]

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func randomSourcesNeverTrap(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var compiled = 0
    for _ in 0..<1_500 {
      var source = ""
      for _ in 0..<Int.random(in: 1...12, using: &random) {
        source += Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &random)]
      }
      do {
        let e = try F.compiler().compileValue(source)
        var context = EvaluationContext(old: F.values(), resolver: F.Resolver(), environment: F.environment)
        _ = try? e.evaluate(&context)
        compiled += 1
      } catch {
        #expect(error.column >= 1 && error.column <= source.count + 1, "seed \(seed): \(source) -> \(error)")
        #expect(!error.message.isEmpty)
      }
    }
    // Some soups are valid expressions, so evaluation is exercised too.
    #expect(compiled > 10, "seed \(seed)")
  }

  /// A random expression from the grammar (often ill-typed, often valid).
  static func generate(_ depth: Int, _ random: inout SeededRandom) -> String {
    let leaves = [
      "old.age", "old.maybeAge", "old.firstName", "old.nickname", "old.score", "old.weight", "old.tags",
      "old.anything", "old.bestFriend.firstName", "old.dogs.age", "old.ratings.@avg", "old.counts.@sum", "old.tags[1]", "old.created", "0", "-1", "7",
      "9223372036854775807", "2.5", "'ab'", "''", "null", "true", "false", "old.balance", "old.scores['a']",
    ]
    if depth == 0 || Int.random(in: 0..<3, using: &random) == 0 {
      return leaves[Int.random(in: 0..<leaves.count, using: &random)]
    }
    let a = generate(depth - 1, &random)
    let b = generate(depth - 1, &random)
    let binary = ["+", "-", "*", "/", "%", "==", "<", ">=", "&&", "||", "??", "BEGINSWITH[c]", "LIKE", "IN"]
    let unary = ["lower", "upper", "trim", "string", "int", "double", "bool", "date", "length", "-", "!"]
    let binaryFunctions = ["split", "join", "contains", "beginsWith", "coalesce", "int", "substring", "date"]
    switch Int.random(in: 0..<5, using: &random) {
    case 0, 1: return "(\(a) \(binary[Int.random(in: 0..<binary.count, using: &random)]) \(b))"
    case 2: return "\(unary[Int.random(in: 0..<unary.count, using: &random)])(\(a))"
    case 3: return "\(binaryFunctions[Int.random(in: 0..<binaryFunctions.count, using: &random)])(\(a), \(b))"
    default: return "(\(a) ? \(b) : \(generate(depth - 1, &random)))"
    }
  }

  @Test(arguments: [UInt64(11), 12])
  func randomGrammarExpressionsNeverTrap(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var evaluated = 0
    let compiler = F.compiler()
    for _ in 0..<2_000 {
      let source = Self.generate(4, &random)
      guard let e = try? compiler.compileValue(source) else { continue }
      for overrides in [[:], ["maybeAge": RealmValue.int(.min), "nickname": str("x"), "weight": .float(-0.5), "anything": str("s")]] {
        var context = EvaluationContext(old: F.values(overrides), resolver: F.Resolver(), environment: F.environment)
        do {
          let value = try e.evaluate(&context)
          // The static type's optionality holds for every value.
          if !e.type.isOptional { #expect(!value.isNull, "\(source) is \(e.type) but gave null") }
          evaluated += 1
        } catch {
          #expect(!error.message.isEmpty)
        }
      }
    }
    #expect(evaluated > 200, "seed \(seed)")
  }

  @Test func randomPatternsNeverTrap() {
    var random = SeededRandom(seed: 9)
    let pieces = ["a", "b", ".", "*", "+", "?", "|", "(", ")", "(?:", "[", "]", "^", "-", "$", "\\d", "\\", "{2}", "{1,3}", "{,", "é"]
    for _ in 0..<3_000 {
      var pattern = ""
      for _ in 0..<Int.random(in: 1...10, using: &random) {
        pattern += pieces[Int.random(in: 0..<pieces.count, using: &random)]
      }
      if let regex = try? SafeRegex(pattern) {
        _ = regex.matches("abab-éé12ba")
      }
    }
  }
}
