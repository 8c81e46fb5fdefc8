import Foundation
import RealmEdit
import RealmJSON
import RealmMigration
import RealmTestSupport
import Testing

@testable import RealmCLI

/// Every writing command, on a file with indexes of every kind (``IndexedSample``: primary
/// keys of four types, general indexes on strings, ints, bools, dates, ObjectIds, UUIDs and a
/// `mixed` of alternating types, backlinks), gives a file on which Realm's own query engine
/// answers as the data say (`IndexAgreement`), keeping every index of the original with its
/// kind, and that Realm verifies (issue 27, "done when" 2). The files start as Realm's own
/// (`oracle create`), so the commands extend, copy or rebuild indexes Realm built.
@Suite struct WriterIndexAgreementTests {
  typealias T = CommandTestSupport

  /// Realm's file of a sample (120 items, 15 persons) in `dir`, a copy to work on, and the
  /// sample for more values.
  static func setUp(_ dir: URL, format: Int = 24, seed: UInt64 = 27, fullText: Bool = false) throws
    -> (original: String, work: String, sample: IndexedSample)
  {
    var sample = IndexedSample(seed: seed, fullText: fullText)
    let lines = sample.lines(items: 120, persons: 15)
    let original = try sample.realmsFile(lines, in: dir, as: "original.realm", format: format)
    let work = dir.appendingPathComponent("work.realm").path
    try FileManager.default.copyItem(atPath: original, toPath: work)
    return (original, work, sample)
  }

  /// Runs `words`, requires success, then checks `path` with Realm: `verify`, and the
  /// agreement of its indexes with its data, its indexes those of `original`.
  static func expectGood(
    _ words: [String], _ path: String, original: String?, key: String? = nil, renamed: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    if !words.isEmpty {
      let r = T.run(words)
      try #require(r.status == 0, "\(words): \(r.stderr)", sourceLocation: sourceLocation)
    }
    try expectRealmAgrees(path, original: original, key: key, renamed: renamed, context: words.prefix(1).joined(), sourceLocation: sourceLocation)
  }

  static func expectRealmAgrees(
    _ path: String, original: String?, key: String? = nil, renamed: [String: String] = [:], context: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let failure = try RealmOracle.core14.verifyFailure(path, key: key)
    #expect(failure == nil, "\(context): Realm's verify: \(failure ?? "")", sourceLocation: sourceLocation)
    try IndexAgreement.expectAgreement(
      path, key: key, indexesOf: original, referenceKey: key, renamed: renamed, context, sourceLocation: sourceLocation)
  }

  @Test(IndexAgreement.enabled, arguments: [24, 23, 22])
  func create(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      var sample = IndexedSample(seed: 5)
      let lines = sample.lines(items: 150, persons: 12)
      let realms = try sample.realmsFile(lines, in: dir, as: "realm.realm", format: format)
      let schema = try T.write(sample.schema(format: format), to: dir, as: "schema.json")
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "data.jsonl")
      let ours = dir.appendingPathComponent("ours.realm").path
      try Self.expectGood(["create", ours, "--schema", schema, "--data", data, "--file-format", "\(format)"], ours, original: realms)
    }
  }

  /// New objects appended in place (keys after the table's), then objects that need the
  /// streamed rewrite (keys between existing ones), into Realm's file.
  @Test(IndexAgreement.enabled, arguments: [24, 23])
  func insert(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      var (original, work, sample) = try Self.setUp(dir, format: format)
      let appended = (120..<180).map { sample.item($0, persons: 15) }
      try Self.expectGood(["insert", work, try T.write(appended.joined(separator: "\n") + "\n", to: dir, as: "a.jsonl")], work, original: original)
      // Keys below the table's last: merged into the file by the rewrite.
      let merged = (0..<20).map { sample.item(1000 + $0, persons: 15).replacingOccurrences(of: "\"$key\":\(1000 + $0),", with: "") }
      try Self.expectGood(["insert", work, try T.write(merged.joined(separator: "\n") + "\n", to: dir, as: "b.jsonl")], work, original: original)
    }
  }

  /// Upserts that change indexed values of existing objects (in place), and that add objects.
  @Test(IndexAgreement.enabled, arguments: [24, 23])
  func upsert(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      var (original, work, sample) = try Self.setUp(dir, format: format)
      let changed = stride(from: 0, to: 120, by: 3).map { sample.item($0, persons: 15) }
      try Self.expectGood(
        ["insert", work, try T.write(changed.joined(separator: "\n") + "\n", to: dir, as: "u.jsonl"), "--upsert"], work, original: original)
      let mixedIn = (115..<140).map { sample.item($0, persons: 15).replacingOccurrences(of: "\"$key\":\($0),", with: "") }
      try Self.expectGood(
        ["insert", work, try T.write(mixedIn.joined(separator: "\n") + "\n", to: dir, as: "v.jsonl"), "--upsert"], work, original: original)
    }
  }

  /// Column-wise updates of indexed properties (strings, mixed, dates before 1970) and an
  /// update that takes the rewrite.
  @Test(IndexAgreement.enabled, arguments: [24, 23])
  func update(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let (original, work, _) = try Self.setUp(dir, format: format)
      for set in [
        ["name = upper(old.name)"], ["m = old.m", "count = old.count"],
        ["when = date(string(old.plain))", "plain = date('1969-12-31T23:59:59.25Z')"],
        ["code = coalesce(old.code, 'c1')", "flag = NOT old.flag"], ["owner = null", "m = old.tags[0]"],
      ] {
        try Self.expectGood(
          ["update", work, "--class", "Item"] + set.flatMap { ["--set", $0] } + ["--where", "id < 30 OR id > 90 OR m == 0"], work, original: original)
      }
      try Self.expectGood(["update", work, "--class", "Person", "--set", "name = lower(old.name)"], work, original: original)
    }
  }

  /// Column-wise updates of every item's indexed properties, one after another on the same
  /// file: from the third on, the new leaves and indexes are placed in the space earlier commits
  /// freed (held by the transaction until its commit), and Realm's queries still agree.
  @Test(IndexAgreement.enabled, arguments: [24, 23])
  func repeatedColumnUpdatesReuseFreeSpace(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let (original, work, _) = try Self.setUp(dir, format: format)
      var sizes: [Int] = []
      for round in 0..<4 {
        let set = round % 2 == 0 ? ["name = upper(old.name)", "when = date(string(old.plain))"] : ["name = lower(old.name)", "code = coalesce(old.code, 'c1')"]
        try Self.expectGood(["update", work, "--class", "Item"] + set.flatMap { ["--set", $0] }, work, original: original)
        sizes.append(try T.bytes(work).count)
      }
      #expect(sizes[3] <= sizes[1], "the file grew on every update: \(sizes)")
    }
  }

  /// A column-wise update whose transaction may hold only 4 KiB of the nodes it places in the
  /// space an earlier update freed (`MigrationOptions.heldNodesLimit`): the rest go past the
  /// end, and Realm's queries agree on every index kind the column path writes (strings,
  /// full-text, bool, date, ObjectId, UUID, int; a `mixed` goes down the rewrite path).
  @Test(IndexAgreement.enabled, arguments: [24, 23])
  func columnUpdatePastTheHeldNodesLimit(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let (original, work, _) = try Self.setUp(dir, format: format, fullText: true)
      try Self.expectGood(
        ["update", work, "--class", "Item", "--set", "name = upper(old.name)", "--set", "when = date(string(old.plain))"],
        work, original: original)
      var options = MigrationOptions()
      options.heldNodesLimit = 4 << 10
      let sets = [
        "name = lower(old.name)", "code = coalesce(old.code, 'c1')", "flag = NOT old.flag", "when = null",
        "oid = objectId()", "uid = null", "count = 1", "text = 'zebraword ' + coalesce(old.text, '')",
      ]
      let assignments = try sets.map { try #require(DataEditor.Assignment.parse($0)) }
      // The same update without the limit, on a copy: it fills more of the freed space.
      let unlimited = dir.appendingPathComponent("unlimited.realm").path
      try FileManager.default.copyItem(atPath: work, toPath: unlimited)
      _ = try DataEditor.update(path: unlimited, className: "Item", assignments: assignments)
      let result = try DataEditor.update(path: work, className: "Item", assignments: assignments, options: options)
      #expect(result.writePath == .columns && result.classes.first?.updated == 120, "\(result)")
      #expect(try T.bytes(work).count > T.bytes(unlimited).count, "the limit changed nothing")
      try Self.expectGood([], work, original: original)
    }
  }

  /// Deletes of items (with backlinks from persons), of persons (whose items lose their
  /// owner), and of everything matching a mixed value.
  @Test(IndexAgreement.enabled, arguments: [24, 23])
  func delete(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let (original, work, _) = try Self.setUp(dir, format: format)
      for (cls, query) in [("Item", "id IN {3, 10, 17, 24, 31, 66, 67, 119}"), ("Person", "name BEGINSWITH[c] 'l'"), ("Item", "m == false OR m == 0"), ("Tag", "label == nil")] {
        try Self.expectGood(["delete", work, "--class", cls, "--where", query], work, original: original)
      }
    }
  }

  /// Plans: in place (a property added with an index, an index removed and one added) and
  /// rewritten (objects deleted, a primary key moved).
  @Test(IndexAgreement.enabled, arguments: [24, 23])
  func migrate(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let (_, work, _) = try Self.setUp(dir, format: format)
      let inPlace = try T.write("""
        {"schemaVersion": 2, "schema": [
          {"name": "Code", "primaryKey": "code", "properties": {"code": "string", "n": {"type": "int", "indexed": true}}},
          {"name": "Item", "primaryKey": "id", "properties": {"id": "int", "name": {"type": "string", "indexed": true},
            "code": {"type": "string?", "indexed": true}, "flag": {"type": "bool", "indexed": true},
            "when": {"type": "date?", "indexed": true}, "plain": {"type": "date", "indexed": true},
            "oid": {"type": "objectId", "indexed": true}, "uid": {"type": "uuid?", "indexed": true},
            "m": {"type": "mixed", "indexed": true}, "count": "int?", "tags": "string[]", "owner": "Person?",
            "extra": {"type": "mixed", "indexed": true}}},
          {"name": "Person", "primaryKey": "_id", "properties": {"_id": "objectId", "name": {"type": "string", "indexed": true},
            "born": "date?", "items": "Item[]"}},
          {"name": "Tag", "primaryKey": "u", "properties": {"u": "uuid", "label": {"type": "string?", "indexed": true}}}],
         "migrations": [{"version": 2, "steps": [
           {"op": "transform", "class": "Item", "set": {"extra": "old.m", "when": "date(string(old.plain))"}}]}]}
        """, to: dir, as: "in-place.json")
      var r = T.run(["migrate", work, "--plan", inPlace])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmAgrees(work, original: nil, context: "migrate in place")
      let kinds = try IndexAgreement.indexKinds(work)
      #expect(kinds["Item.count"] == nil && kinds["Item.plain"] == "general" && kinds["Item.extra"] == "general" && kinds["Code.n"] == "general")
      let rewrite = try T.write("""
        {"schemaVersion": 3, "schema": [
          {"name": "Code", "primaryKey": "code", "properties": {"code": "string", "n": {"type": "int", "indexed": true}}},
          {"name": "Item", "primaryKey": "oidKey", "properties": {"id": {"type": "int", "indexed": true}, "name": {"type": "string", "indexed": true},
            "code": {"type": "string?", "indexed": true}, "flag": {"type": "bool", "indexed": true},
            "when": {"type": "date?", "indexed": true}, "plain": {"type": "date", "indexed": true},
            "oid": {"type": "objectId", "indexed": true}, "uid": {"type": "uuid?", "indexed": true},
            "m": {"type": "mixed", "indexed": true}, "count": "int?", "tags": "string[]", "owner": "Person?",
            "extra": {"type": "mixed", "indexed": true}, "oidKey": "string"}},
          {"name": "Person", "primaryKey": "_id", "properties": {"_id": "objectId", "name": {"type": "string", "indexed": true},
            "born": "date?", "items": "Item[]"}},
          {"name": "Tag", "primaryKey": "u", "properties": {"u": "uuid", "label": {"type": "string?", "indexed": true}}}],
         "migrations": [{"version": 3, "steps": [
           {"op": "deleteObjects", "class": "Item", "where": "id BETWEEN {20, 45}"},
           {"op": "addProperty", "class": "Item", "name": "oidKey", "type": "string"},
           {"op": "transform", "class": "Item", "set": {"oidKey": "string(old.id)", "m": "coalesce(old.m, old.owner)"}}]}]}
        """, to: dir, as: "rewrite.json")
      let before = dir.appendingPathComponent("before-rewrite.realm").path
      try FileManager.default.copyItem(atPath: work, toPath: before)
      r = T.run(["migrate", work, "--plan", rewrite])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmAgrees(work, original: before, renamed: ["Item.oidKey": "Item.id"], context: "migrate (rewrite)")
    }
  }

  @Test(IndexAgreement.enabled, arguments: [24, 23])
  func renameProperty(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let (original, work, _) = try Self.setUp(dir, format: format)
      try Self.expectGood(["rename-property", work, "Item", "name", "title", "--schema-version", "2"], work, original: original, renamed: ["Item.title": "Item.name"])
      try Self.expectGood(["rename-property", work, "Item", "m", "anything", "--schema-version", "3"], work, original: original, renamed: ["Item.title": "Item.name", "Item.anything": "Item.m"])
    }
  }

  @Test(IndexAgreement.enabled, arguments: [24, 23, 22])
  func compact(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let (original, work, _) = try Self.setUp(dir, format: format)
      try Self.expectGood(["delete", work, "--class", "Item", "--where", "id < 40"], work, original: original)
      try Self.expectGood(["compact", work], work, original: original)
    }
  }

  /// `convert` down and up again, and `upgrade` of Realm's format-23 and 22 files.
  @Test(IndexAgreement.enabled, arguments: [(24, [23, 24, 22, 24]), (23, [24]), (22, [24, 23])])
  func convertAndUpgrade(_ format: Int, _ chain: [Int]) throws {
    try T.inScratchDirectory { dir in
      let (original, work, _) = try Self.setUp(dir, format: format)
      for to in chain {
        try Self.expectGood(["convert", work, "--file-format", "\(to)", "-q"], work, original: original)
      }
      if format < 24 {
        let upgraded = dir.appendingPathComponent("upgraded.realm").path
        try FileManager.default.copyItem(atPath: original, toPath: upgraded)
        try Self.expectGood(["upgrade", upgraded, "-q"], upgraded, original: original)
      }
    }
  }

  /// Encrypted with a key, still agreeing when read with it; decrypted again.
  @Test(IndexAgreement.enabled)
  func encryptAndDecrypt() throws {
    try T.inScratchDirectory { dir in
      let (original, work, _) = try Self.setUp(dir)
      let keyFile = Fixtures.url("encrypted/alltypes.key").path
      let hex = String(decoding: try Fixtures.bytes("encrypted/alltypes.key"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      var r = T.run(["encrypt", work, "--key-file", keyFile])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmAgrees(work, original: nil, key: hex, context: "encrypt")
      try expectEqual(IndexAgreement.indexKinds(work, key: hex), IndexAgreement.indexKinds(original))
      r = T.run(["update", work, "--class", "Item", "--set", "m = old.m", "--set", "when = old.plain", "--key-file", keyFile])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmAgrees(work, original: nil, key: hex, context: "update of an encrypted file")
      try Self.expectGood(["decrypt", work, "--key-file", keyFile], work, original: original)
    }
  }

  /// The shell's transaction: insert, update and delete committed together.
  @Test(IndexAgreement.enabled)
  func shellTransaction() throws {
    try T.inScratchDirectory { dir in
      var (original, work, sample) = try Self.setUp(dir)
      let statements = [
        "BEGIN",
        "INSERT " + sample.item(500, persons: 15),
        "INSERT " + sample.item(501, persons: 15).replacingOccurrences(of: "\"$key\":501,", with: ""),
        "UPDATE Item SET m = old.m, name = upper(old.name), when = date('1969-12-31T23:59:59.25Z') WHERE id < 50",
        "DELETE FROM Item WHERE id > 100",
        "DELETE FROM Person WHERE name == 'a'",
        "COMMIT",
      ]
      let r = try ShellEditTests.script(statements, on: work)
      expectEqual(r.status, .success, "\(r.stderr)")
      try Self.expectRealmAgrees(work, original: original, context: "shell transaction")
    }
  }

  /// `unsync` of synced files (built here in the shapes sync leaves, and the real ones of
  /// `../shared`): the local file keeps the indexes and Realm's queries agree with its data.
  @Test(IndexAgreement.enabled)
  func unsync() throws {
    try T.inScratchDirectory { dir in
      var paths: [String] = []
      for (i, shape) in [SyncedFiles.Shape(), SyncedFiles.flexibleShape(asymmetricEvents: 2)].enumerated() {
        let path = dir.appendingPathComponent("built\(i).realm").path
        try T.write(try SyncedFiles.build(shape), to: path)
        paths.append(path)
      }
      for (i, shared) in UnsyncCommandTests.sharedSyncedFiles.prefix(8).enumerated() {
        let path = dir.appendingPathComponent("shared\(i).realm").path
        try FileManager.default.copyItem(atPath: shared, toPath: path)
        paths.append(path)
      }
      for path in paths {
        let r = T.run(["unsync", path, "-q"])
        guard r.status == 0 else {
          // Files unsync refuses (encrypted, damaged) are the unsync tests' business.
          #expect(!path.contains("built"), "\(path): \(r.stderr)")
          continue
        }
        try Self.expectRealmAgrees(path, original: nil, context: "unsync \(URL(fileURLWithPath: path).lastPathComponent)")
      }
    }
  }
}

/// The same writers on a file whose items also have a full-text indexed `text` (accented
/// and mixed-case words): the full-text index must be kept, of its kind, and answer `TEXT`
/// as the data say.
@Suite struct WriterFullTextAgreementTests {
  typealias T = CommandTestSupport
  typealias W = WriterIndexAgreementTests

  /// The commands, each on a fresh copy of Realm's file (format 24, or 23 for `upgrade`).
  static let commands: [(name: String, format: Int, words: @Sendable (_ work: String, _ dir: URL) throws -> [String])] = [
    ("update text", 24, { w, _ in ["update", w, "--class", "Item", "--set", "text = 'zebraword ' + coalesce(old.text, '')"] }),
    ("update other", 24, { w, _ in ["update", w, "--class", "Item", "--set", "count = 1"] }),
    ("insert", 24, { w, d in
      var s = IndexedSample(seed: 9, fullText: true)
      return ["insert", w, try T.write((200..<230).map { s.item($0, persons: 15) }.joined(separator: "\n") + "\n", to: d, as: "i.jsonl")]
    }),
    ("upsert", 24, { w, d in
      var s = IndexedSample(seed: 9, fullText: true)
      return ["insert", w, try T.write((0..<30).map { s.item($0, persons: 15) }.joined(separator: "\n") + "\n", to: d, as: "u.jsonl"), "--upsert"]
    }),
    ("delete other class", 24, { w, _ in ["delete", w, "--class", "Person", "--where", "TRUEPREDICATE"] }),
    ("delete", 24, { w, _ in ["delete", w, "--class", "Item", "--where", "id < 10"] }),
    ("compact", 24, { w, _ in ["compact", w] }),
    ("convert", 24, { w, _ in ["convert", w, "--file-format", "23", "-q"] }),
    ("upgrade", 23, { w, _ in ["upgrade", w, "-q"] }),
    ("rename-property", 24, { w, _ in ["rename-property", w, "Item", "name", "title", "--schema-version", "2"] }),
  ]

  @Test(IndexAgreement.enabled, arguments: commands.indices)
  func fullTextIndexIsKept(_ i: Int) throws {
    let command = Self.commands[i]
    try T.inScratchDirectory { dir in
      let (original, work, _) = try W.setUp(dir, format: command.format, fullText: true)
      let words = try command.words(work, dir)
      let r = T.run(words)
      try #require(r.status == 0, "\(command.name): \(r.stderr)")
      try W.expectRealmAgrees(work, original: original, renamed: ["Item.title": "Item.name"], context: command.name)
    }
  }
}
