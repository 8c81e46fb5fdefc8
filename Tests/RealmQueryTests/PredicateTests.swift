import RealmTestSupport
import Testing
@testable import RealmQuery
import RealmFormat
import RealmModel

/// `where` queries (Realm Query Language) on one object of `PersonFixture`, links
/// followed in memory: the semantics the fixture file does not pin down, with Realm's
/// answers as its query engine gives them.
@Suite struct PredicateTests {
  typealias F = PersonFixture

  @Test(arguments: [
    ("age > 18", true),
    ("age >= 36 AND age <= 36", true),
    ("age == 36", true),
    ("age = 36", true),
    ("age != 36", false),
    ("age < 18 OR firstName == 'Ada'", true),
    ("NOT age < 18", true),
    ("!(age < 18)", true),
    ("(age > 40 OR age < 40) AND active == true", true),
    ("score > 1.4 && score < 1.6", true),
    ("balance > 1", true),
    ("age > 35.5", true),
    ("age == '36'", true),  // a string literal is read as the property's type when it can be
    ("TRUEPREDICATE", true),
    ("FALSEPREDICATE", false),
    ("truepredicate", true),
    ("TRUEPREDICATE AND FALSEPREDICATE", false),
    ("created > 2024-01-01@00:00:00", true),
    ("created < 2024-01-01T00:00:00", false),
    ("created == T1704164645:0", true),
    ("age + 4 == 40", true),
    ("age * 2 > 71.5", true),
  ])
  func comparisonsAndLogic(filter: String, expected: Bool) throws {
    try expectEqual(F.filter(filter), expected, "\(filter)")
  }

  @Test(arguments: [
    ("firstName BEGINSWITH 'A'", true),
    ("firstName BEGINSWITH 'a'", false),
    ("firstName BEGINSWITH[c] 'a'", true),
    ("firstName beginswith[c] 'AD'", true),
    ("lastName ENDSWITH 'lace'", true),
    ("lastName ENDSWITH[c] 'LACE'", true),
    ("lastName CONTAINS 'vel'", true),
    ("lastName CONTAINS 'VEL'", false),
    ("lastName CONTAINS[c] 'VEL'", true),
    ("lastName LIKE 'Love*'", true),
    ("lastName LIKE '*lace'", true),
    ("lastName LIKE 'L?velace'", true),
    ("lastName LIKE 'L?lace'", false),
    ("lastName LIKE '*v*l*'", true),
    ("lastName LIKE 'love*'", false),
    ("lastName LIKE[c] 'LOVE*'", true),
    ("lastName LIKE '*'", true),
    ("lastName LIKE 'Lovelace'", true),
    ("lastName LIKE 'Lovelac'", false),
    ("firstName ==[c] 'ADA'", true),
    ("firstName !=[c] 'ADA'", false),
    ("firstName == 'ADA'", false),
  ])
  func stringOperators(filter: String, expected: Bool) throws {
    try expectEqual(F.filter(filter), expected, "\(filter)")
  }

  /// `?` is one character (a UTF-8 sequence), `*` any run; when the text is used up, only a
  /// single `*` may be left of the pattern (Realm's rule: `'' LIKE '**'` is false).
  @Test func likeFollowsRealmsMatcher() throws {
    #expect(try F.filter("firstName LIKE '?'", ["firstName": str("é")]))
    try expectEqual(F.filter("firstName LIKE '??'", ["firstName": str("é")]), false)
    #expect(try F.filter("firstName LIKE 'a*b*c'", ["firstName": str("aXbYbc")]))
    try expectEqual(F.filter("firstName LIKE 'a*b*c'", ["firstName": str("aXbYbd")]), false)
    #expect(try F.filter("firstName LIKE ''", ["firstName": str("")]))
    #expect(try F.filter("firstName LIKE '*'", ["firstName": str("")]))
    try expectEqual(F.filter("firstName LIKE '**'", ["firstName": str("")]), false)
    try expectEqual(F.filter("firstName LIKE 'a**'", ["firstName": str("a")]), false)
    #expect(try F.filter("firstName LIKE 'a**'", ["firstName": str("ab")]))
    try expectEqual(F.filter("firstName LIKE '*a*a*a*a*a*a*a*a*a*a*b'", ["firstName": str(String(repeating: "a", count: 5_000))]), false)
  }

  /// Realm's `[c]` maps ASCII and Latin-1 letters only.
  @Test func caseInsensitivityCoversLatin1Only() throws {
    #expect(try F.filter("firstName ==[c] 'ÅSE'", ["firstName": str("åse")]))
    #expect(try F.filter("firstName CONTAINS[c] 'Ø'", ["firstName": str("bjørn")]))
    try expectEqual(F.filter("firstName ==[c] 'ΣΟΦΙΑ'", ["firstName": str("σοφια")]), false)
    try expectEqual(F.filter("firstName ==[c] 'STRASSE'", ["firstName": str("straße")]), false)
  }

  @Test(arguments: [
    ("nickname == nil", true),
    ("nickname == NULL", true),
    ("nickname = null", true),
    ("nickname != nil", false),
    ("bestFriend != nil", true),
    ("bestFriend == nil", false),
    ("maybeAge == nil", true),
    ("address.city == nil", true),
    ("bestFriend.bestFriend == nil", true),
  ])
  func nilComparisons(filter: String, expected: Bool) throws {
    try expectEqual(F.filter(filter), expected, "\(filter)")
  }

  @Test(arguments: [
    ("firstName IN {'Ada', 'Grace'}", true),
    ("firstName IN {'Alan', 'Grace'}", false),
    ("firstName IN[c] {'ada'}", false),  // Realm's IN with a list ignores [c]
    ("age IN {1, 36, 99}", true),
    ("age IN {35.0, 36.0}", true),
    ("age IN {1, 'a'}", false),
    ("age IN {}", false),
    ("'math' IN tags", true),
    ("'art' IN tags", false),
    ("tags IN {'poetry', 'art'}", false),  // a list IN a list compares them element by element
    ("tags IN {'math', 'poetry'}", true),
    ("tags == {'math', 'poetry'}", true),
    ("tags == {'poetry', 'math'}", false),
    ("ANY tags IN {'poetry', 'art'}", true),
    ("firstName == {'Ada', 'Alan'}", true),
    ("age BEGINSWITH 'a'", false),  // accepted by Realm, true for no int
  ])
  func inLists(filter: String, expected: Bool) throws {
    try expectEqual(F.filter(filter), expected, "\(filter)")
  }

  @Test(arguments: [
    ("tags.@count == 2", true),
    ("tags.@count > 2", false),
    ("tags.@size == 2", true),
    ("tags[SIZE] == 2", true),
    ("scores.@count == 2", true),
    ("labels.@count == 1", true),
    ("dogs.@count >= 2", true),
    ("firstName.@size == 3", true),
    ("firstName.@count == 3", true),
  ])
  func counts(filter: String, expected: Bool) throws {
    try expectEqual(F.filter(filter), expected, "\(filter)")
  }

  /// `@size` of a string counts its UTF-8 bytes, as Realm does.
  @Test func stringSizeIsInBytes() throws {
    #expect(try F.filter("firstName.@size == 4", ["firstName": str("Åsa")]))
    #expect(try F.filter("firstName.@size == 4", ["firstName": str("👍")]))
  }

  @Test(arguments: [
    ("bestFriend.firstName == 'Grace'", true),
    ("bestFriend.firstName BEGINSWITH[c] 'g'", true),
    ("bestFriend.bestFriend.firstName == 'x'", false),
    ("address.street == 'Main St'", true),
    ("dogs.name == 'Fido'", true),  // any dog
    ("dogs.name == 'Spot'", false),
    ("dogs.age > 4", true),
    ("dogs.age > 5", false),
    ("dogs.owner.firstName == 'Grace'", true),
    ("tags == 'math'", true),  // any element of a list of values
    ("tags BEGINSWITH 'po'", true),
    ("'poetry' == tags", true),
    ("dogs[0].name == 'Rex'", true),
    ("dogs[LAST].name == 'Fido'", true),
    ("dogs[FIRST].age > 4", false),
    ("tags[1] == 'poetry'", true),
    ("tags[LAST] == 'poetry'", true),
    ("tags[5] == 'poetry'", false),
    ("scores['a'] == 1", true),
    ("scores.b == 2", true),
    ("scores.@keys == 'b'", true),
    ("scores.@values == 2", true),
  ])
  func linkPathsAndCollections(filter: String, expected: Bool) throws {
    try expectEqual(F.filter(filter), expected, "\(filter)")
  }

  @Test(arguments: [
    ("ANY dogs.age > 4", true),
    ("SOME dogs.age > 4", true),
    ("ANY dogs.age > 5", false),
    ("ALL dogs.age > 2", true),
    ("ALL dogs.age > 3", false),
    ("NONE dogs.age > 5", true),
    ("NONE dogs.age > 4", false),
    ("ALL tags BEGINSWITH[c] 'M'", false),
    ("ANY tags BEGINSWITH[c] 'M'", true),
    ("ALL tags IN {'math', 'poetry', 'art'}", true),
    ("NONE tags IN {'art'}", true),
    ("ALL bestFriend.tags == 'x'", false),
    ("NOT ANY dogs.name == 'Rex'", false),
    ("ALL ratings BETWEEN {1, 5}", true),
    ("ALL ratings BETWEEN {2, 5}", false),
    ("age BETWEEN {30, 40}", true),
    ("score BETWEEN {1.5, 1.5}", true),
  ])
  func quantifiers(filter: String, expected: Bool) throws {
    try expectEqual(F.filter(filter), expected, "\(filter)")
  }

  @Test(arguments: [
    ("ratings.@sum == 9", true),
    ("ratings.@avg == 3", true),
    ("ratings.@min == 1.5", true),
    ("ratings.@max == 5", true),
    ("counts.@sum == 2", true),  // nulls skipped
    ("counts.@min == -2", true),
    ("counts.@max == 4", true),
    ("counts.@avg == 1", true),
    ("scores.@sum == 3", true),
    ("scores.@max == 2", true),
    ("dogs.@sum.age == 8", true),
    ("dogs.@max.age == 5", true),
    ("dogs.@avg.age == 4", true),
    ("SUBQUERY(dogs, $d, $d.age > 4).@count == 1", true),
    ("SUBQUERY(dogs, $d, $d.age > 4 AND name == 'Fido').@count == 1", true),
    ("SUBQUERY(dogs, $d, $d.owner == nil).@count == 1", true),
  ])
  func aggregates(filter: String, expected: Bool) throws {
    try expectEqual(F.filter(filter), expected, "\(filter)")
  }

  /// An int sum wraps around as Realm's does; NaN is skipped by @min, @max and @avg.
  @Test func aggregatesFollowRealm() throws {
    let big: [String: RealmValue] = ["counts": .list([.int(.max), .int(2)])]
    #expect(try F.filter("counts.@sum == -9223372036854775807", big))
    let nan: [String: RealmValue] = ["ratings": .list([.double(.nan), .double(2), .double(4)])]
    #expect(try F.filter("ratings.@min == 2", nan))
    #expect(try F.filter("ratings.@avg == 3", nan))
    #expect(try F.filter("ratings.@max == 4", nan))
    #expect(try F.filter("ANY ratings < 0", nan))  // NaN orders below every number
    #expect(try F.filter("ratings.@sum == 0", ["ratings": .list([])]))
    #expect(try F.filter("ratings.@avg == null", ["ratings": .list([])]))
  }

  /// Decimal128 compares exactly with decimal literals (not through doubles).
  @Test func decimalsCompareExactly() throws {
    let d = Decimal128(text: "0.1000000000000000000000000000000001")!
    #expect(try F.filter("balance > 0.1", ["balance": .decimal128(d)]))
    try expectEqual(F.filter("balance == 0.1", ["balance": .decimal128(d)]), false)
    #expect(try F.filter("balance == 0.10", ["balance": .decimal128(Decimal128(text: "0.1")!)]))
  }

  /// Floats compare with float literals at float precision (the literal rounded to float).
  @Test func floatLiteralsAreRoundedToFloat() throws {
    #expect(try F.filter("weight == 1.1", ["weight": .float(1.1)]))
    try expectEqual(F.filter("weight > 1.1", ["weight": .float(1.1)]), false)
  }

  /// Escapes in string literals are kept as written, as Realm keeps them.
  @Test func stringEscapesAreKeptAsWritten() throws {
    #expect(try F.filter(#"firstName == 'a\nb'"#, ["firstName": str(#"a\nb"#)]))
    try expectEqual(F.filter(#"firstName == 'a\nb'"#, ["firstName": str("a\nb")]), false)
    #expect(try F.filter(#"firstName == 'it\'s'"#, ["firstName": str(#"it\'s"#)]))
  }

  @Test func literalForms() throws {
    #expect(try F.filter("age == 0x24"))
    #expect(try F.filter("age == 044"))  // a leading 0 is octal, as in C
    #expect(try F.filter("token == uuid(12345678-9abc-4def-8123-456789abcdef)"))
    #expect(try F.filter("_id == oid(0102030405060708090a0b0c)"))
    #expect(try F.filter("photo == bin('ab')", ["photo": .data([0x61, 0x62])]))
    #expect(try F.filter(#"photo == bin(B64"YWI=")"#, ["photo": .data([0x61, 0x62])]))
    #expect(try F.filter(#"firstName == B64"QWRh""#))
    #expect(try F.filter("score < inf"))
    #expect(try F.filter("score > -inf"))
    #expect(try F.filter("created > T1704164644:999999999"))
    #expect(try F.filter("anything == 5.0"))
  }

  @Test func typeOfMixedValues() throws {
    #expect(try F.filter("anything.@type == 'int'"))
    #expect(try F.filter("anything.@type == 'numeric'"))
    try expectEqual(F.filter("anything.@type IN {'string', 'double'}"), false)
    #expect(try F.filter("anything.@type == 'string'", ["anything": str("x")]))
    #expect(try F.filter("anything.@type == 'null'", ["anything": .null]))
  }

  @Test func allOfAnEmptyCollectionIsTrue() throws {
    #expect(try F.filter("ALL tags == 'x'", ["tags": .list([])]))
    try expectEqual(F.filter("ANY tags == 'x'", ["tags": .list([])]), false)
    #expect(try F.filter("NONE tags == 'x'", ["tags": .list([])]))
  }

  @Test func backlinksOfAnObject() throws {
    // Person 7 is the owner of Dog 1; nothing links to Person 3.
    #expect(try F.filter("@links.Dog.owner.@count == 1", key: 7))
    #expect(try F.filter("ANY @links.Dog.owner.name == 'Rex'", key: 7))
    #expect(try F.filter("@links.@count == 1", key: 7))
    #expect(try F.filter("@links.@count == 0", key: 3))
  }

  @Test func dogFilters() throws {
    let query = try RealmQuery("owner.firstName == 'Grace' AND age < 4", className: "Dog", schema: F.schema)
    let rex = F.values(["name": .string("Rex"), "age": .int(3), "owner": .link(ObjectLink(className: "Person", key: 7))], of: F.dog)
    let fido = F.values(["name": .string("Fido"), "age": .int(5)], of: F.dog)
    #expect(try query.matches(values: rex, key: 1, source: F.objects))
    try expectEqual(query.matches(values: fido, key: 2, source: F.objects), false)
    // Without the objects, following a link is an error, not a silent "no".
    #expect(throws: QueryEvaluationError.self) { try query.matches(values: rex, key: 1, source: nil) }
  }

  @Test func errorsHaveColumnsAndSuggestions() {
    expectQueryError("age > 18 AND ⟪fistName == 'x'", "'Person' has no property 'fistName' (did you mean 'firstName'?)")
    expectQueryError("bestFriend.⟪nam == 'x'", "'Person' has no property 'nam'")
    expectQueryError("dogs.⟪nme == 'x'", "'Dog' has no property 'nme' (did you mean 'name'?)")
    expectQueryError("age ⟪== 'x'", "Unsupported comparison between type 'int' and type 'string' (age and 'x')")
    expectQueryError("age BEGINSWITH⟪", "the query ends where a value was expected")
    expectQueryError("⟪age", "'age' is a value, not a condition; compare it with something, as in 'age > 18'")
    expectQueryError("age > 1 AND ⟪AND", "unexpected 'AND'; expected a value")
    expectQueryError("age ⟪BEGINSWITH 1", "Unsupported comparison operator 'beginswith' against type 'int', right side must be a string or binary type")
    expectQueryError("age > ⟪$0", "Request for argument at index 0 but no arguments are provided (write the value itself instead of $0)")
    expectQueryError("ALL ⟪age > 1", "The keypath following 'ALL' must contain a list ('age' has one value per object)")
    expectQueryError("ALL dogs.age ⟪== 'x'", "Unsupported comparison between type 'int' and type 'string' (dogs.age and 'x')")
    expectQueryError("firstName ==⟪[d] 'a'", "modifier '[d]' is not supported: Realm accepts only '[c]' (case-insensitive)")
    expectQueryError("⟪tags.@sum > 1", "Cannot use aggregate '.@sum' for this type of property ('tags'); aggregates apply to lists, sets and dictionaries of numbers")
    expectQueryError("age > 1 SORT(age⟪)", "unexpected ')'; expected ASC or DESC after 'age'")
    expectQueryError("SUBQUERY(⟪tags, $t, $t == 'a').@count > 0", "A subquery can not operate on a list of primitive values (property 'tags')")
    expectQueryError("age == 1 SORT(⟪agee ASC)", "No property 'agee' found on object type 'Person' specified in 'sort' clause (did you mean 'age'?)")
    expectQueryError("'a' ⟪IN scores.@keys", "The keypath following 'IN' must contain a list. Found 'scores.@keys'")
  }

  @Test func evaluatorIsReusable() throws {
    let query = try RealmQuery("age >= 18", className: "Person", schema: F.schema)
    var evaluator = query.evaluator(source: nil)
    var matched = 0
    for age in 0..<40 where try evaluator.matches(values: F.values(["age": .int(Int64(age))]), key: Int64(age)) {
      matched += 1
    }
    expectEqual(matched, 22)
  }
}

/// Which leaf a property of each query type is read from by the column conditions.
@Suite struct QueryTypeLeafKindTests {
  @Test func storedScalarTypesReadTheLeafOfTheirName() {
    let expected: [(QueryType, ValueKind?)] = [
      (.int, .int), (.bool, .bool), (.string, .string), (.binary, .binary), (.timestamp, .timestamp),
      (.float, .float), (.double, .double), (.decimal, .decimal), (.objectId, .objectId), (.uuid, .uuid),
      (.mixed, .mixed), (.link, nil), (.typedLink, nil), (.typeOfValue, nil), (.list, nil), (.dictionary, nil),
      (.null, nil),
    ]
    for (type, kind) in expected {
      expectEqual(ValueKind(type), kind, "\(type)")
      expectEqual(type.isStoredScalar, (kind != nil), "\(type)")
    }
  }
}
