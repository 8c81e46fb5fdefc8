import Foundation
import RealmTestBytes
import Testing

@testable import RealmTestSupport

/// `RealmOracle` remembers what Realm printed by the file's bytes (`query(_:_:key:)` and
/// `run(_:)` alike): the same bytes are not asked again, and a file whose bytes changed is.
@Suite struct RealmOracleAnswerCacheTests {
  static let schema = """
    {"schemaVersion": 0, "fileFormat": 24, "classes": [
     {"name": "U", "embedded": false, "primaryKey": null, "properties": [
       {"name": "age", "type": "int", "optional": false, "indexed": true}]}]}
    """

  /// Realm's own file of objects with `ages` (keys 0, 1, …) at `path`.
  static func realmsFile(_ ages: [Int], at path: String, in dir: URL) throws {
    let schema = dir.appendingPathComponent("schema.json").path
    let data = dir.appendingPathComponent("data.jsonl").path
    try TestFiles.write(Array(Self.schema.utf8), to: schema)
    let lines = ages.enumerated().map { "{\"$class\":\"U\",\"$key\":\($0.offset),\"age\":\($0.element)}\n" }
    try TestFiles.write(Array(lines.joined().utf8), to: data)
    try? FileManager.default.removeItem(atPath: path)
    let r = try RealmOracle.core14.run(["create", "--schema", schema, "--version", "0", "--data", data, path])
    try #require(r.status == 0, "\(r.output)\(r.errorOutput)")
  }

  @Test(RealmOracle.enabled) func theSameBytesAreAnsweredOnceAndChangedBytesAgain() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("u.realm").path
    let queries = [RealmOracle.Query("U", "age > 30"), RealmOracle.Query("U", "age == 10")]

    try Self.realmsFile([10, 40, 50], at: path, in: dir)
    let first = RealmOracle.FileIdentity(bytes: try TestFiles.bytes(path), core: .core14)
    let requests = queries.map { ["query", "--class", $0.className, "--where", $0.predicate] }
    #expect(RealmOracle.AnswerCache.shared.results(requests, on: first).allSatisfy { $0 == nil })
    expectEqual(try RealmOracle.core14.query(path, queries), [.keys([1, 2]), .keys([0])])
    let remembered = RealmOracle.AnswerCache.shared.results(requests, on: first)
    expectEqual(remembered.map { $0?.output }, ["1\n2\n", "0\n"])
    // Another Realm Core is another file.
    #expect(RealmOracle.AnswerCache.shared.results(requests, on: .init(bytes: first.bytes, core: .core13))[0] == nil)
    // `run` shares the cache: the batch's answer is given again, and its own are remembered.
    expectEqual(try RealmOracle.core14.queryKeys(path, className: "U", where: "age > 30"), [1, 2])
    let schema = try RealmOracle.core14.schema(path)
    expectEqual(RealmOracle.AnswerCache.shared.results([["schema"]], on: first)[0]?.output, schema)

    // The same path with other objects: Realm is asked again.
    try Self.realmsFile([40, 10, 50], at: path, in: dir)
    expectEqual(try RealmOracle.core14.query(path, queries), [.keys([0, 2]), .keys([1])])
    // Only the new queries of a known file are asked; the answers keep the order asked.
    expectEqual(try RealmOracle.core14.query(path, [queries[1], RealmOracle.Query("U", "age < 45"), queries[0]]), [.keys([1]), .keys([0, 1]), .keys([0, 2])])
  }
}
