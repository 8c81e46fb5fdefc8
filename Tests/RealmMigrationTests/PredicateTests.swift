import Testing
@testable import RealmMigration

/// `where` filters in Realm Query Language form.
@Suite struct PredicateTests {
  typealias F = ExpressionFixture

  @Test(arguments: [
    ("age > 18", true),
    ("age >= 36 AND age <= 36", true),
    ("age == 36", true),
    ("age = 36", true),
    ("age != 36", false),
    ("age < 18 OR firstName == 'Ada'", true),
    ("NOT age < 18", true),
    ("!(age < 18)", true),
    ("age > 18 && active", true),
    ("age > 18 and not active", false),
    ("(age > 40 OR age < 40) AND active == true", true),
    ("score > 1.4 && score < 1.6", true),
    ("balance > 1", true),
    ("age > 35.5", true),
    ("TRUEPREDICATE", true),
    ("FALSEPREDICATE", false),
    ("truepredicate", true),
    ("TRUEPREDICATE AND FALSEPREDICATE", false),
    ("old.age > 18", true),  // the value language's form
    ("old.firstName == 'Ada' && lastName == 'Lovelace'", true),
    ("created > date('2024-01-01T00:00:00Z')", true),
    ("created < date('2024-01-01')", false),
  ])
  func comparisonsAndLogic(filter: String, expected: Bool) throws {
    #expect(try F.filter(filter) == expected, "\(filter)")
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
    #expect(try F.filter(filter) == expected, "\(filter)")
  }

  @Test func likeMatchesWholeStringsWithScalarWildcards() throws {
    #expect(try F.filter("firstName LIKE '?'", ["firstName": str("é")]))
    #expect(try F.filter("firstName LIKE 'a*b*c'", ["firstName": str("aXbYbc")]))
    #expect(try F.filter("firstName LIKE 'a*b*c'", ["firstName": str("aXbYbd")]) == false)
    #expect(try F.filter("firstName LIKE ''", ["firstName": str("")]))
    #expect(try F.filter("firstName LIKE '**'", ["firstName": str("")]))
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
  ])
  func nilComparisons(filter: String, expected: Bool) throws {
    #expect(try F.filter(filter) == expected, "\(filter)")
  }

  @Test(arguments: [
    ("firstName IN {'Ada', 'Grace'}", true),
    ("firstName IN {'Alan', 'Grace'}", false),
    ("firstName IN[c] {'ada'}", true),
    ("age IN {1, 36, 99}", true),
    ("age IN {35.0, 36.0}", true),
    ("age IN {}", false),
    ("'math' IN tags", true),
    ("'art' IN tags", false),
    ("tags IN {'poetry', 'art'}", true),
    ("firstName IN ['Ada']", true),
  ])
  func inSets(filter: String, expected: Bool) throws {
    #expect(try F.filter(filter) == expected, "\(filter)")
  }

  @Test(arguments: [
    ("tags.@count == 2", true),
    ("tags.@count > 2", false),
    ("tags.@size == 2", true),
    ("scores.@count == 2", true),
    ("labels.@count == 1", true),
    ("dogs.@count >= 2", true),
    ("firstName.@size == 3", true),
    ("firstName.@count == 3", true),
  ])
  func counts(filter: String, expected: Bool) throws {
    #expect(try F.filter(filter) == expected, "\(filter)")
  }

  @Test(arguments: [
    ("bestFriend.firstName == 'Grace'", true),
    ("bestFriend.firstName BEGINSWITH[c] 'g'", true),
    ("bestFriend.bestFriend.firstName == 'x'", false),  // null link on the way
    ("bestFriend.bestFriend == nil", true),
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
  ])
  func linkPathsAndCollections(filter: String, expected: Bool) throws {
    #expect(try F.filter(filter) == expected, "\(filter)")
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
  ])
  func quantifiers(filter: String, expected: Bool) throws {
    #expect(try F.filter(filter) == expected, "\(filter)")
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
    ("visits.@min == date(50)", true),
    ("visits.@max == date(100)", true),
    ("scores.@sum == 3", true),
    ("scores.@keys == 'b'", true),
    ("'a' IN scores.@keys", true),
    ("scores.@values == 2", true),
    ("dogs.age.@sum == 8", true),
    ("dogs.age.@max == 5", true),
  ])
  func aggregates(filter: String, expected: Bool) throws {
    #expect(try F.filter(filter) == expected, "\(filter)")
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

  @Test func allOfAnEmptyCollectionIsTrue() throws {
    #expect(try F.filter("ALL tags == 'x'", ["tags": .list([])]))
    #expect(try F.filter("ANY tags == 'x'", ["tags": .list([])]) == false)
    #expect(try F.filter("NONE tags == 'x'", ["tags": .list([])]))
  }

  @Test func dogFilters() throws {
    let dogs = F.compiler("Dog")
    let p = try dogs.compilePredicate("owner.firstName == 'Grace' AND age < 4")
    let rex = F.values(["name": str("Rex"), "age": .int(3), "owner": .link(ObjectLink(className: "Person", key: 7))], of: F.dog)
    let fido = F.values(["name": str("Fido"), "age": .int(5)], of: F.dog)
    #expect(try p.matches(rex, resolver: F.Resolver()))
    #expect(try p.matches(fido, resolver: F.Resolver()) == false)
  }

  @Test func compileErrorsHaveColumns() {
    expectCompileError("age > 18 AND ⟪fistName == 'x'", "'fistName': Person has no property 'fistName' (did you mean 'firstName'?)", predicate: true)
    expectCompileError("⟪bestFriend.nam == 'x'", "'bestFriend.nam': Person has no property 'nam'", predicate: true)
    expectCompileError("⟪dogs.nme == 'x'", "'dogs.nme': Dog has no property 'nme' (did you mean 'name'?)", predicate: true)
    expectCompileError("⟪age == 'x'", "cannot compare int with string ('age' == ''x'')", predicate: true)
    expectCompileError("age BEGINSWITH⟪", "expression ends where a value was expected", predicate: true)
    expectCompileError("⟪age", "a filter must be a condition, but 'age' is int", predicate: true)
    expectCompileError("age > 1 AND ⟪AND", "expected a value, found 'AND'", predicate: true)
    expectCompileError("⟪age BEGINSWITH 'a'", "'BEGINSWITH' needs strings, but 'age' is int", predicate: true)
    expectCompileError("age > ⟪$0", "argument placeholders such as '$0' are not supported; write the value itself", predicate: true)
    expectCompileError("ALL ⟪age > 1", "'ALL' needs a collection, but 'age' is int", predicate: true)
    expectCompileError("⟪ALL dogs.age == 'x'", "cannot compare int with string ('dogs.age' == ''x'')", predicate: true)
    expectCompileError("⟪tags.@avg > 1", "'tags.@avg': '@avg' needs int, float or double values, but 'tags' holds string", predicate: true)
    expectCompileError("⟪tags.@median > 1", "unknown '@median'; use @count, @size, @min, @max, @sum, @avg, @keys or @values", predicate: true)
    expectCompileError("⟪tags.@keys == 'a'", "'tags.@keys': '@keys' needs a dictionary, but 'tags' is string[]", predicate: true)
    expectCompileError("⟪age.@max > 1", "'age.@max': '@max' needs a collection, but 'age' is int", predicate: true)
    expectCompileError("⟪tags.@min == 'a'", "'tags.@min': '@min' needs numbers or dates, but 'tags' holds string", predicate: true)
  }

  @Test func compiledPredicateIsReusable() throws {
    let p = try F.compiler().compilePredicate("age >= 18")
    var context = EvaluationContext(environment: F.environment)
    var matched = 0
    for age in 0..<40 {
      context.old = F.values(["age": .int(Int64(age))])
      if try p.matches(&context) { matched += 1 }
    }
    #expect(matched == 22)
  }
}
