import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// `insert`'s in-place append (new objects as new cluster leaves, the rest of the file kept)
/// on a file of several cluster leaves with search indexes and backlink columns: the result
/// equals the expected objects for our reader and for Realm, Realm verifies it, and Realm's
/// indexed queries find the new objects.
@Suite struct InsertAppendTests {
  typealias T = CommandTestSupport
  typealias E = EditCommandTests

  static let schema = """
    {"schemaVersion": 3, "fileFormat": 24, "classes": [
     {"name": "Item", "embedded": false, "primaryKey": "id", "properties": [
       {"name": "id", "type": "int", "optional": false, "indexed": true},
       {"name": "name", "type": "string", "optional": false, "indexed": true},
       {"name": "score", "type": "double", "optional": true, "indexed": false},
       {"name": "tags", "type": "list", "objectType": "string", "optional": false, "indexed": false},
       {"name": "parent", "type": "object", "objectType": "Item", "optional": true, "indexed": false}]},
     {"name": "Note", "embedded": false, "primaryKey": null, "properties": [
       {"name": "text", "type": "string", "optional": false, "indexed": false},
       {"name": "item", "type": "object", "objectType": "Item", "optional": true, "indexed": false}]}
    ]}
    """

  static func item(_ id: Int, key: Int? = nil, parent: Int? = nil) -> String {
    let k = key.map { "\"$key\":\($0)," } ?? ""
    let p = parent.map { "{\"$ref\":\"Item\",\"$key\":\($0)}" } ?? "null"
    let score = id % 3 == 0 ? "null" : "\(Double(id) / 4)"
    let tags = id % 2 == 0 ? "[\"t\(id)\",\"even\"]" : "[]"
    return "{\"$class\":\"Item\",\(k)\"id\":\(id),\"name\":\"item \(id)\",\"score\":\(score),\"tags\":\(tags),\"parent\":\(p)}"
  }

  static func note(_ i: Int, key: Int? = nil, item: Int? = nil) -> String {
    let k = key.map { "\"$key\":\($0)," } ?? ""
    let target = item.map { "{\"$ref\":\"Item\",\"$key\":\($0)}" } ?? "null"
    return "{\"$class\":\"Note\",\(k)\"text\":\"note \(i)\",\"item\":\(target)}"
  }

  /// Realm's squeezed key of sequence number `n` (classes without a primary key).
  static func squeezed(_ n: Int) -> Int { (n & 0xFF) | ((n & ~0xFF) << 8) }

  /// 1,000 items (4 cluster leaves; keys 0-999, parents linking back) and 300 notes (keys
  /// 0-255, 65536-65579) linking to items, written by `create`.
  static func file(in dir: URL, format: Int = 24) throws -> (path: String, schema: JSONValue, items: [String], notes: [String]) {
    let schemaPath = try T.write(schema, to: dir, as: "schema.json")
    let items = (0..<1000).map { item($0, key: $0, parent: $0 > 0 && $0 % 7 == 0 ? $0 / 2 : nil) }
    let notes = (0..<300).map { note($0, key: squeezed($0), item: $0 % 5 == 0 ? nil : $0 * 3) }
    let data = try T.write((items + notes).joined(separator: "\n") + "\n", to: dir, as: "seed.jsonl")
    let path = dir.appendingPathComponent("a.realm").path
    let r = T.run(["create", path, "--schema", schemaPath, "--data", data, "--file-format", "\(format)"])
    try #require(r.status == 0, "\(r.stderr)")
    return (path, try JSONParser.parse(schema), items, notes)
  }

  /// The dump (items, then notes, each in key order) equals `items + notes` for us and Realm.
  static func expect(_ path: String, items: [String], notes: [String], schema: JSONValue, oracle: RealmOracle = .core14) throws {
    let expected = try (items + notes).map { try JSONParser.parse($0) }
    let ours = T.run(["dump", path, "--format", "jsonl"])
    expectEqual(ours.status, 0, "\(ours.stderr)")
    expectEqual(DumpComparison.compareDumps(expected: expected, actual: try E.lines(ours.stdout), schema: schema), [])
    try expectEqual(T.problems(path), [])
    guard oracle.isAvailable else { return }
    #expect(try oracle.verifyFailure(path) == nil)
    let realms = try E.lines(try oracle.dump(path))
    expectEqual(DumpComparison.compareDumps(expected: expected, actual: realms, schema: schema), [])
  }

  @Test func newObjectsAreAppendedAsNewClustersAndFoundByTheIndexes() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, items, notes) = try Self.file(in: dir)
      let before = try T.bytes(path)
      let newLines = (1000..<1700).map { Self.item($0) } + (300..<600).map { Self.note($0) }
      let data = try T.write(newLines.joined(separator: "\n") + "\n", to: dir, as: "new.jsonl")
      let r = T.run(["insert", path, data, "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let report = try JSONParser.parse(r.stdout)
      expectEqual(report["path"], .string("append"))
      expectEqual(report["inserted"], .int(1000))
      expectEqual(report["schemaVersion"], .int(3))
      #expect(try T.bytes(path).count > before.count)
      // Realm's keys: the items' sequence continues at 1000, the notes' (squeezed) at 300.
      try Self.expect(
        path, items: items + (1000..<1700).map { Self.item($0, key: $0) },
        notes: notes + (300..<600).map { Self.note($0, key: Self.squeezed($0)) }, schema: schema)
      if RealmOracle.core14.isAvailable {
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "id == 1500"), [1500])
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "name == 'item 1699'"), [1699])
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "name == 'item 7'"), [7])
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "id >= 1698")?.sorted(), [1698, 1699])
      }
      // Our own lookups by primary key find them too (a second insert sees them as existing).
      let again = try T.write(Self.item(1600) + "\n", to: dir, as: "again.jsonl")
      let message = try E.expectRefused(["insert", path, again], file: path)
      #expect(message.contains("primary key '1600' already exists (key 1600)"), "\(message)")
    }
  }

  @Test func aSecondAppendContinuesTheKeysAndDryRunWritesNothing() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, items, notes) = try Self.file(in: dir)
      let first = try T.write(Self.item(5000) + "\n" + Self.note(9000) + "\n", to: dir, as: "one.jsonl")
      expectEqual(T.run(["insert", path, first]).status, 0)
      let second = try T.write((6000..<6300).map { Self.item($0) }.joined(separator: "\n") + "\n", to: dir, as: "two.jsonl")
      let before = try T.bytes(path)
      let dry = T.run(["insert", path, second, "--dry-run"])
      expectEqual(dry.status, 0, "\(dry.stderr)")
      #expect(dry.stdout.contains("would be appended in place (dry run: nothing written)"))
      #expect(TestFiles.same(try T.bytes(path), before))
      let r = T.run(["insert", path, second])
      expectEqual(r.status, 0, "\(r.stderr)")
      #expect(r.stdout.contains("300 inserted, 0 updated; appended in place"))
      try Self.expect(
        path, items: items + [Self.item(5000, key: 1000)] + (6000..<6300).enumerated().map { Self.item($1, key: 1001 + $0) },
        notes: notes + [Self.note(9000, key: Self.squeezed(300))], schema: schema)
    }
  }

  @Test func newObjectsWithLinksOrUpdatesTakeTheRewrite() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, items, notes) = try Self.file(in: dir)
      // A link to an existing item changes its backlinks: rewritten.
      let linked = try T.write(Self.note(700, item: 3) + "\n", to: dir, as: "linked.jsonl")
      let r = T.run(["insert", path, linked, "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      try expectEqual(JSONParser.parse(r.stdout)["path"], .string("rewrite"))
      // A given key below the last one lands between existing objects: rewritten.
      let between = try T.write(Self.note(701, key: 290) + "\n", to: dir, as: "between.jsonl")
      let b = T.run(["insert", path, between, "--json"])
      expectEqual(b.status, 0, "\(b.stderr)")
      try expectEqual(JSONParser.parse(b.stdout)["path"], .string("rewrite"))
      // Key 290 sorts before the squeezed keys from 256 on (65536...).
      let expectedNotes = Array(notes[0..<256]) + [Self.note(701, key: 290)] + notes[256...] + [Self.note(700, key: Self.squeezed(300), item: 3)]
      try Self.expect(path, items: items, notes: expectedNotes, schema: schema)
    }
  }

  @Test func aBadValueIsReportedWithItsLineAndNothingIsWritten() throws {
    try T.inScratchDirectory { dir in
      let (path, _, _, _) = try Self.file(in: dir)
      let long = String(repeating: "x", count: 17 * 1024 * 1024)
      let bad = try T.write(Self.item(2000) + "\n" + Self.item(2001).replacingOccurrences(of: "item 2001", with: long) + "\n", to: dir, as: "bad.jsonl")
      let message = try E.expectRefused(["insert", path, bad], file: path)
      #expect(message.contains("line 2"), "\(message)")
    }
  }

  /// The file keeps its format: formats 22 and 23 (read by Realm Core 12 and 13 as they are).
  @Test(arguments: [(22, RealmOracle.core12), (23, RealmOracle.core13)])
  func olderFormatsAreAppendedInTheirOwnFormat(_ format: Int, _ oracle: RealmOracle) throws {
    try T.inScratchDirectory { dir in
      let (path, schema, items, notes) = try Self.file(in: dir, format: format)
      let data = try T.write(((1000..<1300).map { Self.item($0) } + (300..<400).map { Self.note($0) }).joined(separator: "\n") + "\n", to: dir, as: "new.jsonl")
      let r = T.run(["insert", path, data, "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let report = try JSONParser.parse(r.stdout)
      expectEqual(report["path"], .string("append"))
      expectEqual(report["fileFormat"], .int(Int64(format)))
      try Self.expect(
        path, items: items + (1000..<1300).map { Self.item($0, key: $0) },
        notes: notes + (300..<400).map { Self.note($0, key: Self.squeezed($0)) }, schema: schema, oracle: oracle)
      if oracle.isAvailable {
        try expectEqual(oracle.queryKeys(path, className: "Item", where: "name == 'item 1299'"), [1299])
      }
    }
  }

  // MARK: - upsert in place

  @Test func upsertChangesOnlyTheLeavesHoldingTheObjects() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, items, notes) = try Self.file(in: dir)
      // Scores of items (unique: the others are multiples of 0.25) in every leaf, texts of
      // notes (matched on their $key).
      let changedItems = Array(stride(from: 10, to: 1000, by: 97)) + [255, 256, 999]
      var lines = changedItems.map { "{\"$class\":\"Item\",\"id\":\($0),\"score\":\(Double($0) + 0.3)}" }
      lines += [0, 255, 299].map { "{\"$class\":\"Note\",\"$key\":\(Self.squeezed($0)),\"text\":\"changed \($0)\"}" }
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "up.jsonl")
      let r = T.run(["insert", path, data, "--upsert", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let report = try JSONParser.parse(r.stdout)
      expectEqual(report["path"], .string("objects"))
      expectEqual(report["updated"], .int(Int64(changedItems.count + 3)))
      expectEqual(report["inserted"], .int(0))
      var expectedItems = items
      for id in changedItems {
        expectedItems[id] = Self.item(id, key: id, parent: id > 0 && id % 7 == 0 ? id / 2 : nil)
          .replacingOccurrences(of: "\"score\":\(id % 3 == 0 ? "null" : "\(Double(id) / 4)")", with: "\"score\":\(Double(id) + 0.3)")
      }
      var expectedNotes = notes
      for i in [0, 255, 299] {
        expectedNotes[i] = Self.note(i, key: Self.squeezed(i), item: i % 5 == 0 ? nil : i * 3).replacingOccurrences(of: "note \(i)", with: "changed \(i)")
      }
      try Self.expect(path, items: expectedItems, notes: expectedNotes, schema: schema)
      if RealmOracle.core14.isAvailable {
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "score == 107.3"), [107])
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "id == 999"), [999])
      }
    }
  }

  /// A changed indexed value takes the rewrite; an upsert that also inserts is streamed and
  /// stays in place (the existing object's leaf changed, the new object appended).
  @Test func upsertOfAnIndexedPropertyTakesTheRewriteAndWithNewObjectsStaysInPlace() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, items, notes) = try Self.file(in: dir)
      let renamed = try T.write("{\"$class\":\"Item\",\"id\":4,\"name\":\"four\"}\n", to: dir, as: "renamed.jsonl")
      let r = T.run(["insert", path, renamed, "--upsert", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      try expectEqual(JSONParser.parse(r.stdout)["path"], .string("rewrite"))
      let mixed = try T.write("{\"$class\":\"Item\",\"id\":5,\"score\":1.5}\n" + Self.item(3000) + "\n", to: dir, as: "mixed.jsonl")
      let m = T.run(["insert", path, mixed, "--upsert", "--json"])
      expectEqual(m.status, 0, "\(m.stderr)")
      try expectEqual(JSONParser.parse(m.stdout)["path"], .string("objects"))
      try expectEqual(JSONParser.parse(m.stdout)["inserted"], .int(1))
      var expectedItems = items
      expectedItems[4] = items[4].replacingOccurrences(of: "item 4", with: "four")
      expectedItems[5] = items[5].replacingOccurrences(of: "\"score\":1.25", with: "\"score\":1.5")
      try Self.expect(path, items: expectedItems + [Self.item(3000, key: 1000)], notes: notes, schema: schema)
      if RealmOracle.core14.isAvailable {
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "name == 'four'"), [4])
      }
    }
  }

  /// Whole objects (every property given, as a dump writes them) where only some values
  /// differ: the in-place update writes only the columns some object changes, so the
  /// unchanged indexed name, list and link given beside a changed score do not ask for the
  /// rewrite; the objects given unchanged are not counted.
  @Test func upsertOfWholeObjectsWritesOnlyTheChangedColumnsInPlace() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, items, notes) = try Self.file(in: dir)
      let parent: (Int) -> Int? = { $0 > 0 && $0 % 7 == 0 ? $0 / 2 : nil }
      let changed = [1, 300, 998]
      var expectedItems = items
      var lines: [String] = []
      for id in [1, 2, 294, 299, 300, 512, 998] {
        let line = Self.item(id, parent: parent(id))
        guard changed.contains(id) else {
          lines.append(line)
          continue
        }
        let old = "\"score\":\(id % 3 == 0 ? "null" : "\(Double(id) / 4)")"
        lines.append(line.replacingOccurrences(of: old, with: "\"score\":-\(id).5"))
        expectedItems[id] = items[id].replacingOccurrences(of: old, with: "\"score\":-\(id).5")
      }
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "whole.jsonl")
      let r = T.run(["insert", path, data, "--upsert", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let report = try JSONParser.parse(r.stdout)
      expectEqual(report["path"], .string("objects"))
      expectEqual(report["updated"], .int(Int64(changed.count)))
      expectEqual(report["inserted"], .int(0))
      try Self.expect(path, items: expectedItems, notes: notes, schema: schema)
      if RealmOracle.core14.isAvailable {
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "score < 0"), changed.map(Int64.init))
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "name == 'item 300'"), [300])
      }
    }
  }

  /// The same objects where one also changes its indexed name: that column cannot be
  /// written in place, so the rewrite does the whole upsert, with the same result as the
  /// general path gives for each change.
  @Test func upsertOfWholeObjectsChangingAnIndexedValueTakesTheRewrite() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, items, notes) = try Self.file(in: dir)
      let same = Self.item(2)
      let renamed = Self.item(5).replacingOccurrences(of: "item 5", with: "five")
      let rescored = Self.item(6).replacingOccurrences(of: "\"score\":null", with: "\"score\":6.5")
      let data = try T.write([same, renamed, rescored].joined(separator: "\n") + "\n", to: dir, as: "whole.jsonl")
      let r = T.run(["insert", path, data, "--upsert", "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let report = try JSONParser.parse(r.stdout)
      expectEqual(report["path"], .string("rewrite"))
      expectEqual(report["updated"], .int(2))
      var expectedItems = items
      expectedItems[5] = items[5].replacingOccurrences(of: "item 5", with: "five")
      expectedItems[6] = items[6].replacingOccurrences(of: "\"score\":null", with: "\"score\":6.5")
      try Self.expect(path, items: expectedItems, notes: notes, schema: schema)
      if RealmOracle.core14.isAvailable {
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "name == 'five'"), [5])
      }
    }
  }

  @Test func aRequiredNullInAnUpsertIsRefusedWithItsLine() throws {
    try T.inScratchDirectory { dir in
      let (path, _, _, _) = try Self.file(in: dir)
      let bad = try T.write("{\"$class\":\"Note\",\"$key\":3,\"text\":\"ok\"}\n{\"$class\":\"Note\",\"$key\":4,\"text\":null}\n", to: dir, as: "bad.jsonl")
      let message = try E.expectRefused(["insert", path, bad, "--upsert"], file: path)
      #expect(message.contains("line 2"), "\(message)")
    }
  }
}
