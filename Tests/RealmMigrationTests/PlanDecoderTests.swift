import Foundation
import RealmJSON
import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmModel
import RealmQuery

@Suite struct PlanDecoderTests {
  static var fixturePlans: [String] {
    let fm = FileManager.default
    var out: [String] = []
    for dir in (try? fm.contentsOfDirectory(atPath: Fixtures.root.path)) ?? [] {
      let d = Fixtures.root.appendingPathComponent(dir)
      for f in (try? fm.contentsOfDirectory(atPath: d.path)) ?? [] where f.hasSuffix("plan.json") {
        out.append("\(dir)/\(f)")
      }
      let steps = d.appendingPathComponent("steps")
      for s in (try? fm.contentsOfDirectory(atPath: steps.path)) ?? [] {
        if fm.fileExists(atPath: steps.appendingPathComponent("\(s)/plan.json").path) { out.append("\(dir)/steps/\(s)/plan.json") }
      }
    }
    return out.sorted()
  }

  @Test(arguments: fixturePlans)
  func decodesEveryFixturePlan(_ path: String) throws {
    let plan = try PlanDecoder.decode(try Fixtures.bytes(path))
    #expect(plan.schemaVersion >= 0)
    #expect(!plan.classes.isEmpty)
    // Groups are sorted and none exceeds the target.
    expectEqual(plan.migrations.map(\.version), plan.migrations.map(\.version).sorted())
    #expect(plan.migrations.allSatisfy { $0.version <= plan.schemaVersion })
  }

  @Test func decodesNotationAndObjectForms() throws {
    let plan = try PlanDecoder.decode(Array(#"""
      {"schemaVersion": 3, "schema": [
        {"name": "Person", "primaryKey": "_id", "properties": {
          "_id": "objectId", "age": {"type": "string", "default": "0"}, "email": "string?",
          "dogs": "Dog[]", "tags": "string<>", "scores": "int{}", "address": "Address",
          "maybe": "int?[]", "any": "mixed", "friends": {"type": "list", "objectType": "Person"},
          "nick": {"type": "string", "optional": true, "indexed": true}}},
        {"name": "Address", "embedded": true, "properties": [{"name": "street", "type": "string"}]},
        {"name": "Dog", "properties": {"name": "string", "owner": "Person?"}}]}
      """#.utf8))
    let person = try #require(plan.planClass(named: "Person")).objectSchema
    func prop(_ n: String) throws -> Property { try #require(person.property(named: n)) }
    try expectEqual(prop("_id"), Property(name: "_id", type: .objectId, isIndexed: true))
    try expectEqual(prop("email"), Property(name: "email", type: .string, isOptional: true))
    try expectEqual(prop("dogs"), Property(name: "dogs", type: .object, collection: .list, objectType: "Dog"))
    try expectEqual(prop("tags"), Property(name: "tags", type: .string, collection: .set))
    try expectEqual(prop("scores"), Property(name: "scores", type: .int, collection: .dictionary))
    try expectEqual(prop("address"), Property(name: "address", type: .object, objectType: "Address", isOptional: true))
    try expectEqual(prop("maybe"), Property(name: "maybe", type: .int, collection: .list, isOptional: true))
    try expectEqual(prop("any"), Property(name: "any", type: .mixed, isOptional: true))
    try expectEqual(prop("friends"), Property(name: "friends", type: .object, collection: .list, objectType: "Person"))
    try expectEqual(prop("nick"), Property(name: "nick", type: .string, isOptional: true, isIndexed: true))
    expectEqual(plan.planClass(named: "Person")?.defaults["age"], .string("0"))
    expectEqual(plan.planClass(named: "Address")?.objectSchema.isEmbedded, true)
    expectEqual(plan.targetSchema.classes.map(\.name), ["Address", "Dog", "Person"])
  }

  /// Each bad plan fails with the JSON path of its fault and a message naming the problem.
  @Test(arguments: [
    (#"{"schema": []}"#, "schemaVersion", "is required"),
    (#"{"schemaVersion": -1, "schema": []}"#, "schemaVersion", "must be an integer >= 0"),
    (#"{"schemaVersion": 1, "schema": [], "mode": "fast"}"#, "mode", "unknown mode 'fast'"),
    (#"{"schemaVersion": 1, "schema": [{"name": "A", "properties": {"x": "strng"}}]}"#, "schema[0].properties.x", "did you mean 'string'?"),
    (#"{"schemaVersion": 1, "schema": [{"name": "A", "properties": {"x": "Dog"}}]}"#, "schema[0].properties.x", "neither a property type nor a class"),
    (#"{"schemaVersion": 1, "schema": [{"name": "A", "primaryKey": "id", "properties": {"x": "int"}}]}"#, "schema[0].primaryKey", "'id' is not a property of 'A'"),
    (#"{"schemaVersion": 1, "schema": [{"name": "A", "primaryKey": "x", "properties": {"x": "double"}}]}"#, "schema[0].primaryKey", "cannot be a primary key"),
    (#"{"schemaVersion": 1, "schema": [], "migrations": [{"version": 1, "steps": [{"op": "renameProperty", "class": "A", "from": "a"}]}]}"#, "migrations[0].steps[0].to", "is required"),
    (#"{"schemaVersion": 1, "schema": [], "migrations": [{"version": 1, "steps": [{"op": "renameProprty"}]}]}"#, "migrations[0].steps[0].op", "did you mean 'renameProperty'?"),
    (#"{"schemaVersion": 1, "schema": [], "migrations": [{"version": 2, "steps": []}]}"#, "migrations[0].version", "above the plan's schemaVersion 1"),
    (#"{"schemaVersion": 3, "schema": [], "migrations": [{"version": 2, "steps": []}, {"version": 2, "steps": []}]}"#, "migrations[1].version", "appears twice"),
    (#"{"schemaVersion": 1, "schema": [], "migrations": [{"version": 1, "steps": [{"op": "transform", "class": "A", "set": {"x": 1}}]}]}"#, "migrations[0].steps[0].set.x", "must be an expression string"),
    (#"{"schemaVersion": 1, "schema": [], "migrations": [{"version": 1, "steps": [{"op": "deleteClass", "class": "A", "frm": 1}]}]}"#, "migrations[0].steps[0].frm", "unknown field 'frm'"),
  ])
  func reportsPlanErrorsWithPaths(_ json: String, _ path: String, _ fragment: String) {
    do {
      _ = try PlanDecoder.decode(Array(json.utf8))
      Issue.record("expected an error for \(json)")
    } catch {
      expectEqual(error.code, .invalidPlan)
      expectEqual(error.path, path)
      #expect(error.message.contains(fragment), "\(error.message)")
    }
  }

  @Test func reportsInvalidJSONWithPosition() {
    #expect(throws: MigrationError(.invalidPlan, "")) { try PlanDecoder.decode(Array("{\"schemaVersion\": 1,\n ]".utf8)) }
    do { _ = try PlanDecoder.decode(Array("{\"schemaVersion\": 1,\n ]".utf8)) } catch {
      #expect(error.description.contains("line 2"))
    }
  }

  @Test func pendingGroupsFollowLinearRule() throws {
    let plan = try PlanDecoder.decode(Array(#"""
      {"schemaVersion": 3, "schema": [{"name": "A", "properties": {"x": "int"}}],
       "migrations": [{"version": 3, "steps": []}, {"version": 1, "steps": []}, {"version": 2, "steps": []}]}
      """#.utf8))
    expectEqual(plan.pendingGroups(fromVersion: 1).map(\.version), [2, 3])
    expectEqual(plan.pendingGroups(fromVersion: nil).map(\.version), [1, 2, 3])
    #expect(plan.pendingGroups(fromVersion: 3).isEmpty)
  }
}
