import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmModel

@Suite struct SchemaComparisonTests {
  let person = ObjectSchema(name: "Person", properties: [
    Property(name: "firstName", type: .string), Property(name: "lastName", type: .string),
    Property(name: "age", type: .int),
  ])

  func schema(_ c: ObjectSchema) -> Schema { Schema(schemaVersion: 1, fileFormat: 24, classes: [c]) }

  @Test func reportsRealmsMessages() throws {
    var t = person
    t.properties[0].isOptional = true  // firstName made optional
    t.properties[2] = Property(name: "age", type: .string)  // type change
    t.properties.remove(at: 1)  // lastName removed
    t.properties.append(Property(name: "email", type: .string, isOptional: true))
    t.primaryKey = "email"
    let error = try #require(SchemaComparison.sameVersionError(SchemaComparison.changes(from: schema(person), to: schema(t))))
    expectEqual(error.message, """
      Migration is required due to the following errors:
      - Property 'Person.firstName' has been made optional.
      - Property 'Person.lastName' has been removed.
      - Property 'Person.age' has been changed from 'int' to 'string'.
      - Primary Key for class 'Person' has been added.
      - Property 'Person.email' has been added.
      """)
  }

  @Test func addedClassesAndIndexesNeedNoMigration() {
    var t = person
    t.properties[0].isIndexed = true
    let target = Schema(schemaVersion: 1, fileFormat: 24, classes: [t, ObjectSchema(name: "Dog", properties: [])])
    let changes = SchemaComparison.changes(from: schema(person), to: target)
    expectEqual(changes.count, 2)
    #expect(SchemaComparison.sameVersionError(changes) == nil)
  }

  @Test func typeStringsFollowRealm() {
    expectEqual(SchemaChange.typeString(Property(name: "a", type: .object, objectType: "Dog", isOptional: true)), "<Dog>")
    expectEqual(SchemaChange.typeString(Property(name: "a", type: .object, collection: .list, objectType: "Dog")), "array<Dog>")
    expectEqual(SchemaChange.typeString(Property(name: "a", type: .int, collection: .set)), "set<int>")
    expectEqual(SchemaChange.typeString(Property(name: "a", type: .objectId, collection: .dictionary)), "dictionary<string, object id>")
  }

  @Test func classesOnlyInTheFileAreKept() {
    let existing = Schema(schemaVersion: 1, fileFormat: 24, classes: [person, ObjectSchema(name: "Old", properties: [])])
    #expect(SchemaComparison.changes(from: existing, to: schema(person)).isEmpty)
  }
}
