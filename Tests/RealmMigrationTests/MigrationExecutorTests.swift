import Foundation
import RealmJSON
import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmModel
import RealmQuery

/// In-memory objects per class, standing in for a Realm file.
final class MemorySource: MigrationSource {
  var objects: [String: [(Int64, [RealmValue])]]
  init(_ objects: [String: [(Int64, [RealmValue])]]) { self.objects = objects }
  func forEachObject(ofClass className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
    for (k, v) in objects[className] ?? [] { try body(k, v) }
  }
  func objectCount(ofClass className: String) throws -> Int { objects[className]?.count ?? 0 }
}

/// Collects what the migrator writes.
final class MemorySink: MigrationSink {
  var classes: [String: [(Int64, [RealmValue])]] = [:]
  var current = ""
  func beginClass(_ objectSchema: ObjectSchema) throws {
    current = objectSchema.name
    classes[current] = []
  }
  func add(key: Int64, values: [RealmValue]) throws { classes[current, default: []].append((key, values)) }
  func endClass() throws {}
}

@Suite struct MigrationExecutorTests {
  let planner = MigrationPlanner(expressions: StubExpressions()) { json, p, _ in
    if case .string(let s) = json { return .string(s) }
    return RealmValue.zero(for: p)
  }

  let file = Schema(schemaVersion: 1, fileFormat: 24, classes: [
    ObjectSchema(name: "Address", properties: [Property(name: "street", type: .string)]),
    ObjectSchema(name: "Person", properties: [
      Property(name: "name", type: .string),
      Property(name: "address", type: .object, objectType: "Address", isOptional: true),
      Property(name: "friends", type: .object, collection: .list, objectType: "Person"),
    ]),
  ])

  func link(_ c: String, _ k: Int64) -> RealmValue { .link(ObjectLink(className: c, key: k)) }

  func run(_ planJSON: String, _ source: MemorySource) throws -> (MemorySink, [ClassReport]) {
    let plan = try PlanDecoder.decode(Array(planJSON.utf8))
    let program = try planner.program(for: plan, fileSchema: file)
    let sink = MemorySink()
    let reports = try MigrationExecutor(program: program, source: source).run(into: sink)
    return (sink, reports)
  }

  func people() -> MemorySource {
    MemorySource([
      "Address": [(0, [.string("Main St")]), (1, [.string("Elm St")])],
      "Person": [
        (0, [.string("Ann"), link("Address", 0), .list([link("Person", 1), link("Person", 2)])]),
        (1, [.string("Bob"), link("Address", 1), .list([])]),
        (2, [.string("Cy"), .null, .list([link("Person", 0)])]),
      ],
    ])
  }

  let schemaV2 = #"""
    [{"name": "Address", "embedded": EMB, "properties": {"street": "string"}},
     {"name": "Person", "properties": {"name": "string", "address": "Address?", "friends": "Person[]", "email": {"type": "string", "default": "none"}}}]
    """#

  @Test func addsPropertiesWithDefaultsAndCountsObjects() throws {
    let (sink, reports) = try run(#"{"schemaVersion": 2, "schema": \#(schemaV2.replacingOccurrences(of: "EMB", with: "false"))}"#, people())
    let persons = try #require(sink.classes["Person"])
    expectEqual(persons.map(\.0), [0, 1, 2])
    #expect(persons.allSatisfy { $0.1.last == .string("none") })
    let report = try #require(reports.first { $0.name == "Person" })
    #expect(report.objectsBefore == 3 && report.objectsAfter == 3 && report.objectsTouched == 3)
  }

  @Test func deletedObjectsDisappearFromLinks() throws {
    let plan = #"""
      {"schemaVersion": 2, "schema": \#(schemaV2.replacingOccurrences(of: "EMB", with: "false")),
       "migrations": [{"version": 2, "steps": [{"op": "deleteObjects", "class": "Person", "where": "TRUEPREDICATE"}]}]}
      """#
    let (sink, _) = try run(plan, people())
    expectEqual(sink.classes["Person"]?.isEmpty, true)
    let planDeleteAddresses = #"""
      {"schemaVersion": 2, "schema": \#(schemaV2.replacingOccurrences(of: "EMB", with: "false")),
       "migrations": [{"version": 2, "steps": [{"op": "deleteObjects", "class": "Address"}]}]}
      """#
    let (sink2, _) = try run(planDeleteAddresses, people())
    expectEqual(sink2.classes["Address"]?.isEmpty, true)
    expectEqual(sink2.classes["Person"]?.allSatisfy { $0.1[1] == .null }, true)
  }

  @Test func classMadeEmbeddedMovesInline() throws {
    let (sink, _) = try run(#"{"schemaVersion": 2, "schema": \#(schemaV2.replacingOccurrences(of: "EMB", with: "true"))}"#, people())
    #expect(sink.classes["Address"] == nil)
    let ann = try #require(sink.classes["Person"]?.first)
    guard case .embedded(let e) = ann.1[1] else { Issue.record("address should be inline"); return }
    #expect(e.className == "Address" && e.properties == [NamedValue("street", .string("Main St"))])
  }

  @Test func embeddingRefusesOrphansAndSharedObjects() throws {
    let plan = #"{"schemaVersion": 2, "schema": \#(schemaV2.replacingOccurrences(of: "EMB", with: "true"))}"#
    let orphan = people()
    orphan.objects["Address"]?.append((2, [.string("Nowhere")]))
    let orphanError = try #require(throws: MigrationError.self) { _ = try run(plan, orphan) }
    #expect(orphanError.message.hasPrefix("Cannot convert 'Address' to embedded: at least one object has no incoming links and would be deleted."))
    #expect(orphanError.message.contains("first keys: 2"))
    let shared = people()
    shared.objects["Person"]?[2].1[1] = link("Address", 0)
    let e = try #require(throws: MigrationError.self) { _ = try run(plan, shared) }
    #expect(e.message.hasPrefix("Cannot convert 'Address' to embedded: at least one object has more than one incoming link."))
  }

  @Test func duplicatePrimaryKeysAreRefused() throws {
    let source = people()
    source.objects["Person"]?[2].1[0] = .string("Ann")
    let plan = #"""
      {"schemaVersion": 2, "schema": [{"name": "Address", "properties": {"street": "string"}},
       {"name": "Person", "primaryKey": "name", "properties": {"name": "string", "address": "Address?", "friends": "Person[]"}}]}
      """#
    let e = try #require(throws: MigrationError.self) { _ = try run(plan, source) }
    #expect(e.message.hasPrefix("Primary key property 'Person.name' has duplicate values after migration."))
    #expect(e.message.contains("'Ann' (objects with keys 0 and 2)"))
  }

  @Test func requiredNullsBecomeTheDefault() throws {
    let file2 = Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "T", properties: [Property(name: "note", type: .string, isOptional: true)])
    ])
    let plan = try PlanDecoder.decode(Array(#"{"schemaVersion": 2, "schema": [{"name": "T", "properties": {"note": {"type": "string", "default": "-"}}}]}"#.utf8))
    let program = try planner.program(for: plan, fileSchema: file2)
    let sink = MemorySink()
    _ = try MigrationExecutor(program: program, source: MemorySource(["T": [(0, [.null]), (1, [.string("x")])]])).run(into: sink)
    expectEqual(sink.classes["T"]?.map(\.1), [[.string("-")], [.string("x")]])
  }
}
