import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmModel
import RealmQuery

/// Names, suggestions and static types, checked before any object is read.
@Suite struct ExpressionTypeCheckTests {
  typealias F = ExpressionFixture

  @Test func unknownPropertySuggestsTheClosestName() {
    expectCompileError(
      "old.firstName + ⟪old.fistName",
      "'old.fistName': Person has no property 'fistName' (did you mean 'firstName'?)")
    expectCompileError("⟪old.FirstName", "'old.FirstName': Person has no property 'FirstName' (did you mean 'firstName'?)")
    expectCompileError("⟪old.zzzzzz", "'old.zzzzzz': Person has no property 'zzzzzz'")
    expectCompileError("⟪old.dogs[0].nme", "'old.dogs[0].nme': Dog has no property 'nme' (did you mean 'name'?)")
    expectCompileError("⟪old.address.stret", "'old.address.stret': Address has no property 'stret' (did you mean 'street'?)")
    expectCompileError(
      "⟪old.bestFriend.lastNam", "'old.bestFriend.lastNam': Person has no property 'lastNam' (did you mean 'lastName'?)")
  }

  @Test func theBriefsExampleHasColumn12() {
    let (error, _) = F.compileError("old.age + ' ' + old.fistName")
    // `'+' joins two strings` fires first; with strings only, the column of the path shows.
    #expect(error != nil)
    let e = F.compileError("'Mr. ' + ' ' + old.fistName").error
    expectEqual(e?.description, "column 16: 'old.fistName': Person has no property 'fistName' (did you mean 'firstName'?)")
  }

  @Test func bareNamesInValueExpressions() {
    expectCompileError("⟪firstName + 'x'", "'firstName' is not a value; write 'old.firstName' for the property")
    expectCompileError("⟪lower", "'lower' is a function; call it as 'lower(...)'")
    expectCompileError("⟪fistName", "unknown name 'fistName'; properties are written 'old.name' or 'new.name' (did you mean 'old.firstName'?)")
    expectCompileError("⟪old", "'old' must be followed by a property name, as in 'old._id'")
    expectCompileError("1 + ⟪new", "'new' must be followed by a property name, as in 'new._id'")
  }

  @Test func newValuesAreOnlyThoseSetEarlier() throws {
    let earlier = [NewValue(name: "fullName", type: .init(.string))]
    #expect(
      try F.eval("new.fullName + '!'", newValues: earlier, new: [str("Ada L")]) == str("Ada L!"))
    expectCompileError(
      "⟪new.fulName", "'new.fulName': 'fulName' is not set earlier in this step (did you mean 'fullName'?)",
      newValues: earlier)
    expectCompileError(
      "⟪new.age",
      "'new.age': 'age' is not set earlier in this step; 'new.' sees only values set earlier in the same step, use 'old.age'")
  }

  @Test func unknownFunctionsAndArity() {
    expectCompileError("⟪lowr(old.firstName)", "unknown function 'lowr' (did you mean 'lower'?)")
    expectCompileError("⟪frobnicate(1)", "unknown function 'frobnicate'")
    expectCompileError("⟪lower()", "'lower' takes 1 argument, but 0 are given")
    expectCompileError("⟪lower('a', 'b')", "'lower' takes 1 argument, but 2 are given")
    expectCompileError("⟪int(1, 2, 3)", "'int' takes 1 or 2 arguments, but 3 are given")
    expectCompileError("⟪replace('a', 'b')", "'replace' takes 3 arguments, but 2 are given")
    expectCompileError("⟪coalesce()", "'coalesce' takes at least 1 argument, but 0 are given")
    expectCompileError("⟪now(1)", "'now' takes 0 arguments, but 1 is given")
  }

  @Test func argumentTypes() {
    expectCompileError("lower(⟪old.age)", "argument 1 of 'lower' must be string, but 'old.age' is int")
    expectCompileError("split(old.firstName, ⟪1)", "argument 2 of 'split' must be string, but '1' is int")
    expectCompileError("substring('abc', ⟪'1')", "argument 2 of 'substring' must be int, but ''1'' is string")
    expectCompileError("join(⟪old.firstName, ',')", "argument 1 of 'join' must be a list, but 'old.firstName' is string")
    expectCompileError("length(⟪old.age)", "argument 1 of 'length' must be a string, data or a collection, but 'old.age' is int")
    expectCompileError("beginsWith(⟪old.age, 'a')", "argument 1 of 'beginsWith' must be string, but 'old.age' is int")
    expectCompileError("contains(⟪old.age, 'a')", "argument 1 of 'contains' must be a string or a collection, but 'old.age' is int")
    expectCompileError("matches(old.firstName, ⟪old.lastName)", "the pattern of 'matches' must be a string literal, such as '^[A-Z]'")
    expectCompileError("matches(old.firstName, ⟪'(a')", "invalid regular expression '(a': '(' at position 1 is not closed")
    expectCompileError("int(⟪old.tags)", "'int' cannot convert string[] ('old.tags') to int")
    expectCompileError("date(⟪old.active)", "'date' cannot convert bool ('old.active') to date")
    expectCompileError("int(old.firstName, ⟪'x')", "the value and the default of 'int' have different types: int and string")
    expectCompileError("string(⟪old.bestFriend)", "'string' cannot convert Person ('old.bestFriend') to string")
  }

  @Test func operatorTypes() {
    expectCompileError("⟪'C-' + old.age", "'+' joins two strings, but 'old.age' is int; convert it with string(...)")
    expectCompileError("⟪old.age + 'x'", "'+' joins two strings, but 'old.age' is int; convert it with string(...)")
    expectCompileError("old.age - ⟪'x'", "'-' needs numbers, but ''x'' is string")
    expectCompileError("⟪old.active * 2", "'*' needs numbers, but 'old.active' is bool")
    expectCompileError("⟪old.balance + 1", "arithmetic on decimal128 is not supported; convert with double(...) first")
    expectCompileError("⟪-old.firstName", "'-' needs a number, but 'old.firstName' is string")
    expectCompileError("!⟪old.age", "the operand of '!' must be a bool, but 'old.age' is int")
    expectCompileError("⟪old.age && true", "the left side of '&&' must be a bool, but 'old.age' is int")
    expectCompileError("⟪old.age ? 1 : 2", "the condition of '?' must be a bool, but 'old.age' is int")
    expectCompileError("⟪true ? 1 : 'a'", "the branches of '?' have different types: int and string")
    expectCompileError("⟪old.nickname ?? 1", "the sides of '??' have different types: string and int")
    expectCompileError("[1, ⟪'a']", "list elements have different types: int and string")
    expectCompileError("[1, ⟪[2]]", "a list cannot contain a list ('[2]')")
    expectCompileError("⟪old.firstName == 1", "cannot compare string with int ('old.firstName' == '1')")
    expectCompileError("⟪old.created < 5", "cannot compare date with int ('old.created' < '5')")
    expectCompileError("⟪old.active < true", "'<' cannot order bool values ('old.active')")
    expectCompileError("old.firstName BEGINSWITH ⟪1", "'BEGINSWITH' needs strings, but '1' is int")
    expectCompileError("old.age IN ⟪5", "'IN' needs a list such as {'a', 'b'}, but '5' is int")
    expectCompileError("⟪old.bestFriend == old.dogs[0]", "cannot compare Person with Dog ('old.bestFriend' == 'old.dogs[0]')")
  }

  @Test func pathTypes() {
    expectCompileError("⟪old.age.x", "'old.age.x': 'old.age' is int, which has no properties")
    expectCompileError("⟪old.anything.x", "'old.anything.x': 'old.anything' is mixed; '.' needs a link or an embedded object")
    expectCompileError("⟪old.tags.x", "'old.tags.x': 'old.tags' is a list of string, which has no properties")
    expectCompileError("old.tags[⟪'a']", "a list index must be an int, but ''a'' is string")
    expectCompileError("old.scores[⟪1]", "a dictionary key must be a string, but '1' is int")
    expectCompileError("⟪old.labels[0]", "'old.labels[0]': sets have no order and cannot be indexed")
    expectCompileError("⟪old.age[0]", "'old.age[0]': 'old.age' is int, which cannot be indexed")
    expectCompileError("⟪old.age.@count", "'old.age.@count': '@count' needs a collection, string or data, but 'old.age' is int")
    expectCompileError("⟪old.tags.@sum", "'old.tags.@sum': '@sum' needs int, float or double values, but 'old.tags' holds string")
    expectCompileError("⟪old.dogs.owner.tags", "'old.dogs.owner.tags': a collection inside each element of a collection cannot be read")
  }

  @Test(arguments: [
    ("old.firstName", "string"),
    ("old.nickname", "string?"),
    ("old.age + 1", "int"),
    ("old.maybeAge + 1", "int?"),
    ("old.age + 1.5", "double"),
    ("old.weight * 2", "float?"),
    ("old.firstName + ' ' + old.lastName", "string"),
    ("old.nickname ?? old.firstName", "string"),
    ("old.nickname ?? null", "string?"),
    ("coalesce(old.nickname, 'x')", "string"),
    ("coalesce(old.nickname, old.nickname)", "string?"),
    ("old.bestFriend", "Person"),
    ("old.bestFriend.firstName", "string?"),
    ("old.address.city", "string?"),
    ("old.address", "Address?"),
    ("old.tags", "string[]"),
    ("old.tags[0]", "string?"),
    ("old.scores['a']", "int?"),
    ("old.labels", "string<>"),
    ("old.scores", "int{}"),
    ("old.dogs.name", "string[]"),
    ("old.bestFriend.dogs.name", "string[]"),
    ("[old.nickname, 'a']", "string?[]"),
    ("old.tags.@count", "int"),
    ("old.bestFriend.tags.@count", "int?"),
    ("string(old.age)", "string"),
    ("int(old.firstName)", "int"),
    ("int(old.nickname)", "int?"),
    ("int(old.nickname, 0)", "int"),
    ("int(old.nickname, null)", "int?"),
    ("double(old.age, 0)", "double"),
    ("date(old.firstName)", "date"),
    ("split(old.firstName, ' ')", "string[]"),
    ("length(old.nickname)", "int?"),
    ("true ? 1 : 2.5", "double"),
    ("true ? 1 : null", "int?"),
    ("[1, 2.5]", "double[]"),
    ("null", "null"),
    ("old.anything", "mixed"),
    ("old.age == 1", "bool"),
    ("now()", "date"),
    ("uuid()", "uuid"),
    ("objectId()", "objectId"),
  ])
  func inferredTypes(source: String, expected: String) throws {
    try expectEqual(F.type(source).description, expected, "\(source)")
  }

  @Test func typeToProperty() throws {
    let p = try #require(try F.type("old.nickname ?? 'x'").property(named: "display"))
    expectEqual(p, Property(name: "display", type: .string))
    let list = try #require(try F.type("split(old.firstName, ' ')").property(named: "parts"))
    expectEqual(list, Property(name: "parts", type: .string, collection: .list))
    let link = try #require(try F.type("old.bestFriend").property(named: "friend"))
    expectEqual(link, Property(name: "friend", type: .object, objectType: "Person", isOptional: true))
    try expectEqual(F.type("int(old.nickname)").property(named: "n")?.isOptional, true)
    #expect(try F.type("null").property(named: "n") == nil)
  }

  @Test func classMustExist() {
    #expect(ExpressionCompiler(schema: F.schema, className: "Cat") == nil)
  }
}

/// What the migrator uses to store a transform's result in an existing property.
@Suite struct ExpressionAssignmentTests {
  typealias F = ExpressionFixture

  @Test func assignability() throws {
    let age = Property(name: "age", type: .string)
    #expect(try F.type("string(old.age)").isAssignable(to: age))
    try expectEqual(F.type("old.age").isAssignable(to: age), false)
    #expect(try F.type("old.age").isAssignable(to: Property(name: "x", type: .double)))
    try expectEqual(F.type("old.score").isAssignable(to: Property(name: "x", type: .int)), false)
    #expect(try F.type("null").isAssignable(to: age))
    #expect(try F.type("old.anything").isAssignable(to: age))
    #expect(try F.type("old.bestFriend").isAssignable(to: Property(name: "f", type: .object, objectType: "Person", isOptional: true)))
    try expectEqual(F.type("old.bestFriend").isAssignable(to: Property(name: "f", type: .object, objectType: "Dog", isOptional: true)), false)
    #expect(try F.type("split(old.firstName, ' ')").isAssignable(to: Property(name: "p", type: .string, collection: .list)))
    #expect(try F.type("split(old.firstName, ' ')").isAssignable(to: Property(name: "p", type: .string, collection: .set)))
    try expectEqual(F.type("split(old.firstName, ' ')").isAssignable(to: Property(name: "p", type: .string)), false)
    #expect(try F.type("old.scores").isAssignable(to: Property(name: "p", type: .double, collection: .dictionary)))
  }

  @Test func conversionToFit() {
    expectEqual(RealmValue.int(3).converted(toFit: Property(name: "x", type: .double)), .double(3))
    expectEqual(RealmValue.int(3).converted(toFit: Property(name: "x", type: .float)), .float(3))
    expectEqual(RealmValue.double(0.5).converted(toFit: Property(name: "x", type: .float)), .float(0.5))
    #expect(RealmValue.string("a").converted(toFit: Property(name: "x", type: .int)) == nil)
    expectEqual(RealmValue.null.converted(toFit: Property(name: "x", type: .int)), .null)
    let list = RealmValue.list([.int(1), .int(2)])
    expectEqual(list.converted(toFit: Property(name: "x", type: .double, collection: .set)), .set([.double(1), .double(2)]))
    #expect(list.converted(toFit: Property(name: "x", type: .string, collection: .list)) == nil)
    // Decimal128 from an int: the value reads back through the decimal text.
    guard case .decimal128(let d)? = RealmValue.int(-42).converted(toFit: Property(name: "x", type: .decimal128)) else {
      Issue.record("no decimal")
      return
    }
    expectEqual(DecimalValue(d).text, "-42")
  }

  @Test func decimalText() {
    // (coefficient, exponent) -> text, IEEE 754 to-scientific-string.
    func text(_ coefficient: UInt64, _ exponent: Int, negative: Bool = false) -> String {
      let bits = UInt64(exponent + 6176) << 49 | (negative ? 1 << 63 : 0)
      return DecimalValue(Decimal128(low: coefficient, high: bits)).text
    }
    expectEqual(text(15, -1), "1.5")
    expectEqual(text(1, -3, negative: true), "-0.001")
    expectEqual(text(1, 400), "1E+400")
    expectEqual(text(123, 0), "123")
    expectEqual(text(123, -5), "0.00123")
    expectEqual(text(123, -10), "1.23E-8")
    expectEqual(text(0, 0), "0")
    expectEqual(DecimalValue(Decimal128(low: 0, high: 0x7C00_0000_0000_0000)).text, "NaN")
    expectEqual(DecimalValue(Decimal128(low: 0, high: 0x7800_0000_0000_0000)).text, "Inf")
    expectEqual(DecimalValue(Decimal128(low: 0, high: 0xF800_0000_0000_0000)).text, "-Inf")
  }
}
