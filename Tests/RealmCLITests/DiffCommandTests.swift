import Foundation
import RealmFormat
import RealmModel
import RealmJSON
import RealmMigration
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmCLI
import RealmDiff

/// `realmctl diff OLD NEW`: schema changes as Realm reports them, object changes as the two
/// dumps differ, output formats and exit codes.
@Suite struct DiffCommandTests {
  typealias T = CommandTestSupport

  /// Two versions of a file written by Realm: a migration case's `before` and `after`, or two
  /// consecutive steps of `user-tutorial/steps`. Each side is `<prefix>realm`,
  /// `<prefix>schema.json` and `<prefix>dump.jsonl` (prefix `before.`/`` or `after.`).
  struct MigrationPair: Sendable, CustomStringConvertible {
    var location: FixtureLocation
    var old: (realm: String, schema: String, dump: String)
    var new: (realm: String, schema: String, dump: String)
    var description: String { "\(location): \(old.realm) -> \(new.realm)" }

    func path(_ relative: String) throws -> String { try location.path(relative) }
    func text(_ relative: String) throws -> String { String(decoding: try location.bytes(relative), as: UTF8.self) }
  }

  /// Every migration case with an `after.realm` written by Realm, in `Tests/Fixtures` and in
  /// `../shared/fixtures`, and the steps of `user-tutorial`.
  static let migrationPairs: [MigrationPair] = FixtureLocation.allCases.filter(\.isAvailable).flatMap { location in
    var pairs: [MigrationPair] = location.listing("").filter {
      location.exists("\($0)/after.realm") && location.exists("\($0)/after.dump.jsonl")
    }.map { name in
      MigrationPair(
        location: location, old: ("\(name)/before.realm", "\(name)/schema.json", "\(name)/dump.jsonl"),
        new: ("\(name)/after.realm", "\(name)/after.schema.json", "\(name)/after.dump.jsonl"))
    }
    var previous = ("user-tutorial/before.realm", "user-tutorial/schema.json", "user-tutorial/dump.jsonl")
    for step in ["v1", "v2", "v3"] where location.exists("user-tutorial/steps/\(step)/after.realm") {
      let next = ("user-tutorial/steps/\(step)/after.realm", "user-tutorial/steps/\(step)/after.schema.json", "user-tutorial/steps/\(step)/after.dump.jsonl")
      pairs.append(MigrationPair(location: location, old: previous, new: next))
      previous = next
    }
    return pairs
  }

  /// For every pair: the schema lines that need a migration are exactly Realm's "Migration is
  /// required" lines for opening the old file with the new file's schema at the old version.
  @Test(RealmOracle.enabled, arguments: migrationPairs)
  func schemaChangesAreRealms(_ pair: MigrationPair) throws {
    try T.inScratchDirectory { dir in
      let out = T.run(["diff", try pair.path(pair.old.realm), try pair.path(pair.new.realm), "--format", "jsonl"])
      expectEqual(out.status, 1, "\(out.stderr)")
      let ours = try Self.lines(out.stdout).filter { $0["change"] == .string("schema") && $0["needsMigration"] == .bool(true) }
        .compactMap { line -> String? in if case .string(let m)? = line["message"] { "- " + m } else { nil } }
      let version = try #require(try SchemaJSON.decode(pair.location.bytes(pair.old.schema)).schemaVersion)
      let copy = dir.appendingPathComponent("copy.realm").path
      try T.write(try pair.location.bytes(pair.old.realm), to: copy)
      let realm = try RealmOracle.core14.open(copy, schema: try pair.path(pair.new.schema), version: version)
      let realmLines = realm == "ok" ? [] : realm.split(separator: "\n").dropFirst().map(String.init)
      if realm != "ok" { #expect(realm.hasPrefix("Migration is required due to the following errors:"), "\(realm)") }
      expectEqual(ours, realmLines, "\(pair)")
      let versionLine = try Self.lines(out.stdout).first { $0["change"] == .string("schemaVersion") }
      expectEqual(versionLine?["old"], .int(version))
    }
  }

  /// For every pair: the objects reported added, removed and changed (and which properties)
  /// are those that differ between Realm's dumps of the two files.
  @Test(arguments: migrationPairs)
  func objectChangesAgreeWithTheDumps(_ pair: MigrationPair) throws {
    let out = T.run(["diff", try pair.path(pair.old.realm), try pair.path(pair.new.realm), "--format", "jsonl"])
    expectEqual(out.status, 1, "\(out.stderr)")
    let ours = Set(try Self.lines(out.stdout).compactMap(Self.objectChange))
    let expected = try Self.dumpDifferences(
      oldSchema: SchemaJSON.decode(pair.location.bytes(pair.old.schema)),
      newSchema: SchemaJSON.decode(pair.location.bytes(pair.new.schema)),
      old: Self.lines(pair.text(pair.old.dump)), new: Self.lines(pair.text(pair.new.dump)))
    expectEqual(ours, expected, "\(pair): only ours \(ours.subtracting(expected).sorted().prefix(5)), only the dumps' \(expected.subtracting(ours).sorted().prefix(5))")
  }

  /// A file rebuilt from Realm's own dump of it (every type, edge values, embedded objects,
  /// links in mixed collections) is the same file; an upgraded copy differs only in format.
  @Test func rebuiltAndUpgradedCopiesCompareEqual() throws {
    try T.inScratchDirectory { dir in
      for name in ["alltypes", "embedded", "nested-links"] {
        let copy = dir.appendingPathComponent("\(name).realm").path
        let created = T.run([
          "create", "--schema", fixturePath("\(name)/schema.json"), "--data", fixturePath("\(name)/dump.jsonl"), copy, "--quiet",
        ])
        try #require(created.status == 0, "\(created.stderr)")
        let out = T.run(["diff", fixturePath("\(name)/before.realm"), copy])
        expectEqual(out.status, 0, "\(name): \(out.stdout)\(out.stderr)")
        #expect(out.stdout.isEmpty)
      }
      // An upgrade keeps every class, object and key: only the file format differs.
      let old = try T.copy("legacy-generated/sample.realm", to: dir, as: "old.realm")
      let new = dir.appendingPathComponent("new.realm").path
      expectEqual(T.run(["upgrade", old, "--output", new, "--quiet"]).status, 0)
      let out = T.run(["diff", old, new])
      expectEqual(out.status, 1)
      expectEqual(out.stdout, "File format: 9 -> 24\n")
    }
  }

  /// Two files made for the purpose: a primary-key class whose objects moved to other keys,
  /// links that point at the same object under another key, an embedded value changed.
  @Test func matchesByPrimaryKeyAndComparesInsideEmbeddedObjects() throws {
    try T.inScratchDirectory { dir in
      let (old, new) = try Self.craftedPair(in: dir)
      let out = T.run(["diff", old, new, "--format", "jsonl"])
      expectEqual(out.status, 1, "\(out.stderr)")
      expectEqual(Set(out.stdout.split(separator: "\n").map(String.init)), [
        #"{"change":"changed","class":"Dog","$pk":"rex","properties":{"age":{"old":3,"new":4}}}"#,
        #"{"change":"added","class":"Dog","$pk":"max","object":{"name":"max","age":1}}"#,
        #"{"change":"changed","class":"Person","$key":0,"properties":{"address.city":{"old":"Paris","new":"Lyon"}}}"#,
        #"{"change":"removed","class":"Person","$key":2,"object":{"name":"Cy","dog":null,"address":null}}"#,
        #"{"change":"added","class":"Person","$key":3,"object":{"name":"Dee","dog":{"$ref":"Dog","$pk":"max"},"address":null}}"#,
        #"{"change":"changed","class":"Person","$key":4,"properties":{"dog":{"old":{"$ref":"Dog","$pk":"fido"},"new":{"$ref":"Dog","$pk":"spot"}}}}"#,
      ])
      let stat = T.run(["diff", old, new, "--stat"])
      expectEqual(stat.status, 1)
      expectEqual(stat.stdout, """
        Dog     1 added, 0 removed, 1 changed
        Person  1 added, 1 removed, 2 changed
        6 objects differ in 2 classes

        """)
      let narrowed = T.run(["diff", old, new, "--class", "Person", "--where", "name BEGINSWITH 'D' OR name == 'Cy'", "--format", "jsonl"])
      expectEqual(narrowed.status, 1)
      expectEqual(narrowed.stdout.split(separator: "\n").count, 2, "\(narrowed.stdout)")
      #expect(!narrowed.stdout.contains("\"Ada\""))
      #expect(narrowed.stdout.contains("\"Dee\""))
      #expect(narrowed.stdout.contains("\"Cy\""))
      let noMatch = T.run(["diff", old, new, "--class", "Person", "--where", "name == 'Nobody'"])
      expectEqual(noMatch.status, 0)
      #expect(noMatch.stdout.isEmpty)
    }
  }

  @Test func textIsColouredOnATerminalUnlessNoColor() throws {
    try T.inScratchDirectory { dir in
      let (old, new) = try Self.craftedPair(in: dir)
      func run(_ environment: [String: String]) -> String {
        let out = TextOutput.memory()
        let err = TextOutput.memory()
        let status = RealmCtl.run(
          arguments: ["diff", old, new], standardOutput: out, standardError: err, environment: environment,
          terminal: Terminal(isStandardOutputTerminal: true, isStandardErrorTerminal: true, usesColor: true))
        expectEqual(status, 1)
        return out.text
      }
      let coloured = run([:])
      #expect(coloured.contains("\u{1B}[32m  + Dog(name: \"max\")"))
      let plain = run(["NO_COLOR": ""])
      #expect(!plain.contains("\u{1B}"))
      #expect(plain.contains("  ~ Dog(name: \"rex\")\n      age: 3 -> 4\n"))
      #expect(plain.contains("  - Person($key: 2) {\"name\":\"Cy\",\"dog\":null,\"address\":null}\n"))
    }
  }

  @Test func troubleExitsAboveOne() throws {
    try T.inScratchDirectory { dir in
      let a = fixturePath("alltypes/before.realm")
      let b = fixturePath("embedded/before.realm")
      expectEqual(T.run(["diff", a]).status, 64)
      expectEqual(T.run(["diff", a, b, "--schema", fixturePath("alltypes/schema.json")]).status, 64)
      expectEqual(T.run(["diff", a, b, "--where", "x > 1"]).status, 64)
      expectEqual(T.run(["diff", a, b, "--plan-skeleton"]).status, 64)
      let sorted = T.run(["diff", a, a, "--class", "AllTypes", "--where", "intValue > 1 SORT(intValue ASC)"])
      // A query is data checked against the files, like a plan (issue 28): 65, one line.
      expectEqual(sorted.status, 65, "\(sorted.stderr)")
      #expect(sorted.stderr.hasPrefix("Error: --where: ") && !sorted.stderr.contains("Usage:"), "\(sorted.stderr)")
      let unknown = T.run(["diff", a, b, "--class", "Contacts"])
      expectEqual(unknown.status, 65)
      #expect(unknown.stderr.contains("did you mean 'Contact'?"))
      expectEqual(T.run(["diff", a, dir.appendingPathComponent("missing.realm").path]).status, 66)
      let notRealm = try T.write("not a realm file, just text", to: dir, as: "x.realm")
      expectEqual(T.run(["diff", a, notRealm]).status, 65)
      // Different files: 1, with the schema in Realm's words.
      let out = T.run(["diff", a, b])
      expectEqual(out.status, 1)
      #expect(out.stdout.contains("  Class 'AllTypes' has been removed.\n"))
      #expect(out.stdout.contains("  Class 'Contact' has been added.\n"))
    }
  }

  // MARK: - Helpers

  /// Builds `old.realm` and `new.realm` with `realmctl create`.
  static func craftedPair(in dir: URL) throws -> (String, String) {
    let schema = """
      {"schemaVersion": 1, "classes": [
       {"name": "Dog", "embedded": false, "primaryKey": "name", "properties": [
         {"name": "name", "type": "string", "optional": false, "indexed": true},
         {"name": "age", "type": "int", "optional": false, "indexed": false}]},
       {"name": "Address", "embedded": true, "primaryKey": null, "properties": [
         {"name": "city", "type": "string", "optional": false, "indexed": false}]},
       {"name": "Person", "embedded": false, "primaryKey": null, "properties": [
         {"name": "name", "type": "string", "optional": false, "indexed": false},
         {"name": "dog", "type": "object", "objectType": "Dog", "optional": true, "indexed": false},
         {"name": "address", "type": "object", "objectType": "Address", "optional": true, "indexed": false}]}]}
      """
    let old = """
      {"$class":"Dog","$key":0,"name":"rex","age":3}
      {"$class":"Dog","$key":1,"name":"fido","age":5}
      {"$class":"Dog","$key":2,"name":"spot","age":7}
      {"$class":"Person","$key":0,"name":"Ada","dog":{"$ref":"Dog","$key":0},"address":{"$class":"Address","city":"Paris"}}
      {"$class":"Person","$key":1,"name":"Bob","dog":{"$ref":"Dog","$key":1},"address":null}
      {"$class":"Person","$key":2,"name":"Cy","dog":null,"address":null}
      {"$class":"Person","$key":4,"name":"Eve","dog":{"$ref":"Dog","$key":1},"address":null}
      """
    // fido moves from key 1 to 5 (Bob's link follows it: no change); spot takes key 1, so
    // Eve's link keeps key 1 but now names spot (a change).
    let new = """
      {"$class":"Dog","$key":0,"name":"rex","age":4}
      {"$class":"Dog","$key":1,"name":"spot","age":7}
      {"$class":"Dog","$key":5,"name":"fido","age":5}
      {"$class":"Dog","$key":6,"name":"max","age":1}
      {"$class":"Person","$key":0,"name":"Ada","dog":{"$ref":"Dog","$key":0},"address":{"$class":"Address","city":"Lyon"}}
      {"$class":"Person","$key":1,"name":"Bob","dog":{"$ref":"Dog","$key":5},"address":null}
      {"$class":"Person","$key":3,"name":"Dee","dog":{"$ref":"Dog","$key":6},"address":null}
      {"$class":"Person","$key":4,"name":"Eve","dog":{"$ref":"Dog","$key":1},"address":null}
      """
    let schemaPath = try T.write(schema, to: dir, as: "schema.json")
    var paths: [String] = []
    for (name, data) in [("old", old), ("new", new)] {
      let dataPath = try T.write(data + "\n", to: dir, as: "\(name).jsonl")
      let path = dir.appendingPathComponent("\(name).realm").path
      let created = T.run(["create", "--schema", schemaPath, "--data", dataPath, path])
      try #require(created.status == 0, "\(created.stderr)")
      paths.append(path)
    }
    return (paths[0], paths[1])
  }

  static func lines(_ text: String) throws -> [JSONValue] {
    try text.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
  }

  static func canonical(_ value: JSONValue) -> String {
    var w = JSONWriter(indent: 0, capacity: 64)
    w.value(value)
    return String(decoding: w.buffer, as: UTF8.self)
  }

  /// One object change of our jsonl as `kind class id [properties]`.
  static func objectChange(_ line: JSONValue) -> String? {
    guard case .string(let kind)? = line["change"], ["added", "removed", "changed"].contains(kind),
      case .string(let cls)? = line["class"]
    else { return nil }
    let id = line["$pk"].map { "pk " + canonical($0) } ?? line["$key"].map { "key " + canonical($0) } ?? "?"
    var properties: [String] = []
    if case .object(let members)? = line["properties"] {
      properties = Set(members.map { String($0.key.split(separator: ".")[0]) }).sorted()
    }
    return "\(kind) \(cls) \(id) \(properties)"
  }

  /// What differs between two dumps, in the form of ``objectChange(_:)``: objects matched by
  /// primary key where both schemas have the same one, else by `$key`; properties of both.
  static func dumpDifferences(oldSchema: Schema, newSchema: Schema, old: [JSONValue], new: [JSONValue]) -> Set<String> {
    func byClass(_ lines: [JSONValue]) -> [String: [JSONValue]] {
      Dictionary(grouping: lines) { if case .string(let c)? = $0["$class"] { c } else { "" } }
    }
    let oldLines = byClass(old)
    let newLines = byClass(new)
    var out = Set<String>()
    for cls in Set(oldLines.keys).union(newLines.keys) {
      let o = oldSchema.objectSchema(named: cls)
      let n = newSchema.objectSchema(named: cls)
      let pk: String? = {
        guard let o, let n, !o.isEmbedded, !n.isEmbedded, let p = o.primaryKey, n.primaryKey == p,
          o.property(named: p)?.type == n.property(named: p)?.type
        else { return nil }
        return p
      }()
      let inBoth = (o?.isEmbedded == false && n?.isEmbedded == false)
      func id(_ line: JSONValue) -> String {
        if let pk { return "pk " + canonical(line[pk] ?? .null) }
        return "key " + canonical(line["$key"] ?? .null)
      }
      let olds = Dictionary((oldLines[cls] ?? []).map { (id($0), $0) }) { a, _ in a }
      let news = Dictionary((newLines[cls] ?? []).map { (id($0), $0) }) { a, _ in a }
      let common = inBoth ? o!.properties.map(\.name).filter { n!.property(named: $0) != nil } : []
      for (k, line) in olds where news[k] == nil || !inBoth {
        _ = line
        out.insert("removed \(cls) \(k) []")
      }
      for (k, _) in news where olds[k] == nil || !inBoth {
        out.insert("added \(cls) \(k) []")
      }
      guard inBoth else { continue }
      for (k, a) in olds {
        guard let b = news[k] else { continue }
        let changed = common.filter { a[$0] != b[$0] }.sorted()
        if !changed.isEmpty { out.insert("changed \(cls) \(k) \(changed)") }
      }
    }
    return out
  }
}

/// `realmctl dump --for-diff`: the same data gives the same text, whatever keys Realm gave
/// the objects.
@Suite struct StableDumpTests {
  typealias T = CommandTestSupport

  @Test func sameDataUnderOtherKeysGivesTheSameText() throws {
    try T.inScratchDirectory { dir in
      let schema = """
        {"schemaVersion": 3, "classes": [
         {"name": "Dog", "embedded": false, "primaryKey": "name", "properties": [
           {"name": "name", "type": "string", "optional": false, "indexed": true},
           {"name": "friend", "type": "object", "objectType": "Dog", "optional": true, "indexed": false}]}]}
        """
      let a = """
        {"$class":"Dog","$key":0,"name":"rex","friend":{"$ref":"Dog","$key":1}}
        {"$class":"Dog","$key":1,"name":"fido","friend":null}
        """
      let b = """
        {"$class":"Dog","$key":7,"name":"fido","friend":null}
        {"$class":"Dog","$key":9,"name":"rex","friend":{"$ref":"Dog","$key":7}}
        """
      let schemaPath = try T.write(schema, to: dir, as: "s.json")
      var dumps: [String] = []
      var plain: [String] = []
      for (name, data) in [("a", a), ("b", b)] {
        let path = dir.appendingPathComponent("\(name).realm").path
        expectEqual(T.run(["create", "--schema", schemaPath, "--data", try T.write(data + "\n", to: dir, as: "\(name).jsonl"), path]).status, 0)
        let out = T.run(["dump", path, "--for-diff"])
        expectEqual(out.status, 0, "\(out.stderr)")
        dumps.append(out.stdout)
        plain.append(T.run(["dump", path, "--format", "jsonl"]).stdout)
      }
      #expect(plain[0] != plain[1])
      expectEqual(dumps[0], dumps[1])
      expectEqual(dumps[0], """
        # schema version 3, file format 24
        # Dog: primary key name; name string, friend <Dog>
        {"$class":"Dog","name":"fido","friend":null}
        {"$class":"Dog","name":"rex","friend":{"$ref":"Dog","$pk":"fido"}}

        """)
      expectEqual(T.run(["diff", dir.appendingPathComponent("a.realm").path, dir.appendingPathComponent("b.realm").path]).status, 0)
      expectEqual(T.run(["dump", dir.appendingPathComponent("a.realm").path, "--for-diff", "--format", "json"]).status, 64)
    }
  }
}

/// `diff` of encrypted files: the key applies to both; without it, the usual error.
@Suite struct DiffEncryptedTests {
  typealias T = CommandTestSupport

  @Test func encryptedFilesCompareWithTheirKey() throws {
    let old = fixturePath("encrypted/after-migrate/before.realm")
    let new = fixturePath("encrypted/after-migrate/after.realm")
    let key = fixturePath("encrypted/after-migrate/before.key")
    // Realm's migration added 'email' (optional) at version 2; the objects are the same.
    let out = T.run(["diff", old, new, "--key-file", key])
    expectEqual(out.status, 1, "\(out.stderr)")
    expectEqual(out.stdout, """
      Schema version: 1 -> 2
      Schema:
        Property 'Person.email' has been added.

      """)
    // One key for both files: a plain file given with it is refused, as everywhere.
    let plain = T.run(["diff", fixturePath("person-add-email/after.realm"), new, "--key-file", key])
    expectEqual(plain.status, 65, "a key for a plain file is refused: \(plain.stderr)")
    // A plain file and an encrypted one: the new file's key of its own. Realm's own
    // migration of the plain file and of the encrypted one give the same file.
    let mixed = T.run(["diff", fixturePath("person-add-email/after.realm"), new, "--new-key-file", key])
    expectEqual(mixed.status, 0, "\(mixed.stdout)\(mixed.stderr)")
    #expect(mixed.stdout.isEmpty)
    let check = T.run(["diff", old, "--schema", fixturePath("person-add-email/after.schema.json"), "--schema-version", "1", "--key-file", key])
    expectEqual(check.status, 1)
    expectEqual(check.stdout, "Migration is required due to the following errors:\n- Property 'Person.email' has been added.\n")
    let noKey = T.run(["diff", old, new])
    expectEqual(noKey.status, 65)
    #expect(noKey.stderr.contains("encrypted"))
  }
}

/// The progress of a diff counts the objects of both files.
@Suite struct DiffProgressTests {
  @Test func progressCountsTheObjectsOfBothFiles() throws {
    let old = try RealmFile.open(path: fixturePath("person-add-email/before.realm"))
    let new = try RealmFile.open(path: fixturePath("person-add-email/after.realm"))
    let progress = ProgressCounter()
    let diff = try RealmDiff(old: old, new: new, options: RealmDiff.Options(progress: progress))
    var changes = 0
    try diff.run { _ in changes += 1 }
    let objects = (old.group.objectCount(ofClass: "Person") ?? 0) + (new.group.objectCount(ofClass: "Person") ?? 0)
    #expect(objects > 100)
    expectEqual(progress.total, objects)
    expectEqual(progress.completed, objects)
    expectEqual(changes, 2)  // the schema version and the added property
  }
}
