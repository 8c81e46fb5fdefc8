import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmQuery
import RealmModel

/// The examples of docs/expression-language.md compile, with the types the docs imply.
@Suite struct ExpressionDocExamplesTests {
  static let person = ObjectSchema(
    name: "Person",
    properties: [
      Property(name: "firstName", type: .string), Property(name: "lastName", type: .string),
      Property(name: "fullName", type: .string), Property(name: "age", type: .int),
      Property(name: "ageText", type: .string), Property(name: "id", type: .int),
      Property(name: "nickname", type: .string, isOptional: true),
      Property(name: "email", type: .string, isOptional: true),
      Property(name: "owner", type: .object, objectType: "Person", isOptional: true),
      Property(name: "name", type: .string),
      Property(name: "dogs", type: .object, collection: .list, objectType: "Person"),
      Property(name: "bornText", type: .string, isOptional: true),
      Property(name: "tags", type: .string, collection: .list),
    ])
  static let compiler = ExpressionCompiler(
    schema: Schema(schemaVersion: 0, fileFormat: 24, classes: [person]), objectSchema: person)

  @Test(arguments: [
    ("old.firstName + ' ' + old.lastName", "string"),
    ("string(old.age)", "string"),
    ("int(old.ageText, 0)", "int"),
    ("contains(old.fullName, ' ') ? split(old.fullName, ' ')[0] : old.fullName", "string?"),
    ("contains(old.fullName, ' ') ? substring(old.fullName, length(split(old.fullName, ' ')[0]) + 1) : ''", "string?"),
    ("'C-' + string(old.id)", "string"),
    ("old.nickname ?? old.firstName", "string"),
    ("lower(trim(old.email ?? ''))", "string"),
    ("old.age >= 18", "bool"),
    ("old.owner.name ?? 'nobody'", "string"),
    ("old.dogs.@count", "int"),
    ("objectId()", "objectId"),
    ("uuid()", "uuid"),
    ("now()", "date"),
    ("date(old.bornText, date(0))", "date"),
    ("upper(substring(new.fullName, 0, 1))", "string"),
  ])
  func valueExamples(source: String, type: String) throws {
    let compiled = try Self.compiler.compileValue(source, newValues: [NewValue(name: "fullName", type: .init(.string))])
    expectEqual(compiled.type.description, type, "\(source)")
  }

  @Test(arguments: [
    "age >= 18 AND name BEGINSWITH[c] 'j'", "email == nil OR email == ''", "tags.@count > 2",
    "name IN {'a', 'b'}", "owner.name == 'x'", "dogs.age > 4",
    "NOT (name == 'archived' OR name == 'deleted')", "lastName LIKE 'Mc*'", "TRUEPREDICATE",
    "ALL dogs.age > 2", "NONE tags IN {'spam'}", "ANY tags BEGINSWITH[c] 'a'", "'a' IN tags",
    "age > 30 SORT(age DESC) LIMIT(3)",
  ])
  func filterExamples(source: String) throws {
    _ = try RealmQuery(source, className: Self.person.name, schema: Schema(schemaVersion: 0, fileFormat: 24, classes: [Self.person]))
  }
}
