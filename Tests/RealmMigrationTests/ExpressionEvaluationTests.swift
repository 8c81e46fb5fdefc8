import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmModel
import RealmQuery

/// Operators, paths and null propagation, evaluated on objects.
@Suite struct ExpressionEvaluationTests {
  typealias F = ExpressionFixture

  @Test func arithmetic() throws {
    try expectEqual(F.eval("old.age + 4"), .int(40))
    try expectEqual(F.eval("old.age - 40"), .int(-4))
    try expectEqual(F.eval("old.age * 2"), .int(72))
    try expectEqual(F.eval("old.age / 5"), .int(7))  // truncates
    try expectEqual(F.eval("-7 / 2"), .int(-3))  // toward zero
    try expectEqual(F.eval("old.age % 5"), .int(1))
    try expectEqual(F.eval("-7 % 3"), .int(-1))  // sign of the dividend
    try expectEqual(F.eval("old.age + 0.5"), .double(36.5))
    try expectEqual(F.eval("old.score * 2"), .double(3))
    try expectEqual(F.eval("7.5 % 2"), .double(1.5))
    try expectEqual(F.eval("1 / 2.0"), .double(0.5))
    try expectEqual(F.eval("1.0 / 0"), .double(.infinity))  // IEEE for floating point
    try expectEqual(F.eval("old.weight * 2", ["weight": .float(1.25)]), .float(2.5))
    try expectEqual(F.eval("old.weight + 1.0", ["weight": .float(1.25)]), .double(2.25))
    try expectEqual(F.eval("old.firstName + old.lastName"), str("AdaLovelace"))
  }

  @Test func stringChainsJoinInOneStep() throws {
    try expectEqual(F.eval("old.firstName + ' ' + old.lastName + ' (' + string(old.age) + ')'"), str("Ada Lovelace (36)"))
    try expectEqual(F.eval("('a' + ('b' + 'c')) + ('d' + 'e')"), str("abcde"))
    try expectEqual(F.eval("'a' + old.nickname + 'c'"), .null)  // one null part: null
    try expectEqual(F.eval("'a' + (old.nickname ?? 'b') + 'c'"), str("abc"))
    try expectEqual(F.eval("old.anything + 'x'", ["anything": str("w")]), str("wx"))  // mixed: generic path
    let long = String(repeating: "x", count: 100)
    try expectEqual(F.eval("'\(long)' + '\(long)'"), str(long + long))
  }

  @Test func integerOverflowIsAnErrorNotATrap() {
    let max = "9223372036854775807"
    expectEqual(F.evalError("\(max) + 1")?.message, "integer overflow in '9223372036854775807 + 1' (ints are 64-bit)")
    expectEqual(F.evalError("-\(max) - 2")?.message, "integer overflow in '-9223372036854775807 - 2' (ints are 64-bit)")
    expectEqual(F.evalError("\(max) * 2")?.message, "integer overflow in '9223372036854775807 * 2' (ints are 64-bit)")
    #expect(F.evalError("old.age / (0 - 1) + -9223372036854775808 / -1")?.message
      == "integer overflow in '-9223372036854775808 / -1' (ints are 64-bit)")
    expectEqual(F.evalError("-9223372036854775808 % -1")?.message, "integer overflow in '-9223372036854775808 % -1' (ints are 64-bit)")
    expectEqual(F.evalError("-old.age", ["age": .int(.min)])?.message, "integer overflow in '-(-9223372036854775808)' (ints are 64-bit)")
  }

  @Test func divisionByZero() {
    let e = F.evalError("1 + old.age / 0")
    expectEqual(e?.message, "division by zero in '36 / 0'")
    expectEqual(e?.column, 5)
    expectEqual(F.evalError("old.age % (old.age - 36)")?.message, "division by zero in '36 % 0'")
  }

  /// `[c]` and `LIKE` are Realm's, as in a `where` filter (`PredicateTests` holds RQL to the
  /// same answers): ASCII and Latin-1 letters fold, others compare as they are.
  @Test func stringOperatorsMatchAsRealmAndAsWhereFilters() throws {
    try expectEqual(F.eval("'åse' ==[c] 'ÅSE'"), .bool(true))
    try expectEqual(F.eval("'bjørn' CONTAINS[c] 'Ø'"), .bool(true))
    try expectEqual(F.eval("'σοφια' ==[c] 'ΣΟΦΙΑ'"), .bool(false))
    try expectEqual(F.eval("'σοφια' BEGINSWITH[c] 'Σ'"), .bool(false))
    try expectEqual(F.eval("'straße' ==[c] 'STRASSE'"), .bool(false))
    try expectEqual(F.eval("'Ärger' ENDSWITH[c] 'GER'"), .bool(true))
    try expectEqual(F.eval("'é' LIKE '?'"), .bool(true))
    try expectEqual(F.eval("'a' LIKE 'a**'"), .bool(false))
    try expectEqual(F.eval("'ab' LIKE 'a**'"), .bool(true))
    try expectEqual(F.eval("'ÅBC' LIKE[c] 'å*'"), .bool(true))
  }

  @Test func comparisons() throws {
    try expectEqual(F.eval("old.age == 36"), .bool(true))
    try expectEqual(F.eval("old.age = 36"), .bool(true))
    try expectEqual(F.eval("old.age != 36"), .bool(false))
    try expectEqual(F.eval("old.age < 37 && old.age <= 36 && old.age > 35 && old.age >= 36"), .bool(true))
    try expectEqual(F.eval("old.age == 36.0"), .bool(true))  // int and double by value
    try expectEqual(F.eval("old.score > 1"), .bool(true))
    try expectEqual(F.eval("old.balance == 1.5"), .bool(true))  // decimal128 by value
    try expectEqual(F.eval("old.balance < 2"), .bool(true))
    try expectEqual(F.eval("9007199254740993 > 9007199254740992.0"), .bool(true))  // exact int/double
    try expectEqual(F.eval("'a' < 'b' && 'B' < 'a' && 'abc' > 'ab'"), .bool(true))  // bytes order
    try expectEqual(F.eval("'é' > 'z'"), .bool(true))  // UTF-8 bytes, not locale
    try expectEqual(F.eval("'Ada' ==[c] 'aDA'"), .bool(true))
    try expectEqual(F.eval("old.created > date('2024-01-01')"), .bool(true))
    try expectEqual(F.eval("old.active == true"), .bool(true))
    try expectEqual(F.eval("old.bestFriend == old.bestFriend"), .bool(true))
    try expectEqual(F.eval("old.tags == ['math', 'poetry']"), .bool(true))  // two lists: element by element
    try expectEqual(F.eval("old.tags == ['poetry', 'math']"), .bool(false))
    try expectEqual(F.eval("old.tags == 'poetry'"), .bool(true))  // any element
  }

  @Test func logicShortCircuits() throws {
    // The right side would divide by zero; it is not evaluated.
    try expectEqual(F.eval("false && 1 / 0 == 1"), .bool(false))
    try expectEqual(F.eval("true || 1 / 0 == 1"), .bool(true))
    try expectEqual(F.eval("true ? 1 : 1 / 0"), .int(1))
    try expectEqual(F.eval("old.age ?? 1 / 0"), .int(36))
  }

  @Test func nullPropagation() throws {
    let none: [String: RealmValue] = ["nickname": .null, "maybeAge": .null, "bestFriend": .null, "address": .null]
    // Arithmetic and string joining: null in, null out.
    try expectEqual(F.eval("old.maybeAge + 1", none), .null)
    try expectEqual(F.eval("1 - old.maybeAge", none), .null)
    try expectEqual(F.eval("-old.maybeAge", none), .null)
    try expectEqual(F.eval("old.nickname + '!'", none), .null)
    try expectEqual(F.eval("null + null"), .null)
    // Member access on a null link or embedded object.
    try expectEqual(F.eval("old.bestFriend.firstName", none), .null)
    try expectEqual(F.eval("old.bestFriend.bestFriend.age", none), .null)
    try expectEqual(F.eval("old.address.street", none), .null)
    try expectEqual(F.eval("old.bestFriend.tags.@count", none), .null)
    try expectEqual(F.eval("old.bestFriend.tags[0]", none), .null)
    // Functions propagate null (except the ones below).
    try expectEqual(F.eval("lower(old.nickname)", none), .null)
    try expectEqual(F.eval("length(old.nickname)", none), .null)
    try expectEqual(F.eval("split(old.nickname, ',')", none), .null)
    try expectEqual(F.eval("substring(old.nickname, 1)", none), .null)
    try expectEqual(F.eval("replace('abc', old.nickname, 'x')", none), .null)
    try expectEqual(F.eval("string(old.maybeAge)", none), .null)
    try expectEqual(F.eval("int(old.nickname)", none), .null)
    // A default also replaces null.
    try expectEqual(F.eval("int(old.nickname, -1)", none), .int(-1))
    // Comparisons: null equals only null; ordering with null is false.
    try expectEqual(F.eval("old.nickname == null", none), .bool(true))
    try expectEqual(F.eval("old.nickname != null", none), .bool(false))
    try expectEqual(F.eval("old.nickname == 'x'", none), .bool(false))
    try expectEqual(F.eval("old.nickname != 'x'", none), .bool(true))
    try expectEqual(F.eval("old.maybeAge < 1", none), .bool(false))
    try expectEqual(F.eval("old.maybeAge >= 1", none), .bool(false))
    try expectEqual(F.eval("null == null"), .bool(true))
    try expectEqual(F.eval("old.bestFriend == nil", none), .bool(true))
    // Logic: null counts as false.
    try expectEqual(F.eval("!(old.maybeAge == 1)", none), .bool(true))
    try expectEqual(F.eval("old.bestFriend.active || false", none), .bool(false))
    try expectEqual(F.eval("!old.bestFriend.active", none), .bool(true))
    try expectEqual(F.eval("old.bestFriend.active ? 1 : 2", none), .int(2))
    // String tests on null are false.
    try expectEqual(F.eval("contains(old.nickname, 'a')", none), .bool(false))
    try expectEqual(F.eval("beginsWith(old.nickname, 'a')", none), .bool(false))
    try expectEqual(F.eval("matches(old.nickname, 'a')", none), .bool(false))
    try expectEqual(F.eval("old.nickname LIKE '*'", none), .bool(false))
    // Coalescing.
    try expectEqual(F.eval("old.nickname ?? old.firstName", none), str("Ada"))
    try expectEqual(F.eval("old.nickname ?? old.firstName", ["nickname": str("Addie")]), str("Addie"))
    try expectEqual(F.eval("coalesce(old.nickname, old.bestFriend.firstName, 'none')", none), str("none"))
    try expectEqual(F.eval("coalesce(old.nickname, old.bestFriend.firstName, 'none')"), str("Grace"))
    try expectEqual(F.eval("coalesce(null, null)"), .null)
  }

  @Test func links() throws {
    try expectEqual(F.eval("old.bestFriend.firstName + ' ' + old.bestFriend.lastName"), str("Grace Hopper"))
    try expectEqual(F.eval("old.dogs[0].name"), str("Rex"))
    try expectEqual(F.eval("old.dogs[1].age"), .int(5))
    try expectEqual(F.eval("old.dogs[0].owner.firstName"), str("Grace"))
    try expectEqual(F.eval("old.dogs[1].owner.firstName"), .null)
    try expectEqual(F.eval("old.dogs.name"), .list([str("Rex"), str("Fido")]))
    try expectEqual(F.eval("old.dogs.@count"), .int(2))
    // A link whose target does not exist reads as null.
    try expectEqual(F.eval("old.bestFriend.firstName", ["bestFriend": .link(ObjectLink(className: "Person", key: 1234))]), .null)
    // The resolver's failure is reported with its error.
    let e = F.evalError("old.bestFriend.firstName", ["bestFriend": .link(ObjectLink(className: "Person", key: 99))])
    expectEqual(e?.message, "following the link to Person 99 failed: storage read failed")
    #expect(e?.underlying is ExpressionFixture.ResolverFailure)
    expectEqual(e?.column, 1)
  }

  @Test func linksWithoutResolverFail() throws {
    let compiled = try F.compiler().compileValue("old.bestFriend.firstName")
    var context = EvaluationContext(old: F.values())
    #expect(throws: EvaluationError.self) { try compiled.evaluate(&context) }
  }

  @Test func embeddedObjects() throws {
    try expectEqual(F.eval("old.address.street"), str("Main St"))
    try expectEqual(F.eval("old.address.city ?? 'unknown'"), str("unknown"))
  }

  @Test func indexes() throws {
    try expectEqual(F.eval("old.tags[0]"), str("math"))
    try expectEqual(F.eval("old.tags[1]"), str("poetry"))
    try expectEqual(F.eval("old.tags[2]"), .null)  // out of range: null
    try expectEqual(F.eval("old.tags[-1]"), .null)
    try expectEqual(F.eval("old.tags[old.maybeAge]"), .null)
    try expectEqual(F.eval("old.scores['b']"), .int(2))
    try expectEqual(F.eval("old.scores['z']"), .null)
    try expectEqual(F.eval("split('a-b-c', '-')[2]"), str("c"))
  }

  @Test func countAndSize() throws {
    try expectEqual(F.eval("old.tags.@count"), .int(2))
    try expectEqual(F.eval("old.tags.@size"), .int(2))
    try expectEqual(F.eval("old.scores.@count"), .int(2))
    try expectEqual(F.eval("old.labels.@count"), .int(1))
    try expectEqual(F.eval("old.firstName.@size"), .int(3))
    try expectEqual(F.eval("old.photo.@size", ["photo": .data([1, 2, 3, 4])]), .int(4))
  }

  @Test func mixedValuesAreCheckedWhenEvaluated() throws {
    try expectEqual(F.eval("old.anything + 1"), .int(6))
    try expectEqual(F.eval("old.anything + 1", ["anything": .double(0.5)]), .double(1.5))
    try expectEqual(F.eval("old.anything == 'x'", ["anything": str("x")]), .bool(true))
    try expectEqual(F.eval("old.anything == 5"), .bool(true))
    try expectEqual(F.eval("old.anything == 'x'"), .bool(false))  // unrelated types are unequal
    #expect(F.evalError("old.anything + 1", ["anything": str("x")])?.message
      == "cannot apply '+' to string 'x' and int '1'")
    expectEqual(F.evalError("old.anything && true")?.message, "'&&' needs a bool, found int '5'")
    expectEqual(F.evalError("lower(old.anything)")?.message, "argument 1 of 'lower' must be a string, found int '5'")
    #expect(F.evalError("old.anything + 1", ["anything": .decimal128(Decimal128.zero)])?.message
      == "cannot apply '+' to decimal128 '0' and int '1'")
  }

  @Test func conditional() throws {
    try expectEqual(F.eval("old.age >= 18 ? 'adult' : 'minor'"), str("adult"))
    try expectEqual(F.eval("old.age >= 18 ? 'adult' : 'minor'", ["age": .int(3)]), str("minor"))
    try expectEqual(F.eval("old.active ? 1 : 2.5"), .double(1))  // branches unified to double
  }

  @Test func compiledOnceEvaluatedManyTimes() throws {
    let compiled = try F.compiler().compileValue("old.firstName + ' ' + old.lastName")
    var context = EvaluationContext(environment: F.environment)
    for (first, last) in [("Ada", "Lovelace"), ("Alan", "Turing"), ("Grace", "Hopper")] {
      context.old = F.values(["firstName": str(first), "lastName": str(last)])
      try expectEqual(compiled.evaluate(&context), str("\(first) \(last)"))
    }
  }

  @Test func tooFewValuesIsAnErrorNotATrap() throws {
    let compiled = try F.compiler().compileValue("old.age")
    var context = EvaluationContext(old: [.int(1)])
    #expect(throws: EvaluationError.self) { try compiled.evaluate(&context) }
  }

  @Test func aggregatesOfEmptyCollections() throws {
    let empty: [String: RealmValue] = ["ratings": .list([]), "counts": .list([.null])]
    try expectEqual(F.eval("old.ratings.@sum", empty), .double(0))
    try expectEqual(F.eval("old.counts.@sum", empty), .int(0))
    try expectEqual(F.eval("old.ratings.@avg", empty), .null)
    try expectEqual(F.eval("old.ratings.@min", empty), .null)
    try expectEqual(F.eval("old.counts.@max", empty), .null)
    try expectEqual(F.type("old.ratings.@sum").description, "double")
    try expectEqual(F.type("old.counts.@sum").description, "int")
    try expectEqual(F.type("old.ratings.@max").description, "double?")
    try expectEqual(F.type("old.ratings.@avg").description, "double?")
    try expectEqual(F.type("old.scores.@keys").description, "string[]")
    #expect(F.evalError("old.counts.@sum", ["counts": .list([.int(.max), .int(1)])])?.message
      == "integer overflow in '9223372036854775807 + 1' (ints are 64-bit)")
  }
}
