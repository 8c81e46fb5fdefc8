import RealmJSON
import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmModel
import RealmQuery

/// A stand-in compiler: `old.<name>` copies a property; anything else is a string constant.
/// The real expression language has its own tests; these check the planner's bookkeeping.
struct StubExpressions: ExpressionCompiling {
  struct Copy: CompiledValueExpression {
    let index: Int
    let resultProperty: Property?
    func evaluate(old: [RealmValue], new: [RealmValue?], objectKey: Int64) throws -> RealmValue { old[index] }
  }
  struct All: CompiledFilter {
    func matches(_ values: [RealmValue], objectKey: Int64) throws -> Bool { true }
  }
  struct Unknown: Error, CustomStringConvertible { let description: String }

  func compileValue(_ source: String, in c: ObjectSchema, schema: Schema, newProperties: [Property]) throws -> any CompiledValueExpression {
    guard source.hasPrefix("old."), let i = c.properties.firstIndex(where: { $0.name == source.dropFirst(4) }) else {
      throw Unknown(description: "column 1: unknown '\(source)'")
    }
    return Copy(index: i, resultProperty: c.properties[i])
  }
  func compileFilter(_ source: String, in c: ObjectSchema, schema: Schema) throws -> any CompiledFilter { All() }
}

@Suite struct MigrationPlannerTests {
  let planner = MigrationPlanner(expressions: StubExpressions()) { json, p, _ in
    if case .string(let s) = json { return .string(s) }
    if case .int(let i) = json { return .int(i) }
    return RealmValue.zero(for: p)
  }

  let file = Schema(schemaVersion: 1, fileFormat: 24, classes: [
    ObjectSchema(name: "Dog", properties: [
      Property(name: "name", type: .string),
      Property(name: "owner", type: .object, objectType: "Person", isOptional: true),
    ]),
    ObjectSchema(name: "Person", properties: [
      Property(name: "firstName", type: .string), Property(name: "lastName", type: .string),
      Property(name: "age", type: .int),
    ]),
  ])

  func plan(_ json: String) throws -> MigrationPlan { try PlanDecoder.decode(Array(json.utf8)) }

  let dogAndPersonV2 = #"""
    {"name": "Dog", "properties": {"name": "string", "owner": "Person?"}},
    """#

  @Test func refusesLowerVersionWithRealmsMessage() throws {
    let p = try plan(#"{"schemaVersion": 0, "schema": [{"name": "Person", "properties": {"age": "int"}}]}"#)
    #expect(throws: MigrationError(.versionLower, "")) { try planner.program(for: p, fileSchema: file) }
    do { _ = try planner.program(for: p, fileSchema: file) } catch let e as MigrationError {
      expectEqual(e.message, "Provided schema version 0 is less than last set version 1.")
    }
  }

  @Test func sameVersionWithChangesIsRefused() throws {
    let p = try plan(#"{"schemaVersion": 1, "schema": [\#(dogAndPersonV2) {"name": "Person", "properties": {"firstName": "string", "lastName": "string", "age": "int", "email": "string?"}}]}"#)
    let e = try #require(throws: MigrationError.self) { _ = try planner.program(for: p, fileSchema: file) }
    expectEqual(e.code, .migrationRequired)
    expectEqual(e.message, "Migration is required due to the following errors:\n- Property 'Person.email' has been added.")
  }

  @Test func sameSchemaIsANoOp() throws {
    let p = try plan(#"{"schemaVersion": 1, "schema": [\#(dogAndPersonV2) {"name": "Person", "properties": {"firstName": "string", "lastName": "string", "age": "int"}}]}"#)
    let program = try planner.program(for: p, fileSchema: file)
    #expect(program.isNoOp)
  }

  @Test func renameIsMetadataOnly() throws {
    let p = try plan(#"""
      {"schemaVersion": 2, "schema": [\#(dogAndPersonV2) {"name": "Person", "properties": {"firstName": "string", "lastName": "string", "yearsSinceBirth": "int"}}],
       "migrations": [{"version": 2, "steps": [{"op": "renameProperty", "class": "Person", "from": "age", "to": "yearsSinceBirth"}]}]}
      """#)
    let program = try planner.program(for: p, fileSchema: file)
    #expect(program.isMetadataOnly)
    let person = try #require(program.classProgram(named: "Person"))
    expectEqual(person.finalSchema.properties.map(\.name), ["firstName", "lastName", "yearsSinceBirth"])
    expectEqual(person.report.renamed, ["age -> yearsSinceBirth"])
    #expect(person.isUnchanged)
  }

  @Test func automaticAddAndRemove() throws {
    let p = try plan(#"""
      {"schemaVersion": 2, "schema": [\#(dogAndPersonV2) {"name": "Person", "properties": {"firstName": "string", "email": {"type": "string", "default": "x@y"}}}]}
      """#)
    let program = try planner.program(for: p, fileSchema: file)
    #expect(!program.isMetadataOnly)
    let person = try #require(program.classProgram(named: "Person"))
    expectEqual(person.finalSchema.properties.map(\.name), ["firstName", "email"])
    expectEqual(person.report.removed, ["lastName", "age"])
    expectEqual(person.report.added, ["email"])
    guard case .reconcile(let sources)? = person.stages.last else { Issue.record("no reconcile stage"); return }
    expectEqual(sources.count, 2)
    if case .constant(let v) = sources[1] { expectEqual(v, .string("x@y")) } else { Issue.record("email should be a constant") }
  }

  @Test func unknownNamesInStepsAreReportedWithPathAndSuggestion() throws {
    let p = try plan(#"""
      {"schemaVersion": 2, "schema": [\#(dogAndPersonV2) {"name": "Person", "properties": {"firstName": "string"}}],
       "migrations": [{"version": 2, "steps": [{"op": "renameProperty", "class": "Person", "from": "agee", "to": "x"}]}]}
      """#)
    let e = try #require(throws: MigrationError.self) { _ = try planner.program(for: p, fileSchema: file) }
    expectEqual(e.description, "migrations[0].steps[0].from: 'Person' has no property 'agee' (did you mean 'age'?)")
  }

  @Test func typeChangeNeedsAWriteOrAllowDataLoss() throws {
    let schema = #"[\#(dogAndPersonV2) {"name": "Person", "properties": {"firstName": "string", "lastName": "string", "age": "string"}}]"#
    let e = try #require(throws: MigrationError.self) { _ = try planner.program(for: try plan(#"{"schemaVersion": 2, "schema": \#(schema)}"#), fileSchema: file) }
    expectEqual(e.code, .dataLoss)
    #expect(e.message.hasPrefix("Property 'Person.age' has been changed from 'int' to 'string'"))
    let lossy = try planner.program(for: try plan(#"{"schemaVersion": 2, "allowDataLoss": true, "schema": \#(schema)}"#), fileSchema: file)
    expectEqual(lossy.classProgram(named: "Person")?.finalSchema.property(named: "age")?.type, .string)
    // A transform that writes the property is the other way.
    let written = try planner.program(for: try plan(#"""
      {"schemaVersion": 2, "schema": \#(schema), "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person", "set": {"age": "old.firstName"}}]}]}
      """#), fileSchema: file)
    expectEqual(written.classProgram(named: "Person")?.report.transformed, ["age"])
  }

  @Test func additiveModeRefusesDestructiveSteps() throws {
    let p = try plan(#"""
      {"schemaVersion": 2, "mode": "additive", "schema": [\#(dogAndPersonV2) {"name": "Person", "properties": {"firstName": "string"}}],
       "migrations": [{"version": 2, "steps": [{"op": "removeProperty", "class": "Person", "name": "age"}]}]}
      """#)
    let e = try #require(throws: MigrationError.self) { _ = try planner.program(for: p, fileSchema: file) }
    expectEqual(e.path, "migrations[0].steps[0].op")
    // Without the step, properties missing from the schema are kept.
    let kept = try planner.program(for: try plan(#"{"schemaVersion": 2, "mode": "additive", "schema": [\#(dogAndPersonV2) {"name": "Person", "properties": {"firstName": "string"}}]}"#), fileSchema: file)
    expectEqual(kept.classProgram(named: "Person")?.finalSchema.properties.map(\.name), ["firstName", "lastName", "age"])
  }

  @Test func deletingALinkedClassIsRefused() throws {
    let p = try plan(#"""
      {"schemaVersion": 2, "schema": [{"name": "Dog", "properties": {"name": "string"}}],
       "migrations": [{"version": 2, "steps": [{"op": "deleteClass", "class": "Person"}]}]}
      """#)
    let e = try #require(throws: MigrationError.self) { _ = try planner.program(for: p, fileSchema: file) }
    #expect(e.message.contains("'Dog.owner' links to it"))
  }

  @Test func renameClassUpdatesLinks() throws {
    let p = try plan(#"""
      {"schemaVersion": 2, "schema": [{"name": "Dog", "properties": {"name": "string", "owner": "Human?"}}, {"name": "Human", "properties": {"firstName": "string", "lastName": "string", "age": "int"}}],
       "migrations": [{"version": 2, "steps": [{"op": "renameClass", "from": "Person", "to": "Human"}]}]}
      """#)
    let program = try planner.program(for: p, fileSchema: file)
    #expect(program.isMetadataOnly)
    expectEqual(program.classRenames, ["Person": "Human"])
    expectEqual(program.classProgram(named: "Dog")?.finalSchema.property(named: "owner")?.objectType, "Human")
    expectEqual(program.classProgram(named: "Human")?.report.renamedFrom, "Person")
  }
}
