import Foundation
import RealmTestBytes
import Testing

@testable import RealmTestSupport

/// `RealmOracle.query(_:_:key:)` remembers Realm's answers by the file's bytes: the same
/// bytes are not asked again, and a file whose bytes changed is.
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
    let first = RealmOracle.FileIdentity(bytes: try TestFiles.bytes(path), core: .core14, key: nil)
    #expect(RealmOracle.AnswerCache.shared.answers(queries, on: first).allSatisfy { $0 == nil })
    expectEqual(try RealmOracle.core14.query(path, queries), [.keys([1, 2]), .keys([0])])
    expectEqual(RealmOracle.AnswerCache.shared.answers(queries, on: first), [.keys([1, 2]), .keys([0])])
    // Another key or Realm Core is another file.
    #expect(RealmOracle.AnswerCache.shared.answers(queries, on: .init(bytes: first.bytes, core: .core13, key: nil))[0] == nil)

    // The same path with other objects: Realm is asked again.
    try Self.realmsFile([40, 10, 50], at: path, in: dir)
    expectEqual(try RealmOracle.core14.query(path, queries), [.keys([0, 2]), .keys([1])])
    // Only the new queries of a known file are asked; the answers keep the order asked.
    expectEqual(try RealmOracle.core14.query(path, [queries[1], RealmOracle.Query("U", "age < 45"), queries[0]]), [.keys([1]), .keys([0, 1]), .keys([0, 2])])
  }
}
