import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmQuery
import RealmModel

/// The migrator-facing engine: one environment per migration, errors with the object key.
@Suite struct ExpressionEngineTests {
  typealias F = ExpressionFixture

  @Test func evaluatesWithNewValuesAndTypes() throws {
    let engine = MigrationExpressionEngine(environment: F.environment)
    let fullName = Property(name: "fullName", type: .string)
    let e = try engine.compileValue(
      "new.fullName + ' (' + string(old.age) + ')'", in: F.person, schema: F.schema, newProperties: [fullName])
    expectEqual(e.resultProperty, Property(name: "", type: .string))
    try expectEqual(e.evaluate(old: F.values(), new: [str("Ada L")], objectKey: 1), str("Ada L (36)"))
    try expectEqual(e.evaluate(old: F.values(), new: [nil], objectKey: 1), .null)
    #expect(try engine.compileValue("null", in: F.person, schema: F.schema, newProperties: []).resultProperty == nil)
  }

  @Test func oneEnvironmentPerMigration() throws {
    let engine = MigrationExpressionEngine(environment: F.environment)
    let id = try engine.compileValue("uuid()", in: F.person, schema: F.schema, newProperties: [])
    let now = try engine.compileValue("now()", in: F.person, schema: F.schema, newProperties: [])
    let a = try id.evaluate(old: F.values(), new: [], objectKey: 1)
    let b = try id.evaluate(old: F.values(), new: [], objectKey: 2)
    #expect(a != b)  // the random state advances across objects
    try expectEqual(now.evaluate(old: F.values(), new: [], objectKey: 1), .date(F.environment.now))
    try expectEqual(now.evaluate(old: F.values(), new: [], objectKey: 2), .date(F.environment.now))
  }

  @Test func errorsCarryTheObjectKey() throws {
    let engine = MigrationExpressionEngine(environment: F.environment)
    let e = try engine.compileValue("int(old.firstName)", in: F.person, schema: F.schema, newProperties: [])
    do {
      _ = try e.evaluate(old: F.values(), new: [], objectKey: 42)
      Issue.record("expected an error")
    } catch {
      let error = try #require(error as? EvaluationError)
      expectEqual(error.objectKey, 42)
      expectEqual(error.description, "object 42, column 1: int(): cannot convert string 'Ada' to int (give a default: int(value, default))")
    }
    #expect(throws: ExpressionError.self) {
      try engine.compileValue("old.fistName", in: F.person, schema: F.schema, newProperties: [])
    }
  }

  /// `where` filters are Realm Query Language; links are followed in the file the migration
  /// reads, so without one a filter that follows links fails instead of answering "no".
  @Test func filtersAreRealmQueriesOverTheFile() throws {
    let engine = MigrationExpressionEngine(environment: F.environment)
    let f = try engine.compileFilter("bestFriend.firstName == 'Grace' AND age > 18", in: F.person, schema: F.schema)
    #expect(throws: QueryEvaluationError.self) { try f.matches(F.values(), objectKey: 1) }
    let plain = try engine.compileFilter("age > 18 AND tags.@count == 2", in: F.person, schema: F.schema)
    #expect(try plain.matches(F.values(), objectKey: 1))
    expectEqual(plain.selectsFromFile, false)
    // A column-wise pass needs only the properties the query reads; queries are not order-sensitive.
    let query = try #require(plain as? QueryFilter)
    let names = ["age", "tags"].compactMap { n in F.person.properties.firstIndex { $0.name == n } }
    expectEqual(query.readsOld, Set(names))
    expectEqual(query.isOrderSensitive, false)
    // The planner sees it through its protocol.
    let planner: any ExpressionCompiling = engine
    #expect(throws: ExpressionError.self) { try planner.compileFilter("nme == 1", in: F.person, schema: F.schema) }
    #expect(throws: ExpressionError.self) { try planner.compileFilter("old.age > 1", in: F.person, schema: F.schema) }
    // SORT/DISTINCT/LIMIT select in the file, which is not open here.
    #expect(throws: ExpressionError.self) {
      try planner.compileFilter("TRUEPREDICATE SORT(age ASC) LIMIT(2)", in: F.person, schema: F.schema)
    }
  }

  @Test func planErrorsNameThePathAndTheColumn() throws {
    let planner = MigrationPlanner(expressions: MigrationExpressionEngine()) { _, p, _ in RealmValue.zero(for: p) }
    let file = Schema(
      schemaVersion: 1, fileFormat: 24,
      classes: [
        ObjectSchema(
          name: "Person",
          properties: [
            Property(name: "firstName", type: .string), Property(name: "lastName", type: .string),
            Property(name: "age", type: .int),
          ])
      ])
    let plan = try PlanDecoder.decode(
      Array(
        #"""
        {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {"firstName": "string", "lastName": "string", "age": "int", "fullName": "string"}}],
         "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person", "set": {"fullName": "old.firstName + ' ' + old.fistName"}}]}]}
        """#.utf8))
    do {
      _ = try planner.program(for: plan, fileSchema: file)
      Issue.record("expected an error")
    } catch {
      let text = "\(error)"
      #expect(text.hasPrefix("migrations[0].steps[0].set.fullName"), "\(text)")
      #expect(text.hasSuffix("column 23: 'old.fistName': Person has no property 'fistName' (did you mean 'firstName'?)"), "\(text)")
    }
  }
}
