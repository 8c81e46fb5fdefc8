import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI
@testable import RealmMigration
@testable import RealmEdit

/// `insert --upsert` of JSON Lines streamed: each line matched by its int primary key as it is
/// decoded, the existing objects changed a cluster leaf at a time, the new ones appended.
/// Checked against Realm (`verify`, its dump, its queries through the primary-key index) and
/// against the general path on a copy; every test asserts which path did the work
/// (`EditResult.streamed`), so a silent hand-over fails.
@Suite struct InsertStreamedUpsertTests {
  typealias T = CommandTestSupport
  typealias S = InsertStreamingTests
  typealias E = EditCommandTests

  /// A line of the 1,000-row file (``InsertStreamingTests/file(in:)``) with another name.
  static func row(_ id: Int64, n: Int64, name: String? = nil, key: Int64? = nil, other: Int64? = nil) -> String {
    let line = S.row(id, n: n, key: key, other: other)
    return name.map { line.replacingOccurrences(of: "\"name\":\"row \(id)\"", with: "\"name\":\"\($0)\"") } ?? line
  }

  static func upsert(_ lines: [String], into path: String, dir: URL) throws -> (result: EditResult, data: String) {
    let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "upsert.jsonl")
    return (try DataEditor.insert(path: path, jsonLines: data, mode: .upsert), data)
  }

  /// The same input through the general path (checked whole first) on `copy`: the same counts
  /// and the same objects as the streamed upsert wrote into `path`.
  static func expectSameAsGeneralPath(_ data: String, copy: String, streamed result: EditResult, path: String) throws {
    let general = try DataEditor.insert(path: copy, mode: .upsert) { schema in try InsertObject.jsonLines(path: data, schema: schema) }
    #expect(!general.streamed)
    expectEqual(general.classes, result.classes)
    try expectEqual(RealmDumper.dumpJSONL(copy), RealmDumper.dumpJSONL(path))
  }

  static func copy(_ path: String, in dir: URL) throws -> String {
    let copy = dir.appendingPathComponent("general.realm").path
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    return copy
  }

  @Test func existingObjectsInKeyOrderAreChangedALeafAtATime() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, rows) = try S.file(in: dir)
      let general = try Self.copy(path, in: dir)
      // Objects 0-599 (three cluster leaves) as whole lines, the link and the indexed `n`
      // given unchanged: every other one renamed, the others unchanged.
      let lines = (0..<600).map { (i: Int) -> String in
        let name: String? = i % 2 == 0 ? "renamed \(i)" : nil
        return Self.row(Int64(3 * i), n: Int64(i / 10), name: name)
      }
      let (result, data) = try Self.upsert(lines, into: path, dir: dir)
      #expect(result.streamed)
      expectEqual(result.writePath, .objects)
      expectEqual(result.total(\.updated), 300)
      expectEqual(result.total(\.inserted), 0)
      var expected = rows
      for i in stride(from: 0, to: 600, by: 2) { expected[i] = Self.row(Int64(3 * i), n: Int64(i / 10), name: "renamed \(i)", key: Int64(i)) }
      try S.expect(
        path, rows: expected, schema: schema, ids: [(0, 0), (1797, 599), (1800, 600), (2997, 999)],
        ns: [(0, Array(0...9)), (59, Array(590...599)), (99, Array(990...999))])
      try Self.expectSameAsGeneralPath(data, copy: general, streamed: result, path: path)
    }
  }

  @Test func newAndExistingKeysMixedAreChangedAndAppended() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, rows) = try S.file(in: dir)
      let general = try Self.copy(path, in: dir)
      // Existing ids 300-1197 renamed, a new id after every third (new ids between existing
      // ones, n values new to the index), then ids above every existing one.
      var lines: [String] = []
      var added: [String] = []
      var expected = rows
      for i in 100..<400 {
        lines.append(Self.row(Int64(3 * i), n: Int64(i / 10), name: "changed \(i)"))
        expected[i] = Self.row(Int64(3 * i), n: Int64(i / 10), name: "changed \(i)", key: Int64(i))
        if i % 3 == 0 {
          lines.append(Self.row(Int64(3 * i + 1), n: 7000))
          added.append(Self.row(Int64(3 * i + 1), n: 7000, key: Int64(1000 + added.count)))
        }
      }
      for id in [5000, 6000] as [Int64] {
        lines.append(Self.row(id, n: 7001))
        added.append(Self.row(id, n: 7001, key: Int64(1000 + added.count)))
      }
      let (result, data) = try Self.upsert(lines, into: path, dir: dir)
      #expect(result.streamed)
      expectEqual(result.writePath, .objects)
      expectEqual(result.total(\.updated), 300)
      expectEqual(result.total(\.inserted), 102)
      try S.expect(
        path, rows: expected + added, schema: schema,
        ids: [(300, 100), (307, 1000), (1198, 1099), (5000, 1100), (6000, 1101), (2997, 999)],
        ns: [(7000, Array(1000...1099)), (7001, [1100, 1101]), (10, Array(100...109))])
      try Self.expectSameAsGeneralPath(data, copy: general, streamed: result, path: path)
    }
  }

  @Test func aFilesOwnDumpChangesNothingAndWritesNothing() throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try S.file(in: dir)
      let before = try T.bytes(path)
      let dump = T.run(["dump", path, "--format", "jsonl"])
      try #require(dump.status == 0)
      // Every line with its `$key`, its link and its indexed values.
      let (result, _) = try Self.upsert(dump.stdout.split(separator: "\n").map(String.init), into: path, dir: dir)
      #expect(result.streamed)
      expectEqual(result.writePath, .none)
      expectEqual(result.total(\.updated), 0)
      #expect(TestFiles.same(try T.bytes(path), before))
    }
  }

  /// A dump's whole lines of a class with a list, a link (and backlinks from another class)
  /// and an indexed string: given unchanged they stay streamed and only the changed scores are
  /// written; a changed list hands over to the general path.
  @Test func wholeDumpLinesWithListsAndLinksStayStreamed() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, items, notes) = try InsertAppendTests.file(in: dir)
      let general = try Self.copy(path, in: dir)
      let dump = T.run(["dump", path, "--format", "jsonl", "--class", "Item"])
      try #require(dump.status == 0, "\(dump.stderr)")
      var lines = try E.lines(dump.stdout)
      try #require(lines.count == 1000)
      var expected = items
      for i in [1, 300, 301, 999] {
        lines[i] = E.replacing(lines[i], "score", with: .double(Double(i) + 0.5))
        expected[i] = E.text([E.replacing(try JSONParser.parse(items[i]), "score", with: .double(Double(i) + 0.5))])
          .trimmingCharacters(in: .newlines)
      }
      let data = try T.write(E.text(lines), to: dir, as: "upsert.jsonl")
      let result = try DataEditor.insert(path: path, jsonLines: data, mode: .upsert)
      #expect(result.streamed)
      expectEqual(result.writePath, .objects)
      expectEqual(result.total(\.updated), 4)
      try InsertAppendTests.expect(path, items: expected, notes: notes, schema: schema)
      if RealmOracle.core14.isAvailable {
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "name == 'item 301'"), [301])
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "Item", where: "id == 999"), [999])
      }
      try Self.expectSameAsGeneralPath(data, copy: general, streamed: result, path: path)
      // A list that changes: the streamed attempt writes nothing; the general path does it.
      lines[2] = E.replacing(lines[2], "tags", with: .array([.string("new")]))
      let changedList = try T.write(E.text(Array(lines[0..<3])), to: dir, as: "list.jsonl")
      let before = try T.bytes(path)
      #expect(try DataEditor.streamingAppend(path: path, jsonLines: changedList, upsert: true, options: MigrationOptions()) == nil)
      #expect(TestFiles.same(try T.bytes(path), before))
      let r = try DataEditor.insert(path: path, jsonLines: changedList, mode: .upsert)
      #expect(!r.streamed && r.total(\.updated) == 1)
    }
  }

  /// `--dry-run` counts what the streamed upsert would do and writes nothing; `--backup` keeps
  /// the original when something is written, and leaves no copy when nothing changes.
  @Test func dryRunAndBackupOfAStreamedUpsert() throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try S.file(in: dir)
      let before = try T.bytes(path)
      let lines = [Self.row(0, n: 0, name: "zero"), Self.row(3, n: 0), Self.row(5000, n: 1)]
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "upsert.jsonl")
      var options = MigrationOptions()
      options.dryRun = true
      let dry = try DataEditor.insert(path: path, jsonLines: data, mode: .upsert, options: options)
      #expect(dry.streamed && dry.dryRun)
      #expect(dry.total(\.updated) == 1 && dry.total(\.inserted) == 1)
      #expect(TestFiles.same(try T.bytes(path), before))
      let backup = dir.appendingPathComponent("backup.realm").path
      options = MigrationOptions()
      options.backupPath = backup
      let unchanged = try T.write(Self.row(3, n: 0) + "\n", to: dir, as: "unchanged.jsonl")
      try expectEqual(DataEditor.insert(path: path, jsonLines: unchanged, mode: .upsert, options: options).writePath, .none)
      #expect(!FileManager.default.fileExists(atPath: backup))
      let written = try DataEditor.insert(path: path, jsonLines: data, mode: .upsert, options: options)
      #expect(written.streamed && written.writePath == .objects)
      #expect(TestFiles.same(try T.bytes(backup), before))
      #expect(try T.bytes(path) != before)
    }
  }

  /// A repeated key (existing or new) hands over to the general path, which refuses it with
  /// both lines and writes nothing.
  @Test(arguments: [(Int64(6), "line 2"), (Int64(7), "line 3")])
  func aRepeatedKeyIsRefusedWithItsLines(_ id: Int64, _ first: String) throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try S.file(in: dir)
      let lines = [Self.row(3, n: 0, name: "a"), Self.row(6, n: 0, name: "b"), Self.row(7, n: 1), Self.row(9, n: 0), Self.row(id, n: id == 7 ? 1 : 0)]
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "repeat.jsonl")
      #expect(try DataEditor.streamingAppend(path: path, jsonLines: data, upsert: true, options: MigrationOptions()) == nil)
      let message = try E.expectRefused(["insert", path, data, "--upsert"], file: path)
      #expect(message.contains("line 5"), "\(message)")
      #expect(message.contains(first), "\(message)")
    }
  }

  /// Lines the streamed upsert does not take: the attempt leaves the file byte for byte as it
  /// was, and the general path then gives the result it gives alone.
  @Test(arguments: [
    // An indexed value that changes.
    [InsertStreamedUpsertTests.row(0, n: 0, name: "x"), InsertStreamedUpsertTests.row(3, n: 55)],
    // Existing objects out of key order.
    [InsertStreamedUpsertTests.row(300, n: 10, name: "x"), InsertStreamedUpsertTests.row(30, n: 1, name: "y")],
    // A link set on an existing object.
    [InsertStreamedUpsertTests.row(0, n: 0), InsertStreamedUpsertTests.row(3, n: 0, other: 7)],
    // Another class's primary-key type: a string id.
    [InsertStreamedUpsertTests.row(0, n: 0, name: "x"), #"{"$class":"Row","id":"12","n":1,"name":"s"}"#],
  ])
  func aLineThatDoesNotFitHandsOverToTheGeneralPath(_ lines: [String]) throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try S.file(in: dir)
      let general = try Self.copy(path, in: dir)
      let before = try T.bytes(path)
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "upsert.jsonl")
      #expect(try DataEditor.streamingAppend(path: path, jsonLines: data, upsert: true, options: MigrationOptions()) == nil)
      #expect(TestFiles.same(try T.bytes(path), before))
      let outcome = Result { try DataEditor.insert(path: path, jsonLines: data, mode: .upsert) }
      let alone = Result { try DataEditor.insert(path: general, mode: .upsert) { s in try InsertObject.jsonLines(path: data, schema: s) } }
      switch (outcome, alone) {
      case (.success(let r), .success(let g)):
        #expect(!r.streamed)
        #expect(r.classes == g.classes && r.writePath == g.writePath)
        try expectEqual(RealmDumper.dumpJSONL(path), RealmDumper.dumpJSONL(general))
        try expectEqual(T.problems(path), [])
      case (.failure(let e), .failure(let f)):
        expectEqual("\(e)", "\(f)")
        #expect(TestFiles.same(try T.bytes(path), before))
      default:
        Issue.record("the streamed attempt and the general path disagree: \(outcome), \(alone)")
      }
    }
  }

  /// A new line without a required property and an existing object's `$key` given wrong are
  /// refused by the general path with their line, nothing written.
  @Test(arguments: [
    (#"{"$class":"Row","id":5,"n":1}"#, "name"),
    (#"{"$class":"Row","$key":4,"id":6,"n":0,"name":"x"}"#, "$key"),
  ])
  func aBadLineIsRefusedWithItsLine(_ bad: String, _ property: String) throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try S.file(in: dir)
      let lines = [Self.row(0, n: 0, name: "x"), Self.row(3, n: 0, name: "y"), bad]
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "bad.jsonl")
      let message = try E.expectRefused(["insert", path, data, "--upsert"], file: path)
      #expect(message.contains("line 3"), "\(message)")
      #expect(message.contains(property), "\(message)")
    }
  }

  /// Realm's own file: primary keys that do not ascend with the keys (the smallest and the
  /// largest int first), every scalar type changed or set to null, a new object with only its
  /// required values.
  @Test func realmsAllTypesFileIsUpsertedStreamed() throws {
    try T.withCopy(of: "alltypes/before.realm", as: "a.realm") { path, dir in
      let general = try Self.copy(path, in: dir)
      let dump = try E.fixtureDump("alltypes")
      func id(_ key: Int64) throws -> Int64 {
        let o = try #require(dump.first { $0["$class"] == .string("AllTypes") && $0["$key"] == .int(key) })
        guard case .int(let v) = o["_id"] else { throw MigrationError(.invalidData, "no _id") }
        return v
      }
      let changes: [(key: Int64, set: [(String, String)])] = [
        (0, [("double_req", "2.5"), ("int_req", "7"), ("string_opt", #""changed""#)]),
        (1, [("bool_opt", "true"), ("date_req", #"{"$date":"2024-01-02T03:04:05.000000006Z"}"#)]),
        (2, [("float_req", "1.5"), ("double_opt", "null"), ("data_opt", #"{"$binary":"AQID"}"#)]),
        (300, [("decimal128_req", #"{"$decimal":"1.25"}"#), ("objectId_opt", #"{"$oid":"0102030405060708090a0b0c"}"#)]),
        (599, [("uuid_req", #"{"$uuid":"01020304-0506-0708-090a-0b0c0d0e0f10"}"#), ("int_req", "-1")]),
      ]
      var lines: [String] = []
      var expected = dump
      for (key, set) in changes {
        lines.append("{\"$class\":\"AllTypes\",\"_id\":\(try id(key)),\(set.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ","))}")
        let i = try #require(expected.firstIndex { $0["$class"] == .string("AllTypes") && $0["$key"] == .int(key) })
        for (name, value) in set { expected[i] = E.replacing(expected[i], name, with: try JSONParser.parse(value)) }
      }
      let new = """
        {"$class":"AllTypes","_id":123456789,"bool_req":false,"int_req":5,"float_req":0.5,"double_req":0.25,\
        "decimal128_req":{"$decimal":"3"},"objectId_req":{"$oid":"aaaaaaaaaaaaaaaaaaaaaaaa"},\
        "uuid_req":{"$uuid":"aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"},"string_req":"new one","data_req":{"$binary":""},\
        "date_req":{"$date":"2001-01-01T00:00:00.000000000Z"},"mixed_val":null}
        """
      lines.append(new)
      let (result, data) = try Self.upsert(lines, into: path, dir: dir)
      #expect(result.streamed)
      expectEqual(result.total(\.updated), 5)
      expectEqual(result.total(\.inserted), 1)
      // The new object as Realm reads it back (its defaults: empty collections, null links).
      let realm = T.run(["dump", path, "--format", "jsonl", "--class", "AllTypes", "--where", "_id == 123456789"])
      let added = try #require(try E.lines(realm.stdout).first)
      expectEqual(added["$key"], .int(600))
      expectEqual(added["string_req"], .string("new one"))
      // Classes in name order: the new object ends AllTypes.
      let end = try #require(expected.lastIndex { $0["$class"] == .string("AllTypes") })
      expected.insert(added, at: end + 1)
      try E.expectFile(path, equals: expected, schema: "alltypes")
      if RealmOracle.core14.isAvailable {
        for key in [0, 1, 599] as [Int64] {
          try expectEqual(RealmOracle.core14.queryKeys(path, className: "AllTypes", where: "_id == \(try id(key))"), [key])
        }
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "AllTypes", where: "_id == 123456789"), [600])
        try expectEqual(RealmOracle.core14.queryKeys(path, className: "AllTypes", where: "string_req == 'new one'"), [600])
      }
      try Self.expectSameAsGeneralPath(data, copy: general, streamed: result, path: path)
    }
  }
}
