import Foundation
import RealmModel
import RealmTestSupport
import Testing

import RealmJSON
@testable import RealmExport

@Suite struct SchemaFormatTests {
  static func fixtureSchema(_ name: String) throws -> Schema {
    try SchemaJSON.decode(try Fixtures.bytes("\(name)/schema.json"))
  }

  /// The Swift type Realm Swift uses for each alltypes property, derived from its name
  /// (`<type>_req`, `<type>_opt`, `<type>_list_opt`, …), independently of the formatter.
  static func expectedSwiftType(_ name: String) -> String? {
    let swift = [
      "bool": "Bool", "int": "Int", "float": "Float", "double": "Double",
      "decimal128": "Decimal128",
      "objectId": "ObjectId", "uuid": "UUID", "string": "String", "data": "Data", "date": "Date",
    ]
    let fixed = [
      "_id": "Int", "mixed_val": "AnyRealmValue", "mixed_list": "List<AnyRealmValue>",
      "mixed_set": "MutableSet<AnyRealmValue>", "mixed_dictionary": "Map<String, AnyRealmValue>",
      "target": "Target?", "targetList": "List<Target>", "targetSet": "MutableSet<Target>",
      "targetDict": "Map<String, Target?>", "embedded": "EmbeddedThing?",
      "embeddedList": "List<EmbeddedThing>", "embeddedDict": "Map<String, EmbeddedThing?>",
      "self": "AllTypes?",
    ]
    if let f = fixed[name] { return f }
    var parts = name.split(separator: "_").map(String.init)
    let optional = parts.last == "opt"
    if optional { parts.removeLast() }
    guard let base = swift[parts[0]] else { return nil }
    let element = optional ? base + "?" : base
    switch parts.count > 1 ? parts[1] : "req" {
    case "req": return element
    case "list": return "List<\(element)>"
    case "set": return "MutableSet<\(element)>"
    case "dictionary": return "Map<String, \(element)>"
    default: return nil
    }
  }

  @Test func swiftDeclaresEveryAllTypesPropertyWithItsRealmSwiftType() throws {
    let schema = try Self.fixtureSchema("alltypes")
    let out = SwiftModelFormatter.render(schema)
    #expect(
      out.hasPrefix(
        "// Realm Swift models for this file (schema version 1).\n// Open it with Realm.Configuration(schemaVersion: 1).\nimport Foundation\nimport RealmSwift\n"
      ))
    #expect(out.contains("\nclass AllTypes: Object {\n"))
    #expect(out.contains("\nclass EmbeddedThing: EmbeddedObject {\n"))
    #expect(
      out.contains("\nclass Target: Object {\n    @Persisted(primaryKey: true) var name: String\n"))
    let lines = out.split(separator: "\n").map(String.init)
    let all = try #require(schema.objectSchema(named: "AllTypes"))
    for p in all.properties {
      let expected = try #require(Self.expectedSwiftType(p.name), "no expectation for \(p.name)")
      let name = p.name == "self" ? "`self`" : p.name
      let attribute =
        p.name == "_id" ? "(primaryKey: true)" : (p.isIndexed ? "(indexed: true)" : "")
      #expect(lines.contains("    @Persisted\(attribute) var \(name): \(expected)"), "\(p.name)")
    }
    let persisted: Int = lines.filter { $0.hasPrefix("    @Persisted") }.count
    let properties: Int = schema.classes.map(\.properties.count).reduce(0, +)
    expectEqual(persisted, properties)
    // Indexed properties from the schema (string_req, int_opt, uuid_opt).
    #expect(lines.contains("    @Persisted(indexed: true) var string_req: String"))
    #expect(lines.contains("    @Persisted(indexed: true) var uuid_opt: UUID?"))
  }

  @Test func swiftMapsNamesThatAreNotIdentifiers() {
    let cls = ObjectSchema(
      name: "my-class",
      properties: [
        Property(name: "first name", type: .string),
        Property(name: "class", type: .int, isOptional: true),
      ])
    let out = SwiftModelFormatter.render(cls)
    #expect(
      out == """
        // Stored as class 'my-class'.
        class my_class: Object {
            override class func _realmObjectName() -> String? { "my-class" }
            @Persisted var first_name: String
            @Persisted var `class`: Int?

            override class public func propertiesMapping() -> [String: String] {
                ["first_name": "first name"]
            }
        }

        """)
  }

  @Test func textShowsClassesTypesAndFlags() throws {
    let schema = try Self.fixtureSchema("alltypes")
    let out = SchemaTextFormatter.render(
      schema, objectCounts: ["AllTypes": 600, "EmbeddedThing": 1, "Target": 11])
    let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    expectEqual(lines[0], "schema version 1, file format 24, 3 classes")
    expectEqual(lines[2], "AllTypes (primary key _id, 600 objects)")
    #expect(lines.contains("EmbeddedThing (embedded, 1 object)"))
    #expect(lines.contains("Target (primary key name, 11 objects)"))
    let width = "decimal128_dictionary_opt".count
    func row(_ name: String, _ type: String, _ flags: String = "") -> String {
      let n = name.padding(toLength: width, withPad: " ", startingAt: 0)
      if flags.isEmpty { return "  \(n)  \(type)" }
      return
        "  \(n)  \(type.padding(toLength: "EmbeddedThing?{}".count, withPad: " ", startingAt: 0))  \(flags)"
    }
    #expect(lines.contains(row("_id", "int", "primary key")))
    #expect(lines.contains(row("bool_opt", "bool?")))
    #expect(lines.contains(row("int_opt", "int?", "indexed")))
    #expect(lines.contains(row("bool_list_opt", "bool?[]")))
    #expect(lines.contains(row("int_set", "int<>")))
    #expect(lines.contains(row("string_dictionary_opt", "string?{}")))
    #expect(lines.contains(row("mixed_val", "mixed")))
    #expect(lines.contains(row("targetList", "Target[]")))
    #expect(lines.contains(row("targetDict", "Target?{}")))
    #expect(lines.contains(row("embedded", "EmbeddedThing?")))
    #expect(lines.contains(row("self", "AllTypes?")))
  }

  @Test func textOfAnEmptyUnversionedSchema() {
    let out = SchemaTextFormatter.render(Schema(schemaVersion: nil, fileFormat: 11, classes: []))
    expectEqual(out, "no schema version, file format 11, 0 classes\n")
  }

  @Test func everyFormatRendersEveryFixtureSchema() throws {
    for name in ["alltypes", "embedded", "nested-links", "strings", "user-tutorial"] {
      let schema = try Self.fixtureSchema(name)
      expectEqual(SchemaFormat.json.render(schema), (try Fixtures.bytes("\(name)/schema.json")))
      let swift = String(decoding: SchemaFormat.swift.render(schema), as: UTF8.self)
      let text = String(decoding: SchemaFormat.text.render(schema), as: UTF8.self)
      for cls in schema.classes {
        #expect(
          swift.contains("class \(cls.name): \(cls.isEmbedded ? "EmbeddedObject" : "Object") {"))
        #expect(text.contains("\n\(cls.name)"))
        for p in cls.properties {
          #expect(text.contains("  \(p.name) "), "\(name).\(cls.name).\(p.name)")
        }
      }
    }
  }
}
