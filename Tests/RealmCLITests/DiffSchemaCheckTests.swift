import Foundation
import RealmModel
import RealmJSON
import RealmMigration
import RealmTestSupport
import Testing

/// `realmctl diff FILE --schema S`: Realm's own answer for opening the file with an app's
/// schema, checked against Realm's recorded answers (`open-errors/`) and against Realm Core.
@Suite struct DiffSchemaCheckTests {
  typealias T = CommandTestSupport

  /// Every variant of `open-errors`: Realm's exact message and exit 1, or exit 0 where Realm
  /// opened the file.
  @Test(arguments: FixtureLocation.allCases)
  func openErrorsGiveRealmsMessages(_ location: FixtureLocation) throws {
    guard location.isAvailable else { return }
    let variants = location.listing("open-errors").filter { $0.hasSuffix(".plan.json") }
    #expect(variants.count >= 10)
    for variant in variants {
      let name = String(variant.dropLast(".plan.json".count))
      let realm = try String(decoding: location.bytes("open-errors/\(name).out.txt"), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      let out = T.run(["diff", try location.path("open-errors/before.realm"), "--schema", try location.path("open-errors/\(variant)")])
      if realm == "ok" {
        expectEqual(out.status, 0, "\(name): \(out.stdout)\(out.stderr)")
        #expect(!out.stdout.contains("Migration is required"), "\(name)")
      } else {
        expectEqual(out.status, 1, "\(name): \(out.stderr)")
        expectEqual(out.stdout.trimmingCharacters(in: .newlines), realm, "\(name)")
      }
    }
  }

  @Test func additiveChangesAreNamedAndNeedNoMigration() throws {
    let out = T.run([
      "diff", fixturePath("open-errors/before.realm"), "--schema", fixturePath("open-errors/same-version-class-added.plan.json"),
    ])
    expectEqual(out.status, 0)
    expectEqual(out.stdout, """
      No migration needed: only additive changes, which the SDK applies itself when it opens the file:
      - Class 'Dog' has been added.

      """)
  }

  /// Schemas of our own, made from real files: our verdict and message are Realm Core's.
  @Test(RealmOracle.enabled)
  func ownCasesAgreeWithRealmCore() throws {
    try T.inScratchDirectory { dir in
      var checked = 0
      for fixture in ["alltypes", "embedded", "nested-links", "open-errors"] {
        let base = try SchemaJSON.decode(Fixtures.bytes("\(fixture)/schema.json"))
        let version = try #require(base.schemaVersion)
        for (label, schema) in Self.variants(of: base) {
          for appVersion in [version - 1, version, version + 1] where appVersion >= 0 {
            let schemaPath = try T.write(String(decoding: SchemaJSON.encode(schema), as: UTF8.self), to: dir, as: "s.json")
            try Self.expectDiffAgreesWithRealmCore(
              fixture, schemaPath: schemaPath, version: appVersion, in: dir, context: "\(fixture) \(label)")
            checked += 1
          }
        }
      }
      #expect(checked > 40)
    }
  }

  /// App schemas Realm refuses before it looks at the file: refused as a bad schema file
  /// (exit 65) where the plan decoder checks the rule, else Realm's own message (exit 1).
  @Test(RealmOracle.enabled)
  func invalidAppSchemasGiveRealmsValidationMessage() throws {
    try T.inScratchDirectory { dir in
      let person = #"{"name":"Person","properties":{"firstName":"string","lastName":"string","age":"int"}}"#
      let classes = [
        #"{"name":"E","embedded":true,"primaryKey":"id","properties":{"id":"int"}},{"name":"H","properties":{"e":"E"}}"#,
        #"{"name":"E","embedded":true,"properties":{"x":"int"}},{"name":"H","properties":{"e":"E<>"}}"#,
        #"{"name":"D","primaryKey":"x","properties":{"x":"double","y":{"type":"float","indexed":true}}}"#,
        #"{"name":"D","properties":{"x":{"type":"decimal128","indexed":true},"t":{"type":"date","indexed":true}}}"#,
        #"{"name":"B","primaryKey":"x","properties":{"x":"date"}},{"name":"A","properties":{"d":{"type":"data","indexed":true}}}"#,
      ]
      var answeredAsRealm = 0
      for (i, extra) in classes.enumerated() {
        let schema = try T.write(#"{"schemaVersion":1,"schema":["# + person + "," + extra + "]}", to: dir, as: "s\(i).json")
        let copy = try T.copy("open-errors/before.realm", to: dir, as: "copy.realm")
        let realm = try RealmOracle.core14.open(copy, schema: schema, version: 1)
        #expect(realm.hasPrefix("Schema validation failed"), "\(extra): \(realm)")
        let out = T.run(["diff", fixturePath("open-errors/before.realm"), "--schema", schema])
        if out.status == 65 {
          // Refused by the plan decoder itself, naming the place in the file.
          #expect(out.stderr.contains("is not a valid app schema: schema[1]"), "\(extra): \(out.stderr)")
        } else {
          expectEqual(out.status, 1, "\(extra): \(out.stderr)")
          expectEqual(out.stdout.trimmingCharacters(in: .newlines), realm, "\(extra)")
          answeredAsRealm += 1
        }
      }
      #expect(answeredAsRealm >= 1)
    }
  }

  /// The target schema of every migration case (its `after.schema.json`, or its plan's schema
  /// where Realm refused the data): our answer at the file's version and at the target version
  /// is Realm Core's, data checks included (duplicate primary keys, objects made embedded
  /// without exactly one parent).
  @Test(RealmOracle.enabled)
  func migrationCasesAgreeWithRealmCore() throws {
    try T.inScratchDirectory { dir in
      let cases = FixtureLocation.committed.listing("").filter {
        FixtureLocation.committed.exists("\($0)/plan.json") && FixtureLocation.committed.exists("\($0)/before.realm")
      }
      #expect(cases.count >= 12)
      for name in cases {
        let plan = try PlanDecoder.decode(Fixtures.bytes("\(name)/plan.json"))
        var schema = plan.targetSchema
        if FixtureLocation.committed.exists("\(name)/after.schema.json") {
          schema = try SchemaJSON.decode(Fixtures.bytes("\(name)/after.schema.json"))
        }
        let schemaPath = try T.write(String(decoding: SchemaJSON.encode(schema), as: UTF8.self), to: dir, as: "s.json")
        let fileVersion = try #require(try SchemaJSON.decode(Fixtures.bytes("\(name)/schema.json")).schemaVersion)
        for version in Set([fileVersion, plan.schemaVersion]).sorted() {
          try Self.expectDiffAgreesWithRealmCore(name, schemaPath: schemaPath, version: version, in: dir, context: name)
        }
      }
    }
  }

  /// `diff FIXTURE/before.realm --schema S --schema-version V` answers as Realm Core does when
  /// it opens a copy of the file with that schema and version: exit 0 where Realm opens it,
  /// else exit 1 and Realm's message.
  static func expectDiffAgreesWithRealmCore(
    _ fixture: String, schemaPath: String, version: Int64, in dir: URL, context label: String
  ) throws {
    let copy = try T.copy("\(fixture)/before.realm", to: dir, as: "copy.realm")
    let realmAnswer = try RealmOracle.core14.open(copy, schema: schemaPath, version: version)
    let out = T.run(["diff", fixturePath("\(fixture)/before.realm"), "--schema", schemaPath, "--schema-version", String(version)])
    let context = "\(label) version \(version): ours \(out.stdout)\(out.stderr), Realm's \(realmAnswer)"
    if realmAnswer == "ok" {
      expectEqual(out.status, 0, "\(context)")
    } else {
      expectEqual(out.status, 1, "\(context)")
      expectEqual(out.stdout.trimmingCharacters(in: .newlines), realmAnswer, "\(context)")
    }
  }

  /// Changes of every kind to a real schema, alone and together.
  static func variants(of schema: Schema) -> [(String, Schema)] {
    var out: [(String, Schema)] = [("same", schema)]
    func edit(_ label: String, _ body: (inout Schema) -> Void) {
      var s = schema
      body(&s)
      out.append((label, s))
    }
    let top = schema.classes.indices.filter { !schema.classes[$0].isEmbedded }
    let first = top[0]
    let scalar = schema.classes[first].properties.firstIndex { $0.collection == .single && $0.type == .int && $0.name != schema.classes[first].primaryKey }
      ?? schema.classes[first].properties.firstIndex { $0.collection == .single && $0.type == .string && $0.name != schema.classes[first].primaryKey }
    edit("class added") { $0.classes.append(ObjectSchema(name: "Zebra", properties: [Property(name: "n", type: .int)])) }
    edit("property added") { $0.classes[first].properties.append(Property(name: "zz", type: .string, isOptional: true)) }
    edit("last class removed") { s in
      // Realm never drops a class: not a change.
      if let i = s.classes.indices.last(where: { j in !s.classes[j].isEmbedded && !s.classes.contains { $0.properties.contains { $0.objectType == s.classes[j].name } } }) {
        s.classes.remove(at: i)
      }
    }
    // (Realm refuses sets of embedded objects: such a schema is not valid.)
    let linkedOnlyOutsideSets = top.last { j in
      let links = schema.classes.flatMap(\.properties).filter { $0.objectType == schema.classes[j].name }
      return j != first && !links.isEmpty && !links.contains { $0.collection == .set }
    }
    if let linked = linkedOnlyOutsideSets {
      edit("made embedded") { s in
        s.classes[linked].isEmbedded = true
        s.classes[linked].primaryKey = nil
      }
    }
    if let scalar {
      edit("type changed") { $0.classes[first].properties[scalar].type = .double }
      edit("made optional") { $0.classes[first].properties[scalar].isOptional.toggle() }
      edit("indexed") { $0.classes[first].properties[scalar].isIndexed.toggle() }
      edit("removed") { $0.classes[first].properties.remove(at: scalar) }
      edit("primary key moved") { s in
        s.classes[first].primaryKey = s.classes[first].primaryKey == nil ? s.classes[first].properties[scalar].name : nil
      }
      edit("everything") { s in
        s.classes[first].properties[scalar].isOptional.toggle()
        s.classes[first].properties.append(Property(name: "zz", type: .string, isOptional: true))
        s.classes[first].properties.insert(Property(name: "aa", type: .date), at: 0)
        s.classes.append(ObjectSchema(name: "Aardvark", properties: [Property(name: "n", type: .int)]))
        for c in s.classes.indices where c != first && !s.classes[c].isEmbedded {
          s.classes[c].properties.append(Property(name: "extra", type: .bool))
        }
        if let e = s.classes.indices.first(where: { s.classes[$0].isEmbedded }) {
          s.classes[e].properties.append(Property(name: "note", type: .string, isOptional: true))
        }
      }
    }
    return out
  }

  /// The skeleton is a plan realmctl applies, after which Realm opens the file with the app's
  /// schema without a migration, the values converted.
  @Test(RealmOracle.enabled)
  func planSkeletonLeadsToTheAppSchema() throws {
    try T.inScratchDirectory { dir in
      let app = fixturePath("open-errors/same-version-type-changed.plan.json")
      let out = T.run(["diff", fixturePath("open-errors/before.realm"), "--schema", app, "--plan-skeleton"])
      expectEqual(out.status, 1)
      #expect(out.stderr.hasPrefix("Migration is required due to the following errors:"))
      let plan = try PlanDecoder.decode(Array(out.stdout.utf8))
      expectEqual(plan.schemaVersion, 2)
      let planPath = try T.write(out.stdout, to: dir, as: "plan.json")
      let copy = try T.copy("open-errors/before.realm", to: dir, as: "copy.realm")
      let migrated = T.run(["migrate", "--plan", planPath, copy, "--quiet"])
      expectEqual(migrated.status, 0, "\(migrated.stderr)")
      try expectEqual(RealmOracle.core14.open(copy, schema: app, version: 2), "ok")
      let realmDump = try RealmOracle.core14.dump(copy)
      let before = try String(decoding: Fixtures.bytes("open-errors/dump.jsonl"), as: UTF8.self)
      let oldAge = try #require(before.split(separator: "\n").first.flatMap { try? JSONParser.parse(Array($0.utf8))["age"] })
      let newAge = try #require(realmDump.split(separator: "\n").first.flatMap { try? JSONParser.parse(Array($0.utf8))["age"] })
      guard case .int(let n) = oldAge else { Issue.record("age is not an int: \(oldAge)"); return }
      expectEqual(newAge, .string(String(n)))
      // Now the app opens it as it is.
      let after = T.run(["diff", copy, "--schema", app, "--schema-version", "2"])
      expectEqual(after.status, 0, "\(after.stdout)")
    }
  }

  @Test func versionsAndBadInput() throws {
    try T.inScratchDirectory { dir in
      let realm = fixturePath("open-errors/before.realm")
      // A schema document without a version needs --schema-version.
      var schema = try SchemaJSON.decode(Fixtures.bytes("open-errors/schema.json"))
      schema.schemaVersion = nil
      let unversioned = try T.write(String(decoding: SchemaJSON.encode(schema), as: UTF8.self), to: dir, as: "u.json")
      let missing = T.run(["diff", realm, "--schema", unversioned])
      expectEqual(missing.status, 64)
      #expect(missing.stderr.contains("--schema-version"))
      expectEqual(T.run(["diff", realm, "--schema", unversioned, "--schema-version", "1"]).status, 0)
      let bad = try T.write("{\"classes\": 3}", to: dir, as: "bad.json")
      let badOut = T.run(["diff", realm, "--schema", bad])
      expectEqual(badOut.status, 65)
      #expect(badOut.stderr.contains("bad.json"))
      expectEqual(T.run(["diff", realm, "--schema", dir.appendingPathComponent("none.json").path]).status, 66)
      // JSON report for scripts.
      let json = T.run(["diff", realm, "--schema", fixturePath("open-errors/lower-version.plan.json"), "--format", "jsonl"])
      expectEqual(json.status, 1)
      let value = try JSONParser.parse(Array(json.stdout.utf8))
      expectEqual(value["verdict"], .string("versionLower"))
      expectEqual(value["message"], .string("Provided schema version 0 is less than last set version 1."))
    }
  }
}
