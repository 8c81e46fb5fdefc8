import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmModel
import RealmQuery

/// Operators, paths and null propagation, evaluated on objects.
@Suite struct ExpressionEvaluationTests {
  typealias F = ExpressionFixture

  @Test func arithmetic() throws {
    #expect(try F.eval("old.age + 4") == .int(40))
    #expect(try F.eval("old.age - 40") == .int(-4))
    #expect(try F.eval("old.age * 2") == .int(72))
    #expect(try F.eval("old.age / 5") == .int(7))  // truncates
    #expect(try F.eval("-7 / 2") == .int(-3))  // toward zero
    #expect(try F.eval("old.age % 5") == .int(1))
    #expect(try F.eval("-7 % 3") == .int(-1))  // sign of the dividend
    #expect(try F.eval("old.age + 0.5") == .double(36.5))
    #expect(try F.eval("old.score * 2") == .double(3))
    #expect(try F.eval("7.5 % 2") == .double(1.5))
    #expect(try F.eval("1 / 2.0") == .double(0.5))
    #expect(try F.eval("1.0 / 0") == .double(.infinity))  // IEEE for floating point
    #expect(try F.eval("old.weight * 2", ["weight": .float(1.25)]) == .float(2.5))
    #expect(try F.eval("old.weight + 1.0", ["weight": .float(1.25)]) == .double(2.25))
    #expect(try F.eval("old.firstName + old.lastName") == str("AdaLovelace"))
  }

  @Test func stringChainsJoinInOneStep() throws {
    #expect(try F.eval("old.firstName + ' ' + old.lastName + ' (' + string(old.age) + ')'") == str("Ada Lovelace (36)"))
    #expect(try F.eval("('a' + ('b' + 'c')) + ('d' + 'e')") == str("abcde"))
    #expect(try F.eval("'a' + old.nickname + 'c'") == .null)  // one null part: null
    #expect(try F.eval("'a' + (old.nickname ?? 'b') + 'c'") == str("abc"))
    #expect(try F.eval("old.anything + 'x'", ["anything": str("w")]) == str("wx"))  // mixed: generic path
    let long = String(repeating: "x", count: 100)
    #expect(try F.eval("'\(long)' + '\(long)'") == str(long + long))
  }

  @Test func integerOverflowIsAnErrorNotATrap() {
    let max = "9223372036854775807"
    #expect(F.evalError("\(max) + 1")?.message == "integer overflow in '9223372036854775807 + 1' (ints are 64-bit)")
    #expect(F.evalError("-\(max) - 2")?.message == "integer overflow in '-9223372036854775807 - 2' (ints are 64-bit)")
    #expect(F.evalError("\(max) * 2")?.message == "integer overflow in '9223372036854775807 * 2' (ints are 64-bit)")
    #expect(F.evalError("old.age / (0 - 1) + -9223372036854775808 / -1")?.message
      == "integer overflow in '-9223372036854775808 / -1' (ints are 64-bit)")
    #expect(F.evalError("-9223372036854775808 % -1")?.message == "integer overflow in '-9223372036854775808 % -1' (ints are 64-bit)")
    #expect(F.evalError("-old.age", ["age": .int(.min)])?.message == "integer overflow in '-(-9223372036854775808)' (ints are 64-bit)")
  }

  @Test func divisionByZero() {
    let e = F.evalError("1 + old.age / 0")
    #expect(e?.message == "division by zero in '36 / 0'")
    #expect(e?.column == 5)
    #expect(F.evalError("old.age % (old.age - 36)")?.message == "division by zero in '36 % 0'")
  }

  /// `[c]` and `LIKE` are Realm's, as in a `where` filter (`PredicateTests` holds RQL to the
  /// same answers): ASCII and Latin-1 letters fold, others compare as they are.
  @Test func stringOperatorsMatchAsRealmAndAsWhereFilters() throws {
    #expect(try F.eval("'åse' ==[c] 'ÅSE'") == .bool(true))
    #expect(try F.eval("'bjørn' CONTAINS[c] 'Ø'") == .bool(true))
    #expect(try F.eval("'σοφια' ==[c] 'ΣΟΦΙΑ'") == .bool(false))
    #expect(try F.eval("'σοφια' BEGINSWITH[c] 'Σ'") == .bool(false))
    #expect(try F.eval("'straße' ==[c] 'STRASSE'") == .bool(false))
    #expect(try F.eval("'Ärger' ENDSWITH[c] 'GER'") == .bool(true))
    #expect(try F.eval("'é' LIKE '?'") == .bool(true))
    #expect(try F.eval("'a' LIKE 'a**'") == .bool(false))
    #expect(try F.eval("'ab' LIKE 'a**'") == .bool(true))
    #expect(try F.eval("'ÅBC' LIKE[c] 'å*'") == .bool(true))
  }

  @Test func comparisons() throws {
    #expect(try F.eval("old.age == 36") == .bool(true))
    #expect(try F.eval("old.age = 36") == .bool(true))
    #expect(try F.eval("old.age != 36") == .bool(false))
    #expect(try F.eval("old.age < 37 && old.age <= 36 && old.age > 35 && old.age >= 36") == .bool(true))
    #expect(try F.eval("old.age == 36.0") == .bool(true))  // int and double by value
    #expect(try F.eval("old.score > 1") == .bool(true))
    #expect(try F.eval("old.balance == 1.5") == .bool(true))  // decimal128 by value
    #expect(try F.eval("old.balance < 2") == .bool(true))
    #expect(try F.eval("9007199254740993 > 9007199254740992.0") == .bool(true))  // exact int/double
    #expect(try F.eval("'a' < 'b' && 'B' < 'a' && 'abc' > 'ab'") == .bool(true))  // bytes order
    #expect(try F.eval("'é' > 'z'") == .bool(true))  // UTF-8 bytes, not locale
    #expect(try F.eval("'Ada' ==[c] 'aDA'") == .bool(true))
    #expect(try F.eval("old.created > date('2024-01-01')") == .bool(true))
    #expect(try F.eval("old.active == true") == .bool(true))
    #expect(try F.eval("old.bestFriend == old.bestFriend") == .bool(true))
    #expect(try F.eval("old.tags == ['math', 'poetry']") == .bool(true))  // two lists: element by element
    #expect(try F.eval("old.tags == ['poetry', 'math']") == .bool(false))
    #expect(try F.eval("old.tags == 'poetry'") == .bool(true))  // any element
  }

  @Test func logicShortCircuits() throws {
    // The right side would divide by zero; it is not evaluated.
    #expect(try F.eval("false && 1 / 0 == 1") == .bool(false))
    #expect(try F.eval("true || 1 / 0 == 1") == .bool(true))
    #expect(try F.eval("true ? 1 : 1 / 0") == .int(1))
    #expect(try F.eval("old.age ?? 1 / 0") == .int(36))
  }

  @Test func nullPropagation() throws {
    let none: [String: RealmValue] = ["nickname": .null, "maybeAge": .null, "bestFriend": .null, "address": .null]
    // Arithmetic and string joining: null in, null out.
    #expect(try F.eval("old.maybeAge + 1", none) == .null)
    #expect(try F.eval("1 - old.maybeAge", none) == .null)
    #expect(try F.eval("-old.maybeAge", none) == .null)
    #expect(try F.eval("old.nickname + '!'", none) == .null)
    #expect(try F.eval("null + null") == .null)
    // Member access on a null link or embedded object.
    #expect(try F.eval("old.bestFriend.firstName", none) == .null)
    #expect(try F.eval("old.bestFriend.bestFriend.age", none) == .null)
    #expect(try F.eval("old.address.street", none) == .null)
    #expect(try F.eval("old.bestFriend.tags.@count", none) == .null)
    #expect(try F.eval("old.bestFriend.tags[0]", none) == .null)
    // Functions propagate null (except the ones below).
    #expect(try F.eval("lower(old.nickname)", none) == .null)
    #expect(try F.eval("length(old.nickname)", none) == .null)
    #expect(try F.eval("split(old.nickname, ',')", none) == .null)
    #expect(try F.eval("substring(old.nickname, 1)", none) == .null)
    #expect(try F.eval("replace('abc', old.nickname, 'x')", none) == .null)
    #expect(try F.eval("string(old.maybeAge)", none) == .null)
    #expect(try F.eval("int(old.nickname)", none) == .null)
    // A default also replaces null.
    #expect(try F.eval("int(old.nickname, -1)", none) == .int(-1))
    // Comparisons: null equals only null; ordering with null is false.
    #expect(try F.eval("old.nickname == null", none) == .bool(true))
    #expect(try F.eval("old.nickname != null", none) == .bool(false))
    #expect(try F.eval("old.nickname == 'x'", none) == .bool(false))
    #expect(try F.eval("old.nickname != 'x'", none) == .bool(true))
    #expect(try F.eval("old.maybeAge < 1", none) == .bool(false))
    #expect(try F.eval("old.maybeAge >= 1", none) == .bool(false))
    #expect(try F.eval("null == null") == .bool(true))
    #expect(try F.eval("old.bestFriend == nil", none) == .bool(true))
    // Logic: null counts as false.
    #expect(try F.eval("!(old.maybeAge == 1)", none) == .bool(true))
    #expect(try F.eval("old.bestFriend.active || false", none) == .bool(false))
    #expect(try F.eval("!old.bestFriend.active", none) == .bool(true))
    #expect(try F.eval("old.bestFriend.active ? 1 : 2", none) == .int(2))
    // String tests on null are false.
    #expect(try F.eval("contains(old.nickname, 'a')", none) == .bool(false))
    #expect(try F.eval("beginsWith(old.nickname, 'a')", none) == .bool(false))
    #expect(try F.eval("matches(old.nickname, 'a')", none) == .bool(false))
    #expect(try F.eval("old.nickname LIKE '*'", none) == .bool(false))
    // Coalescing.
    #expect(try F.eval("old.nickname ?? old.firstName", none) == str("Ada"))
    #expect(try F.eval("old.nickname ?? old.firstName", ["nickname": str("Addie")]) == str("Addie"))
    #expect(try F.eval("coalesce(old.nickname, old.bestFriend.firstName, 'none')", none) == str("none"))
    #expect(try F.eval("coalesce(old.nickname, old.bestFriend.firstName, 'none')") == str("Grace"))
    #expect(try F.eval("coalesce(null, null)") == .null)
  }

  @Test func links() throws {
    #expect(try F.eval("old.bestFriend.firstName + ' ' + old.bestFriend.lastName") == str("Grace Hopper"))
    #expect(try F.eval("old.dogs[0].name") == str("Rex"))
    #expect(try F.eval("old.dogs[1].age") == .int(5))
    #expect(try F.eval("old.dogs[0].owner.firstName") == str("Grace"))
    #expect(try F.eval("old.dogs[1].owner.firstName") == .null)
    #expect(try F.eval("old.dogs.name") == .list([str("Rex"), str("Fido")]))
    #expect(try F.eval("old.dogs.@count") == .int(2))
    // A link whose target does not exist reads as null.
    #expect(try F.eval("old.bestFriend.firstName", ["bestFriend": .link(ObjectLink(className: "Person", key: 1234))]) == .null)
    // The resolver's failure is reported with its error.
    let e = F.evalError("old.bestFriend.firstName", ["bestFriend": .link(ObjectLink(className: "Person", key: 99))])
    #expect(e?.message == "following the link to Person 99 failed: storage read failed")
    #expect(e?.underlying is ExpressionFixture.ResolverFailure)
    #expect(e?.column == 1)
  }

  @Test func linksWithoutResolverFail() throws {
    let compiled = try F.compiler().compileValue("old.bestFriend.firstName")
    var context = EvaluationContext(old: F.values())
    #expect(throws: EvaluationError.self) { try compiled.evaluate(&context) }
  }

  @Test func embeddedObjects() throws {
    #expect(try F.eval("old.address.street") == str("Main St"))
    #expect(try F.eval("old.address.city ?? 'unknown'") == str("unknown"))
  }

  @Test func indexes() throws {
    #expect(try F.eval("old.tags[0]") == str("math"))
    #expect(try F.eval("old.tags[1]") == str("poetry"))
    #expect(try F.eval("old.tags[2]") == .null)  // out of range: null
    #expect(try F.eval("old.tags[-1]") == .null)
    #expect(try F.eval("old.tags[old.maybeAge]") == .null)
    #expect(try F.eval("old.scores['b']") == .int(2))
    #expect(try F.eval("old.scores['z']") == .null)
    #expect(try F.eval("split('a-b-c', '-')[2]") == str("c"))
  }

  @Test func countAndSize() throws {
    #expect(try F.eval("old.tags.@count") == .int(2))
    #expect(try F.eval("old.tags.@size") == .int(2))
    #expect(try F.eval("old.scores.@count") == .int(2))
    #expect(try F.eval("old.labels.@count") == .int(1))
    #expect(try F.eval("old.firstName.@size") == .int(3))
    #expect(try F.eval("old.photo.@size", ["photo": .data([1, 2, 3, 4])]) == .int(4))
  }

  @Test func mixedValuesAreCheckedWhenEvaluated() throws {
    #expect(try F.eval("old.anything + 1") == .int(6))
    #expect(try F.eval("old.anything + 1", ["anything": .double(0.5)]) == .double(1.5))
    #expect(try F.eval("old.anything == 'x'", ["anything": str("x")]) == .bool(true))
    #expect(try F.eval("old.anything == 5") == .bool(true))
    #expect(try F.eval("old.anything == 'x'") == .bool(false))  // unrelated types are unequal
    #expect(F.evalError("old.anything + 1", ["anything": str("x")])?.message
      == "cannot apply '+' to string 'x' and int '1'")
    #expect(F.evalError("old.anything && true")?.message == "'&&' needs a bool, found int '5'")
    #expect(F.evalError("lower(old.anything)")?.message == "argument 1 of 'lower' must be a string, found int '5'")
    #expect(F.evalError("old.anything + 1", ["anything": .decimal128(Decimal128.zero)])?.message
      == "cannot apply '+' to decimal128 '0' and int '1'")
  }

  @Test func conditional() throws {
    #expect(try F.eval("old.age >= 18 ? 'adult' : 'minor'") == str("adult"))
    #expect(try F.eval("old.age >= 18 ? 'adult' : 'minor'", ["age": .int(3)]) == str("minor"))
    #expect(try F.eval("old.active ? 1 : 2.5") == .double(1))  // branches unified to double
  }

  @Test func compiledOnceEvaluatedManyTimes() throws {
    let compiled = try F.compiler().compileValue("old.firstName + ' ' + old.lastName")
    var context = EvaluationContext(environment: F.environment)
    for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing"), ("Grace", "Hopper")] {
      context.old = F.values(["firstName": str(first), "lastName": str(last)])
      #expect(try compiled.evaluate(&context) == str("\(first) \(last)"))
    }
  }

  @Test func tooFewValuesIsAnErrorNotATrap() throws {
    let compiled = try F.compiler().compileValue("old.age")
    var context = EvaluationContext(old: [.int(1)])
    #expect(throws: EvaluationError.self) { try compiled.evaluate(&context) }
  }

  @Test func aggregatesOfEmptyCollections() throws {
    let empty: [String: RealmValue] = ["ratings": .list([]), "counts": .list([.null])]
    #expect(try F.eval("old.ratings.@sum", empty) == .double(0))
    #expect(try F.eval("old.counts.@sum", empty) == .int(0))
    #expect(try F.eval("old.ratings.@avg", empty) == .null)
    #expect(try F.eval("old.ratings.@min", empty) == .null)
    #expect(try F.eval("old.counts.@max", empty) == .null)
    #expect(try F.type("old.ratings.@sum").description == "double")
    #expect(try F.type("old.counts.@sum").description == "int")
    #expect(try F.type("old.ratings.@max").description == "double?")
    #expect(try F.type("old.ratings.@avg").description == "double?")
    #expect(try F.type("old.scores.@keys").description == "string[]")
    #expect(F.evalError("old.counts.@sum", ["counts": .list([.int(.max), .int(1)])])?.message
      == "integer overflow in '9223372036854775807 + 1' (ints are 64-bit)")
  }
}
