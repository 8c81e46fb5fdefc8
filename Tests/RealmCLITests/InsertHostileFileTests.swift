import Foundation
import RealmFormat
import RealmJSON
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

/// `insert` (plain, streamed, with `$key`, `--upsert`) and `diff` on files whose inner cluster
/// node claims far more objects than its leaves hold. That count is the file's unverified word:
/// the upsert once sized two arrays with it (`keysAndInts`), the other key walks and `diff`'s
/// stable dump too, and the rewrite summed it. It must size nothing and add up to no trap: the
/// edits refuse the file (65, a message naming the count) and leave it byte for byte.
@Suite struct InsertHostileFileTests {
  typealias T = CommandTestSupport

  /// A class of the crafted files: `objects` objects (more than one leaf of 256, so the
  /// cluster root is an inner node), `claimed` the count its root is made to say.
  struct Crafted {
    var schema: ObjectSchema
    var objects: Int
    var claimed: Int64?
  }

  static func item(_ name: String = "Item", primaryKey: PropertyType? = .int) -> ObjectSchema {
    ObjectSchema(name: name, primaryKey: primaryKey == nil ? nil : "_id", properties: [
      Property(name: "_id", type: primaryKey ?? .int, isIndexed: primaryKey != nil),
      Property(name: "value", type: .int),
    ])
  }

  /// The file of `classes`, each inner cluster root saying its class's `claimed` count; the
  /// root is re-encoded 64 bits wide so that any count fits. `_id`s are 0, 10, 20, … (or
  /// "s0", "s1", … for string keys).
  static func file(_ classes: [Crafted]) throws -> [UInt8] {
    var objects: [(className: String, values: [RealmValue])] = []
    for c in classes {
      for i in 0..<c.objects {
        let id: RealmValue = c.schema.properties[0].type == .string ? .string("s\(i)") : .int(Int64(i) * 10)
        objects.append((c.schema.name, [id, .int(Int64(i))]))
      }
    }
    let claims = Dictionary(uniqueKeysWithValues: classes.compactMap { c in c.claimed.map { (Int64(c.objects) << 1 | 1, $0) } })
    let (bytes, rewritten) = try CraftedFiles.file(classes: classes.map(\.schema), objects: objects) { node in
      guard let (header, elements) = try? RewritingNodeSink.elements(of: node),
        header.isInner, header.hasRefs, elements.count >= 4, elements[1] == 3,  // depth 1
        let claimed = claims[elements[2]]  // the real count
      else { return nil }
      // A claim of Int.max is the all-ones slot (the largest tagged value).
      return try? RewritingNodeSink.widened(node, setting: 2, to: claimed == .max ? -1 : claimed << 1 | 1)
    }
    try #require(rewritten == claims.count, "an inner cluster root was not found")
    return bytes
  }

  /// Runs `words` (with `FILE` for the crafted file's path, `DATA` for a JSON Lines file of
  /// `lines`) on `bytes`: refused with 65, a message naming `claimed`, the file unchanged.
  static func expectRefusal(
    _ words: [String], on bytes: [UInt8], lines: String, claimed: Int64, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("hostile.realm").path
      try T.write(bytes, to: path)
      let data = try T.write(lines, to: dir, as: "data.jsonl")
      let r = T.run(words.map { $0 == "FILE" ? path : $0 == "DATA" ? data : $0 })
      expectEqual(r.status, 65, "\(r.stdout)\(r.stderr)", sourceLocation: sourceLocation)
      #expect(r.stderr.hasPrefix("Error: 'hostile.realm' is not a valid Realm file: "), "\(r.stderr)", sourceLocation: sourceLocation)
      #expect(r.stderr.contains("\(claimed) objects"), "\(r.stderr)", sourceLocation: sourceLocation)
      #expect(TestFiles.same(try T.bytes(path), bytes), "the refused command changed the file", sourceLocation: sourceLocation)
    }
  }

  /// One update of an existing object and one new object.
  static let upserts = """
    {"$class":"Item","_id":10,"value":-1}
    {"$class":"Item","_id":100000,"value":-2}

    """

  static let absurd: [Int64] = [1 << 40, 1 << 61, .max, 301]

  @Test("insert --upsert (int primary keys read from the leaves) refuses an absurd object count", arguments: absurd)
  func upsertOfIntKeysRefusesAbsurdCount(claimed: Int64) throws {
    let bytes = try Self.file([Crafted(schema: Self.item(), objects: 300, claimed: claimed)])
    try Self.expectRefusal(["insert", "FILE", "DATA", "--upsert"], on: bytes, lines: Self.upserts, claimed: claimed)
  }

  @Test("insert --upsert (string primary keys, the general walk) refuses an absurd object count", arguments: absurd)
  func upsertOfStringKeysRefusesAbsurdCount(claimed: Int64) throws {
    let bytes = try Self.file([Crafted(schema: Self.item(primaryKey: .string), objects: 300, claimed: claimed)])
    let lines = #"{"$class":"Item","_id":"s1","value":-1}"# + "\n"
    try Self.expectRefusal(["insert", "FILE", "DATA", "--upsert"], on: bytes, lines: lines, claimed: claimed)
  }

  @Test("insert with $key (the file's keys walked) refuses an absurd object count", arguments: absurd)
  func insertWithKeysRefusesAbsurdCount(claimed: Int64) throws {
    let bytes = try Self.file([Crafted(schema: Self.item(primaryKey: nil), objects: 300, claimed: claimed)])
    let lines = #"{"$class":"Item","$key":5000,"_id":1,"value":-1}"# + "\n"
    try Self.expectRefusal(["insert", "FILE", "DATA"], on: bytes, lines: lines, claimed: claimed)
  }

  @Test("the streamed insert (new clusters appended to the tree) refuses an absurd object count", arguments: absurd)
  func streamedInsertRefusesAbsurdCount(claimed: Int64) throws {
    let bytes = try Self.file([Crafted(schema: Self.item(primaryKey: nil), objects: 300, claimed: claimed)])
    let lines = #"{"$class":"Item","_id":1,"value":-1}"# + "\n"
    try Self.expectRefusal(["insert", "FILE", "DATA"], on: bytes, lines: lines, claimed: claimed)
  }

  /// Two other classes claiming Int.max objects each: the rewrite's progress total once added
  /// them up and trapped. The upserted class is sound, so the file is rewritten, from its
  /// leaves: every class holds the objects its leaves held, and the file checks clean. (CSV
  /// input: JSON Lines would take the streamed upsert, which leaves the other classes alone.)
  @Test func rewriteBesideClassesClaimingIntMaxDoesNotTrap() throws {
    let bytes = try Self.file([
      Crafted(schema: Self.item(), objects: 300),
      Crafted(schema: Self.item("Junk1", primaryKey: nil), objects: 301, claimed: .max),
      Crafted(schema: Self.item("Junk2", primaryKey: nil), objects: 302, claimed: .max),
    ])
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("hostile.realm").path
      try T.write(bytes, to: path)
      let data = try T.write("_id,value\n10,-1\n100000,-2\n", to: dir, as: "data.csv")
      let r = T.run(["insert", path, data, "--class", "Item", "--upsert", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let report = try JSONParser.parse(r.stdout)
      #expect(report["path"] == .string("rewrite") && report["inserted"] == .int(1) && report["updated"] == .int(1), "\(r.stdout)")
      try expectEqual(T.problems(path), [])
      let open = T.run(["open", path, "--json"])
      guard case .array(let classes)? = try JSONParser.parse(open.stdout)["classes"] else {
        Issue.record("open --json has no classes: \(open.stdout)")
        return
      }
      for (name, n) in [("Item", 301), ("Junk1", 301), ("Junk2", 302)] {
        let entry = classes.first { $0["name"] == .string(name) }
        expectEqual(entry?["objects"], .int(Int64(n)), "\(name): \(open.stdout)")
      }
    }
  }

  /// `dump --for-diff` (the stable dump `git diff` reads) walks a class with a primary key into
  /// a stable order: the count once sized that walk's array. Both it and `diff OLD NEW` see the
  /// objects the leaves hold, as in the sound file.
  @Test("dump --for-diff and diff do not size anything with an absurd object count", arguments: absurd.dropLast())
  func stableDumpOfAbsurdCount(claimed: Int64) throws {
    let sound = try Self.file([Crafted(schema: Self.item(), objects: 300)])
    let hostile = try Self.file([Crafted(schema: Self.item(), objects: 300, claimed: claimed)])
    try T.inScratchDirectory { dir in
      let old = dir.appendingPathComponent("old.realm").path
      let new = dir.appendingPathComponent("new.realm").path
      try T.write(sound, to: old)
      try T.write(hostile, to: new)
      let expected = T.run(["dump", old, "--for-diff"])
      let dumped = T.run(["dump", new, "--for-diff"])
      expectEqual(dumped.status, 0, "\(dumped.stderr)")
      #expect(dumped.stdout == expected.stdout && expected.stdout.contains(#""_id":2990"#))
      let diff = T.run(["diff", old, new])
      #expect(diff.status == 0 && diff.stdout.isEmpty, "\(diff.stdout)\(diff.stderr)")
      #expect(TestFiles.same(try T.bytes(new), hostile))
    }
  }

  /// The streamed insert merges new primary keys into the file's int index: an index whose
  /// leaves are out of order (children of its inner node swapped) is rebuilt from the column,
  /// not extended into an index out of order, so every object is found by its key afterwards;
  /// the leaf the merge wrote before it gave up is freed (it was left in the file, neither a
  /// node nor free space, which Realm Core's verify refuses).
  @Test func streamedInsertRebuildsAnIndexOutOfOrder() throws {
    let objects = (0..<2500).map { i in (className: "Item", values: [RealmValue.int(Int64(i) * 10), .int(Int64(i))]) }
    let (bytes, rewritten) = try CraftedFiles.file(
      classes: [Self.item()], objects: objects, rewriting: RewritingNodeSink.innerIndexNodeWithChildrenSwapped)
    try #require(rewritten == 1, "the primary key's index has no inner node")
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("swapped.realm").path
      try T.write(bytes, to: path)
      try expectEqual(T.problems(path), [])  // the index's leaves are out of order, not its space
      let data = try T.write(#"{"$class":"Item","_id":-7,"value":1}"# + "\n", to: dir, as: "one.jsonl")
      let r = T.run(["insert", path, data, "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let problems = try T.problems(path)
      expectEqual(problems, [], "\(problems)")
      for id in [-7, 0, 10, 9990, 24990] {
        let found = T.run(["dump", path, "--class", "Item", "--where", "_id == \(id)", "--format", "jsonl"])
        #expect(found.status == 0 && found.stdout.contains(#""_id":\#(id),"#), "\(id): \(found.stdout)\(found.stderr)")
      }
      if RealmOracle.core14.isAvailable {
        let failure = try RealmOracle.core14.verifyFailure(path)
        #expect(failure == nil, "\(failure ?? "")")
      }
    }
  }

  /// The same file with its true count is upserted: the refusals above are the count's doing.
  @Test func theSameFileWithItsTrueCountIsUpserted() throws {
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("sound.realm").path
      try T.write(try Self.file([Crafted(schema: Self.item(), objects: 300, claimed: 300)]), to: path)
      let data = try T.write(Self.upserts, to: dir, as: "up.jsonl")
      let r = T.run(["insert", path, data, "--upsert", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let report = try JSONParser.parse(r.stdout)
      #expect(report["inserted"] == .int(1) && report["updated"] == .int(1), "\(r.stdout)")
      try expectEqual(T.problems(path), [])
    }
  }
}
