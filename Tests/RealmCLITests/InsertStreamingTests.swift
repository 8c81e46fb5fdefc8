import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

/// `insert` of JSON Lines of one class streamed into the append: the new int keys merged into
/// the existing search indexes (primary key and a plain indexed int), checked against Realm
/// (`verify`, its dump, its indexed queries), and every way out to the general path.
@Suite struct InsertStreamingTests {
  typealias T = CommandTestSupport

  static func row(_ id: Int64, n: Int64, key: Int64? = nil, other: Int64? = nil) -> String {
    let k = key.map { "\"$key\":\($0)," } ?? ""
    let o = other.map { "{\"$ref\":\"Row\",\"$key\":\($0)}" } ?? "null"
    return "{\"$class\":\"Row\",\(k)\"id\":\(id),\"n\":\(n),\"name\":\"row \(id)\",\"other\":\(o)}"
  }

  /// 1,000 rows, ids 0, 3, 6 ... (keys 0-999), n = id / 30 (ten rows share each n).
  static func file(in dir: URL) throws -> (path: String, schema: JSONValue, rows: [String]) {
    let schemaPath = try T.write(schema, to: dir, as: "schema.json")
    let rows: [String] = (0..<1000).map { (i: Int) -> String in
      let id = Int64(3 * i)
      return row(id, n: Int64(i / 10), key: Int64(i))
    }
    let data = try T.write(rows.joined(separator: "\n") + "\n", to: dir, as: "seed.jsonl")
    let path = dir.appendingPathComponent("rows.realm").path
    let r = T.run(["create", path, "--schema", schemaPath, "--data", data])
    try #require(r.status == 0, "\(r.stderr)")
    return (path, try JSONParser.parse(schema), rows)
  }

  static func insert(_ lines: [String], into path: String, dir: URL) throws -> JSONValue {
    let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "new.jsonl")
    let r = T.run(["insert", path, data, "--json"])
    expectEqual(r.status, 0, "\(r.stderr)")
    return try JSONParser.parse(r.stdout)
  }

  /// Our dump and Realm's equal `rows`, Realm verifies the file, and Realm's indexed queries
  /// find each of `ids` (id -> key) and the keys of each of `ns`.
  static func expect(_ path: String, rows: [String], schema: JSONValue, ids: [(Int64, Int64)], ns: [(Int64, [Int64])]) throws {
    let expected = try rows.map { try JSONParser.parse($0) }
    let ours = T.run(["dump", path, "--format", "jsonl"])
    expectEqual(DumpComparison.compareDumps(expected: expected, actual: try EditCommandTests.lines(ours.stdout), schema: schema), [])
    try expectEqual(T.problems(path), [])
    let oracle = RealmOracle.core14
    guard oracle.isAvailable else { return }
    #expect(try oracle.verifyFailure(path) == nil)
    expectEqual(DumpComparison.compareDumps(expected: expected, actual: try EditCommandTests.lines(try oracle.dump(path)), schema: schema), [])
    for (id, key) in ids {
      try expectEqual(oracle.queryKeys(path, className: "Row", where: "id == \(id)"), [key], "id \(id)")
    }
    for (n, keys) in ns {
      try expectEqual(oracle.queryKeys(path, className: "Row", where: "n == \(n)")?.sorted(), keys, "n \(n)")
    }
  }

  @Test func oneClassIsStreamedAndItsIntKeysMergeIntoTheExistingIndexes() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, rows) = try Self.file(in: dir)
      // Ids between the existing ones (1, 4, 7 ...), negative ones, ones above 2^32 whose low
      // 32 bits no existing id has; n values new to the index, three rows sharing each.
      var ids = (0..<700).map { Int64(1 + 3 * $0) }
      ids += [-7, -100_000, (1 << 40) + 2, Int64.max - 1, Int64.min + 5]
      let lines = ids.enumerated().map { Self.row($1, n: Int64(5000 + $0 / 3)) }
      let report = try Self.insert(lines, into: path, dir: dir)
      expectEqual(report["path"], .string("append"))
      expectEqual(report["inserted"], .int(Int64(ids.count)))
      let added = ids.enumerated().map { Self.row($1, n: Int64(5000 + $0 / 3), key: Int64(1000 + $0)) }
      try Self.expect(
        path, rows: rows + added, schema: schema,
        ids: [(0, 0), (2997, 999), (1, 1000), (4, 1001), (-7, 1700), (-100_000, 1701), ((1 << 40) + 2, 1702), (Int64.max - 1, 1703), (Int64.min + 5, 1704)],
        ns: [(0, Array(0...9)), (99, Array(990...999)), (5000, [1000, 1001, 1002]), (5234, [1702, 1703, 1704])])
      // A second streamed insert sees the merged index: an existing id is refused.
      let again = try T.write(Self.row(4, n: 1) + "\n", to: dir, as: "again.jsonl")
      let message = try EditCommandTests.expectRefused(["insert", path, again], file: path)
      #expect(message.contains("primary key '4' already exists (key 1001)"), "\(message)")
    }
  }

  @Test func keysSharingTheirLow32BitsWithExistingOnesRebuildTheIndexes() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, rows) = try Self.file(in: dir)
      // Id 2^32 + 3 shares its low 32 bits with id 3; n 5 is the n of rows 50-59.
      let lines = [Self.row((1 << 32) + 3, n: 5), Self.row(10_000, n: 7000)]
      let report = try Self.insert(lines, into: path, dir: dir)
      expectEqual(report["path"], .string("append"))
      try Self.expect(
        path, rows: rows + [Self.row((1 << 32) + 3, n: 5, key: 1000), Self.row(10_000, n: 7000, key: 1001)], schema: schema,
        ids: [(3, 1), ((1 << 32) + 3, 1000), (10_000, 1001)], ns: [(5, Array(50...59) + [1000]), (7000, [1001])])
    }
  }

  @Test func aPrimaryKeyRepeatedInTheInputIsRefusedAndTheFileIsUntouched() throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try Self.file(in: dir)
      let lines = (0..<600).map { Self.row(Int64(10_000 + $0), n: 1) } + [Self.row(10_005, n: 2)]
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "repeat.jsonl")
      let message = try EditCommandTests.expectRefused(["insert", path, data], file: path)
      #expect(message.contains("line 601"), "\(message)")
      #expect(message.contains("10005"), "\(message)")
    }
  }

  @Test func aLineThatDoesNotFitHandsTheInsertToTheGeneralPath() throws {
    try T.inScratchDirectory { dir in
      let (path, schema, rows) = try Self.file(in: dir)
      // Line 400 gives its key, line 500 links to an existing row: the rewrite, Realm's keys.
      var lines = (0..<600).map { Self.row(Int64(20_000 + $0), n: 3) }
      lines[399] = Self.row(20_399, n: 3, key: 5000)
      lines[499] = Self.row(20_499, n: 3, other: 7)
      let report = try Self.insert(lines, into: path, dir: dir)
      expectEqual(report["path"], .string("rewrite"))
      var added: [String] = []
      for i in 0..<600 {
        let key: Int64 = i == 399 ? 5000 : Int64(i < 399 ? 1000 + i : 999 + i)
        added.append(Self.row(Int64(20_000 + i), n: 3, key: key, other: i == 499 ? 7 : nil))
      }
      let moved = added.remove(at: 399)
      let expected = rows + added + [moved]
      try Self.expect(path, rows: expected, schema: schema, ids: [(20_399, 5000), (20_599, 1598), (21, 7)], ns: [])
    }
  }

  @Test func theBackupIsTheOriginalAndARefusedStreamLeavesNone() throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try Self.file(in: dir)
      let before = try T.bytes(path)
      let backup = dir.appendingPathComponent("backup.realm").path
      // The streamed attempt made the backup, then gave up: the refusal leaves none.
      let repeated = try T.write(Self.row(10, n: 1) + "\n" + Self.row(10, n: 2) + "\n", to: dir, as: "repeated.jsonl")
      _ = try EditCommandTests.expectRefused(["insert", path, repeated, "--backup", backup], file: path)
      #expect(!FileManager.default.fileExists(atPath: backup))
      let one = try T.write(Self.row(10_001, n: 1) + "\n", to: dir, as: "one.jsonl")
      let r = T.run(["insert", path, one, "--backup", backup, "--json"])
      expectEqual(r.status, 0, "\(r.stderr)")
      try expectEqual(JSONParser.parse(r.stdout)["path"], .string("append"))
      #expect(TestFiles.same(try T.bytes(backup), before))
      #expect(try T.bytes(path) != before)
    }
  }

  /// One class: an int primary key, an indexed int, a string, a link.
  static let schema = """
    {"schemaVersion": 1, "fileFormat": 24, "classes": [{"name": "Row", "embedded": false, "primaryKey": "id", "properties": [
      {"name": "id", "type": "int", "optional": false, "indexed": true}, {"name": "n", "type": "int", "optional": false, "indexed": true},
      {"name": "name", "type": "string", "optional": false, "indexed": false},
      {"name": "other", "type": "object", "objectType": "Row", "optional": true, "indexed": false}]}]}
    """
}
