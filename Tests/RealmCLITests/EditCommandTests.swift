import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// `insert`, `update` and `delete` on the fixtures: each result equals the expected objects
/// (derived from Realm's own dump of the fixture), `open --check` finds it clean, and Realm Core
/// verifies it and reads the same objects; bad input is refused with the file byte for byte as
/// it was.
@Suite struct EditCommandTests {
  typealias T = CommandTestSupport

  /// Fixtures whose `dump.jsonl` is inserted into an empty file of their schema.
  static let roundTripFixtures = ["alltypes", "embedded", "nested-links", "user-tutorial", "strings"]

  // MARK: - Helpers

  static func lines(_ text: String) throws -> [JSONValue] {
    // Split as bytes, in an optimised module: unoptimised here, a split by Characters (or even
    // by bytes) cost more than the parsing.
    try TestFiles.lines(Array(text.utf8)).map { try JSONParser.parse(Array($0)) }
  }

  static func text(_ lines: [JSONValue]) -> String {
    lines.map { v -> String in
      var w = JSONWriter()
      w.value(v)
      return String(decoding: w.buffer, as: UTF8.self)
    }.joined(separator: "\n") + "\n"
  }

  /// An empty file with the fixture's schema and schema version (written by `create`).
  static func emptyFile(_ fixture: String, in dir: URL) throws -> String {
    let schema = try T.copy("\(fixture)/schema.json", to: dir, as: "\(fixture).schema.json")
    let path = dir.appendingPathComponent("\(fixture).empty.realm").path
    let created = T.run(["create", path, "--schema", schema])
    try #require(created.status == 0, "\(created.stderr)")
    return path
  }

  /// Our dump, `open --check`, and, with the oracle, Realm's verify and Realm's dump all agree
  /// with `expected`.
  static func expectFile(_ path: String, equals expected: [JSONValue], schema fixture: String, verify: Bool = true) throws {
    let schema = try JSONParser.parse(try Fixtures.bytes("\(fixture)/schema.json"))
    let ours = T.run(["dump", path, "--format", "jsonl"])
    expectEqual(ours.status, 0, "\(ours.stderr)")
    expectEqual(DumpComparison.compareDumps(expected: expected, actual: try lines(ours.stdout), schema: schema), [])
    try expectEqual(T.problems(path), [])
    guard RealmOracle.core14.isAvailable else { return }
    if verify { #expect(try RealmOracle.core14.verifyFailure(path) == nil) }
    let realms = try lines(try RealmOracle.core14.dump(path))
    expectEqual(DumpComparison.compareDumps(expected: expected, actual: realms, schema: schema), [])
  }

  static func fixtureDump(_ fixture: String) throws -> [JSONValue] {
    try lines(String(decoding: try Fixtures.bytes("\(fixture)/dump.jsonl"), as: UTF8.self))
  }

  /// Runs a command that must fail with 65 and leave the file byte for byte unchanged; returns
  /// its message.
  @discardableResult
  static func expectRefused(_ words: [String], file: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let before = try T.bytes(file)
    let r = T.run(words)
    expectEqual(r.status, 65, "\(words): \(r.stdout)\(r.stderr)", sourceLocation: sourceLocation)
    #expect(TestFiles.same(try T.bytes(file), before), "\(words) changed the file", sourceLocation: sourceLocation)
    return r.stderr
  }

  static func replacing(_ v: JSONValue, _ key: String, with value: JSONValue) -> JSONValue {
    guard case .object(var members) = v else { return v }
    if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = value } else { members.append(JSONMember(key, value)) }
    return .object(members)
  }

  static func removing(_ v: JSONValue, _ key: String) -> JSONValue {
    guard case .object(let members) = v else { return v }
    return .object(members.filter { $0.key != key })
  }

  // MARK: - insert

  @Test("a dump inserted into an empty file gives the same dump, keys kept", arguments: roundTripFixtures)
  func insertedDumpGivesTheSameDump(fixture: String) throws {
    try T.inScratchDirectory { dir in
      let file = try Self.emptyFile(fixture, in: dir)
      let data = try T.copy("\(fixture)/dump.jsonl", to: dir, as: "data.jsonl")
      let versionBefore = try T.schema(file)["schemaVersion"]
      let r = T.run(["insert", file, data])
      expectEqual(r.status, 0, "\(r.stderr)")
      // Realm's own verify() has a false alarm on links in collections nested in a Mixed.
      try Self.expectFile(file, equals: try Self.fixtureDump(fixture), schema: fixture, verify: fixture != "nested-links")
      try expectEqual(T.schema(file)["schemaVersion"], versionBefore)
    }
  }

  @Test("upserting a file's own dump changes nothing", arguments: roundTripFixtures)
  func upsertOfOwnDumpChangesNothing(fixture: String) throws {
    try T.withCopy(of: "\(fixture)/before.realm", as: "a.realm") { file, dir in
      let data = try T.copy("\(fixture)/dump.jsonl", to: dir, as: "data.jsonl")
      let before = try T.bytes(file)
      let r = T.run(["insert", file, data, "--upsert", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let report = try JSONParser.parse(r.stdout)
      expectEqual(report["inserted"], .int(0))
      expectEqual(report["updated"], .int(0))
      expectEqual(report["path"], .string("none"))
      #expect(TestFiles.same(try T.bytes(file), before))
    }
  }

  @Test func insertingAnExistingPrimaryKeyIsRefusedNamingIt() throws {
    try T.withCopy(of: "embedded/before.realm", as: "a.realm") { file, dir in
      let data = try T.copy("embedded/dump.jsonl", to: dir, as: "data.jsonl")
      let message = try Self.expectRefused(["insert", file, data], file: file)
      #expect(message.contains("line 1: Contact._id: an object of 'Contact' with primary key '650000000000000000000000' already exists (key 0); use --upsert"))
    }
  }

  @Test func objectsWithoutKeysGetTheKeysRealmGives() throws {
    // user-tutorial's User has no primary key; Realm gave its 100 objects keys 0-99.
    try T.inScratchDirectory { dir in
      let realms = try Self.fixtureDump("user-tutorial")
      let data = try T.write(Self.text(realms.map { Self.removing($0, "$key") }), to: dir, as: "nokeys.jsonl")
      let empty = try Self.emptyFile("user-tutorial", in: dir)
      expectEqual(T.run(["insert", empty, data]).status, 0)
      try Self.expectFile(empty, equals: realms, schema: "user-tutorial")
      // Into Realm's file: its stored key sequence (100) continues.
      let file = try T.copy("user-tutorial/before.realm", to: dir, as: "a.realm")
      expectEqual(T.run(["insert", file, data]).status, 0)
      let expected = realms + realms.enumerated().map { i, o in Self.replacing(o, "$key", with: .int(Int64(100 + i))) }
      try Self.expectFile(file, equals: expected, schema: "user-tutorial")
    }
  }

  @Test func upsertUpdatesExistingObjectsAndInsertsNewOnes() throws {
    try T.withCopy(of: "embedded/before.realm", as: "a.realm") { file, dir in
      var expected = try Self.fixtureDump("embedded")
      // Key 1 gets a new name (the line gives only _id and name: the rest is kept), and a new
      // contact with an embedded address is inserted; it gets the next key (60).
      let lines = """
        {"$class":"Contact","_id":{"$oid":"6500000000000000000003d1"},"name":"Alan M. Turing"}
        {"$class":"Contact","_id":{"$oid":"65000000000000000000ffff"},"name":"Hedy Lamarr","address":{"$class":"Address","street":"1 Main St","city":"Wien","zip":null,"geo":null}}
        """
      let data = try T.write(lines, to: dir, as: "data.jsonl")
      let r = T.run(["insert", file, data, "--upsert", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let report = try JSONParser.parse(r.stdout)
      expectEqual(report["inserted"], .int(1))
      expectEqual(report["updated"], .int(1))
      expected[1] = Self.replacing(expected[1], "name", with: .string("Alan M. Turing"))
      let newContact = try JSONParser.parse(
        #"{"$class":"Contact","$key":60,"_id":{"$oid":"65000000000000000000ffff"},"name":"Hedy Lamarr","address":{"$class":"Address","street":"1 Main St","city":"Wien","zip":null,"geo":null},"phones":[],"previous":[],"byLabel":{}}"#)
      expected.insert(newContact, at: 60)
      try Self.expectFile(file, equals: expected, schema: "embedded")
    }
  }

  @Test func newObjectsMayLinkToEachOtherAndToTheFile() throws {
    try T.withCopy(of: "nested-links/before.realm", as: "a.realm") { file, dir in
      let lines = """
        {"$class":"Holder","m":{"$ref":"Target","$key":7},"ml":[{"$ref":"Target","$key":1}],"md":{}}
        {"$class":"Target","$key":7,"name":"t7"}
        """
      let data = try T.write(lines, to: dir, as: "data.jsonl")
      expectEqual(T.run(["insert", file, data]).status, 0)
      var expected = try Self.fixtureDump("nested-links")
      expected.insert(try JSONParser.parse(#"{"$class":"Holder","$key":1,"m":{"$ref":"Target","$key":7},"ml":[{"$ref":"Target","$key":1}],"md":{}}"#), at: 1)
      expected.append(try JSONParser.parse(#"{"$class":"Target","$key":7,"name":"t7"}"#))
      try Self.expectFile(file, equals: expected, schema: "nested-links", verify: false)
    }
  }

  /// Every bad input of the issue, each refused with 65 and the file unchanged, the message
  /// naming the line, the property and the reason.
  @Test(
    "bad JSON Lines are refused with nothing written",
    arguments: [
      ("duplicate primary key in the input",
       #"{"$class":"Contact","_id":{"$oid":"650000000000000000000099"},"name":"a"}"# + "\n" + #"{"$class":"Contact","_id":{"$oid":"650000000000000000000099"},"name":"b"}"#,
       "line 2: Contact._id: primary key '650000000000000000000099' repeats the object of"),
      ("existing primary key", #"{"$class":"Contact","_id":{"$oid":"650000000000000000000000"},"name":"a"}"#, "already exists (key 0)"),
      ("wrong type", #"{"$class":"Contact","_id":{"$oid":"650000000000000000000099"},"name":5}"#, "line 1: Contact.name: expected a string, found the integer 5"),
      ("missing required property", #"{"$class":"Contact","_id":{"$oid":"650000000000000000000099"}}"#, "line 1: Contact.name: the property is required and has no value"),
      ("unknown class", #"{"$class":"Contatc","name":"a"}"#, "line 1: $class: unknown class 'Contatc'"),
      ("unknown property", #"{"$class":"Contact","_id":{"$oid":"650000000000000000000099"},"name":"a","nmae":1}"#, "class 'Contact' has no property 'nmae'"),
      ("second parent of an embedded object",
       #"{"$class":"Contact","_id":{"$oid":"650000000000000000000099"},"name":"a","address":{"$ref":"Address","$key":0}}"#,
       "line 1: Contact.address: a link to an embedded 'Address' object would give it a second parent"),
      ("an existing $key", #"{"$class":"Contact","$key":3,"_id":{"$oid":"650000000000000000000099"},"name":"a"}"#,
       "line 1: Contact.$key: key 3 belongs to another object of 'Contact' (keys never change)"),
    ])
  func badJSONLinesAreRefused(_ name: String, _ lines: String, _ message: String) throws {
    try T.withCopy(of: "embedded/before.realm", as: "a.realm") { file, dir in
      let data = try T.write(lines, to: dir, as: "bad.jsonl")
      let stderr = try Self.expectRefused(["insert", file, data], file: file)
      #expect(stderr.contains(message), "\(name): \(stderr)")
    }
  }

  @Test func aLinkToAMissingObjectIsRefused() throws {
    try T.withCopy(of: "nested-links/before.realm", as: "a.realm") { file, dir in
      let data = try T.write(#"{"$class":"Holder","m":[{"$ref":"Target","$key":9}]}"#, to: dir, as: "bad.jsonl")
      let stderr = try Self.expectRefused(["insert", file, data], file: file)
      #expect(stderr.contains("line 1: Holder.m: the link to 'Target' key 9 points to no object"))
    }
  }

  // MARK: - update

  @Test func updateWithoutWhereSetsEveryObject() throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, _ in
      let r = T.run(["update", file, "--class", "User", "--set", "age = old.age + 1", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      try expectEqual(JSONParser.parse(r.stdout)["updated"], .int(100))
      let expected = try Self.fixtureDump("user-tutorial").map { o -> JSONValue in
        guard case .int(let age)? = o["age"] else { return o }
        return Self.replacing(o, "age", with: .int(age + 1))
      }
      try Self.expectFile(file, equals: expected, schema: "user-tutorial")
      try expectEqual(T.schema(file)["schemaVersion"], .int(0))
    }
  }

  @Test func updateWithWhereSetsOnlyTheMatchingObjects() throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, _ in
      let r = T.run(["update", file, "--class", "User", "--set", "name = upper(old.name)", "--set", "age = 0", "--where", "age > 50"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let expected = try Self.fixtureDump("user-tutorial").map { o -> JSONValue in
        guard case .int(let age)? = o["age"], age > 50, case .string(let name)? = o["name"] else { return o }
        return Self.replacing(Self.replacing(o, "name", with: .string(name.uppercased())), "age", with: .int(0))
      }
      try Self.expectFile(file, equals: expected, schema: "user-tutorial")
    }
  }

  @Test func updateOfAnEmbeddedPropertyTakesTheRewrite() throws {
    try T.withCopy(of: "embedded/before.realm", as: "a.realm") { file, _ in
      let r = T.run(["update", file, "--class", "Contact", "--set", "address = null", "--where", "name BEGINSWITH 'A'", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      try expectEqual(JSONParser.parse(r.stdout)["path"], .string("rewrite"))
      let expected = try Self.fixtureDump("embedded").map { o -> JSONValue in
        guard case .string(let name)? = o["name"], name.hasPrefix("A") else { return o }
        return Self.replacing(o, "address", with: .null)
      }
      try Self.expectFile(file, equals: expected, schema: "embedded")
    }
  }

  @Test(
    "bad updates are refused with nothing written",
    arguments: [
      ["--set", "age = old.age +"], ["--set", "age = 'x'"], ["--set", "agee = 1"], ["--set", "age = old.age / 0"],
      ["--set", "age = 1", "--where", "age >"], ["--set", "age = 1", "--class", "Nobody"],
    ])
  func badUpdatesAreRefused(_ words: [String]) throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, _ in
      let classArgs = words.contains("--class") ? [] : ["--class", "User"]
      try Self.expectRefused(["update", file] + classArgs + words, file: file)
    }
  }

  // MARK: - delete

  @Test func deleteRemovesObjectsAndTheLinksToThem() throws {
    // alltypes: AllTypes links to Target (single links, lists, sets, dictionaries, mixed).
    try T.withCopy(of: "alltypes/before.realm", as: "a.realm") { file, _ in
      let all = try Self.fixtureDump("alltypes")
      let targets = all.filter { $0["$class"] == .string("Target") }
      try #require(targets.count >= 2)
      guard case .string(let doomedName)? = targets[0]["name"], case .int(let doomedKey)? = targets[0]["$key"] else {
        Issue.record("no Target")
        return
      }
      let r = T.run(["delete", file, "--class", "Target", "--where", "name == '\(doomedName)'", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      try expectEqual(JSONParser.parse(r.stdout)["deleted"], .int(1))
      func unlink(_ v: JSONValue) -> JSONValue? {
        switch v {
        case .object(let members):
          if v["$ref"] == .string("Target") && v["$key"] == .int(doomedKey) { return nil }
          return .object(members.map { JSONMember($0.key, unlink($0.value) ?? .null) })
        case .array(let items): return .array(items.compactMap(unlink))
        default: return v
        }
      }
      let expected = all.filter { !($0["$class"] == .string("Target") && $0["$key"] == .int(doomedKey)) }.map { unlink($0)! }
      try Self.expectFile(file, equals: expected, schema: "alltypes")
    }
  }

  @Test func deleteOfObjectsOwningEmbeddedObjectsNeedsCascade() throws {
    try T.withCopy(of: "embedded/before.realm", as: "a.realm") { file, _ in
      let message = try Self.expectRefused(["delete", file, "--class", "Contact", "--where", "name BEGINSWITH 'A'"], file: file)
      #expect(message.contains("give --cascade-embedded"))
      let r = T.run(["delete", file, "--class", "Contact", "--where", "name BEGINSWITH 'A'", "--cascade-embedded"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let expected = try Self.fixtureDump("embedded").filter { o in
        guard case .string(let name)? = o["name"] else { return true }
        return !name.hasPrefix("A")
      }
      try Self.expectFile(file, equals: expected, schema: "embedded")
      try Self.expectRefused(["delete", file, "--class", "Address"], file: file)
    }
  }

  @Test func deleteWithoutWhereEmptiesTheClassAndDryRunWritesNothing() throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, dir in
      let before = try T.bytes(file)
      let dry = T.run(["delete", file, "--class", "User", "--dry-run"])
      expectEqual(dry.status, 0)
      #expect(dry.stdout.contains("100 deleted"))
      #expect(TestFiles.same(try T.bytes(file), before))
      let backup = dir.appendingPathComponent("backup.realm").path
      expectEqual(T.run(["delete", file, "--class", "User", "--backup", backup]).status, 0)
      #expect(TestFiles.same(try T.bytes(backup), before))
      try Self.expectFile(file, equals: [], schema: "user-tutorial")
    }
  }

  @Test func upsertOfAClassWithoutPrimaryKeyMatchesOnKey() throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, dir in
      let data = try T.write(#"{"$class":"User","$key":3,"age":33}"# + "\n" + #"{"$class":"User","name":"New","age":1}"#, to: dir, as: "d.jsonl")
      try Self.expectRefused(["insert", file, data], file: file)
      let r = T.run(["insert", file, data, "--upsert", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      var expected = try Self.fixtureDump("user-tutorial")
      expected[3] = Self.replacing(expected[3], "age", with: .int(33))
      expected.append(try JSONParser.parse(#"{"$class":"User","$key":100,"name":"New","age":1}"#))
      try Self.expectFile(file, equals: expected, schema: "user-tutorial")
    }
  }

  @Test func encryptedRealmsStayEncryptedWithTheirKey() throws {
    try T.withCopy(of: "encrypted/person.realm", as: "a.realm") { file, dir in
      let key = try T.copy("encrypted/person.key", to: dir, as: "a.key")
      let before = T.run(["dump", file, "--key-file", key, "--format", "jsonl"])
      let data = try T.write(#"{"$class":"Person","firstName":"Ada","lastName":"Lovelace","age":36}"#, to: dir, as: "d.jsonl")
      expectEqual(T.run(["insert", file, data, "--key-file", key]).status, 0)
      expectEqual(T.run(["update", file, "--class", "Person", "--set", "age = 0", "--where", "firstName == 'Ada'", "--key-file", key]).status, 0)
      expectEqual(T.run(["delete", file, "--class", "Person", "--where", "age > 99", "--key-file", key]).status, 0)
      // Without the key the file does not open: it is still encrypted.
      expectEqual(T.run(["dump", file]).status, 65)
      let after = try Self.lines(T.run(["dump", file, "--key-file", key, "--format", "jsonl"]).stdout)
      var expected = try Self.lines(before.stdout).filter { o in
        guard case .int(let age)? = o["age"] else { return true }
        return age <= 99
      }
      expected = expected.map { o in o["firstName"] == .string("Ada") ? Self.replacing(o, "age", with: .int(0)) : o }
      // Realm Core's Table::create_object: the table's stored key sequence, squeezed
      // (GlobalKey::get_local_key), skipping keys in use. This file's 1,000 objects were created
      // with explicit keys 0-999, which left the sequence at 0: 0-255 are taken, the next
      // sequence number (256) squeezes to 65536.
      let nextKey = Int64(65536)
      expected.append(try JSONParser.parse(#"{"$class":"Person","$key":\#(nextKey),"firstName":"Ada","lastName":"Lovelace","age":0}"#))
      let schema = try JSONParser.parse(T.run(["schema", file, "--key-file", key, "--format", "json"]).stdout)
      expectEqual(DumpComparison.compareDumps(expected: expected, actual: after, schema: schema), [])
    }
  }
}
