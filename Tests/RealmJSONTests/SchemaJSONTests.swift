import Foundation
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmJSON

@Suite struct SchemaJSONTests {
  @Test func readsTheSpecExample() throws {
    let text = """
      {"schemaVersion": 2, "fileFormat": 24,
       "classes": [
        {"name": "Person", "embedded": false, "primaryKey": "_id",
         "properties": [
           {"name": "_id", "type": "objectId", "optional": false, "indexed": true},
           {"name": "name", "type": "string", "optional": false, "indexed": false},
           {"name": "dogs", "type": "list", "objectType": "Dog", "optional": false, "indexed": false},
           {"name": "tags", "type": "set", "objectType": "string", "optional": true, "indexed": false},
           {"name": "owner", "type": "object", "objectType": "Person", "optional": true, "indexed": false}
         ]},
        {"name": "Dog", "embedded": true, "primaryKey": null, "properties": []}]}
      """
    let schema = try SchemaJSON.decode(Array(text.utf8))
    expectEqual(schema.schemaVersion, 2)
    expectEqual(schema.classes.map(\.name), ["Dog", "Person"])
    let person = try #require(schema.objectSchema(named: "Person"))
    expectEqual(person.primaryKey, "_id")
    #expect(
      person.properties[2]
        == Property(name: "dogs", type: .object, collection: .list, objectType: "Dog"))
    #expect(
      person.properties[3]
        == Property(name: "tags", type: .string, collection: .set, isOptional: true))
    #expect(
      person.properties[4]
        == Property(name: "owner", type: .object, objectType: "Person", isOptional: true))
    expectEqual(schema.objectSchema(named: "Dog")?.isEmbedded, true)
    let again = try SchemaJSON.decode(SchemaJSON.encode(schema))
    expectEqual(again, schema)
  }

  @Test func writesEmptySchemas() {
    let s = SchemaJSON.encode(Schema(schemaVersion: nil, fileFormat: 11, classes: []))
    #expect(
      String(decoding: s, as: UTF8.self)
        == "{\"schemaVersion\": null, \"fileFormat\": 11,\n \"classes\": []}\n")
  }

  private func error(_ text: String) -> String {
    do {
      _ = try SchemaJSON.decode(Array(text.utf8))
      return "no error"
    } catch {
      return error.description
    }
  }

  @Test func reportsErrorsWithTheirPath() {
    let head = #"{"schemaVersion": 1, "fileFormat": 24, "classes": ["#
    #expect(
      error(head + #"{"name": "A", "properties": [{"name": "x", "type": "integer"}]}]}"#)
        .hasPrefix("classes[0].properties[0].type: unknown type 'integer'"))
    #expect(
      error(head + #"{"name": "A", "properties": [{"name": "x", "type": "list"}]}]}"#)
        == "classes[0].properties[0].objectType: a list needs an objectType")
    #expect(
      error(
        head
          + #"{"name": "A", "properties": [{"name": "x", "type": "object", "objectType": "B"}]}]}"#)
        == "classes[0].properties[0].objectType: unknown class 'B'")
    #expect(
      error(head + #"{"name": "A", "primaryKey": "id", "properties": []}]}"#)
        == "classes[0].primaryKey: class 'A' has no property 'id'")
    #expect(
      error(
        head
          + #"{"name": "A", "primaryKey": "d", "properties": [{"name": "d", "type": "double"}]}]}"#)
        == "classes[0].primaryKey: primary key 'd' of class 'A' must be an int, string, objectId or uuid property, not double"
    )
    #expect(
      error(head + #"{"name": "A", "properties": []}, {"name": "A", "properties": []}]}"#)
        == "classes[1].name: class 'A' appears twice")
    #expect(
      error(#"{"schemaVersion": "1", "classes": []}"#)
        == "schemaVersion: expected an integer or null, found a string '1'")
    expectEqual(error("{"), "line 1: column 2: expected a string key")
  }
}

@Suite struct DumpComparisonTests {
  static let schema = Array(
    """
    {"schemaVersion": 1, "fileFormat": 24, "classes": [
     {"name": "A", "embedded": false, "primaryKey": null, "properties": [
       {"name": "f", "type": "float", "optional": false, "indexed": false},
       {"name": "d", "type": "double", "optional": true, "indexed": false},
       {"name": "dec", "type": "decimal128", "optional": true, "indexed": false},
       {"name": "s", "type": "set", "objectType": "int", "optional": false, "indexed": false},
       {"name": "m", "type": "mixed", "optional": true, "indexed": false},
       {"name": "e", "type": "object", "objectType": "E", "optional": true, "indexed": false}]},
     {"name": "E", "embedded": true, "primaryKey": null, "properties": [
       {"name": "x", "type": "double", "optional": false, "indexed": false}]}]}
    """.utf8)

  private func diff(_ a: String, _ b: String) -> [String] {
    DumpComparison.compareDumps(expected: Array(a.utf8), actual: Array(b.utf8), schema: Self.schema)
  }

  @Test func matchesEquivalentDumps() {
    let a =
      #"{"$class":"A","$key":0,"f":0.1,"d":1,"dec":{"$decimal":"1.50"},"s":[3,1,1],"m":{"$double":2},"e":{"$class":"E","x":1.5}}"#
    let b =
      #"{"$key":0,"$class":"A","d":1.0,"f":0.10000000149,"dec":{"$decimal":"15E-1"},"s":[1,3,1],"m":{"$double":2.0},"e":{"x":1.5,"$class":"E"}}"#
    expectEqual(diff(a + "\n", b + "\n\n"), [])
  }

  @Test func findsRealDifferences() {
    let a = #"{"$class":"A","$key":0,"f":1,"d":0.0,"dec":null,"s":[1,1,3],"m":1,"e":null}"#
    // One difference each: -0.0, a collection element, a mixed 1.0 for 1, the key.
    for other in [
      #"{"$class":"A","$key":0,"f":1,"d":-0.0,"dec":null,"s":[1,1,3],"m":1,"e":null}"#,
      #"{"$class":"A","$key":0,"f":1,"d":0.0,"dec":null,"s":[1,3,3],"m":1,"e":null}"#,
      #"{"$class":"A","$key":0,"f":1,"d":0.0,"dec":null,"s":[1,1,3],"m":1.0,"e":null}"#,
      #"{"$class":"A","$key":1,"f":1,"d":0.0,"dec":null,"s":[1,1,3],"m":1,"e":null}"#,
    ] {
      expectEqual(diff(a, other).count, 1, "\(other)")
    }
    #expect(
      diff(a, #"{"$class":"A","$key":0,"f":1,"d":0.0,"s":[1,1,3],"m":1,"e":null}"#)
        == [#"line 1 ("A" key 0): differs in ["dec"]: expected {"dec":null} got {"dec":null}"#])
    expectEqual(diff(a, a + "\n" + a), ["line count: expected 1, got 2"])
    expectEqual(diff(a, "{").first?.hasPrefix("actual:1: not JSON"), true)
  }

  /// Lines with the same bytes are taken as equal without being normalised; the others are
  /// still compared by meaning, with their line numbers.
  @Test func comparesOnlyTheLinesWhoseBytesDiffer() {
    let a = #"{"$class":"A","$key":0,"f":1,"d":0.0,"dec":null,"s":[1,1,3],"m":1,"e":null}"#
    let sameMeaning = #"{"$key":0,"$class":"A","f":1,"d":0,"dec":null,"s":[3,1,1],"m":1,"e":null}"#
    let other = #"{"$class":"A","$key":0,"f":1,"d":0.0,"dec":null,"s":[1,1,3],"m":2,"e":null}"#
    expectEqual(diff([a, a, a].joined(separator: "\n"), [a, a, a].joined(separator: "\n")), [])
    expectEqual(diff([a, a, a].joined(separator: "\n"), [a, sameMeaning, a].joined(separator: "\n")), [])
    let found = diff([a, a, a].joined(separator: "\n"), [a, a, other].joined(separator: "\n"))
    #expect(found.count == 1 && found[0].hasPrefix("line 3 ") && found[0].contains(#"["m"]"#), "\(found)")
  }

  @Test func comparesSchemasWithOrWithoutPropertyOrder() {
    let e =
      #"{"schemaVersion": 1, "fileFormat": 24, "classes": [{"name": "A", "embedded": false, "primaryKey": null, "properties": [{"name": "a", "type": "int", "optional": false, "indexed": false}, {"name": "b", "type": "string", "optional": true, "indexed": false}]}]}"#
    let swapped =
      #"{"schemaVersion": 1, "fileFormat": 24, "classes": [{"name": "A", "embedded": false, "primaryKey": null, "properties": [{"name": "b", "type": "string", "optional": true, "indexed": false}, {"name": "a", "type": "int", "optional": false, "indexed": false}]}]}"#
    #expect(
      DumpComparison.compareSchemas(
        expected: Array(e.utf8), actual: Array(swapped.utf8), anyPropertyOrder: true) == [])
    #expect(
      DumpComparison.compareSchemas(expected: Array(e.utf8), actual: Array(swapped.utf8))
        == [#"class A: properties expected ["a", "b"], got ["b", "a"]"#])
    let changed = e.replacingOccurrences(of: #""optional": true"#, with: #""optional": false"#)
      .replacingOccurrences(of: #""schemaVersion": 1"#, with: #""schemaVersion": null"#)
    #expect(
      DumpComparison.compareSchemas(expected: Array(e.utf8), actual: Array(changed.utf8))
        == ["schemaVersion: expected 1, got None", "A.b: optional expected True, got False"])
  }
}

@Suite struct DumpComparisonFixtureTests {
  @Test func comparesWithFixtures() throws {
    let dump = try Fixtures.bytes("person-add-email/after.dump.jsonl")
    #expect(
      DumpComparison.compareDumpWithFixture(
        "person-add-email/after.dump.jsonl", schema: "person-add-email/after.schema.json",
        actual: dump) == [])
    #expect(
      DumpComparison.compareDumpWithFixture(
        "person-add-email/dump.jsonl", schema: "person-add-email/schema.json", actual: dump
      ).isEmpty == false)
    #expect(
      DumpComparison.compareDumpWithFixture(
        "nope/dump.jsonl", schema: "nope/schema.json", actual: dump
      ).first?.hasPrefix("cannot read fixture") == true)
    // A missing member and an explicit null are the same, as in the script.
    let a =
      #"{"schemaVersion": null, "fileFormat": 24, "classes": [{"name": "A", "properties": [{"name": "x", "type": "int", "optional": false, "indexed": false}]}]}"#
    let b =
      #"{"fileFormat": 24, "classes": [{"name": "A", "embedded": null, "primaryKey": null, "properties": [{"name": "x", "type": "int", "objectType": null, "optional": false, "indexed": false}]}]}"#
    expectEqual(DumpComparison.compareSchemas(expected: Array(a.utf8), actual: Array(b.utf8)), [])
  }
}
