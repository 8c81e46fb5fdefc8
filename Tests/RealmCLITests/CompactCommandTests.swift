import Foundation
import RealmJSON
import RealmTestSupport
import Testing

/// `realmctl compact FILE`: the result is no larger, holds the same schema and objects, and
/// passes the integrity check; compacting twice changes nothing more.
@Suite struct CompactCommandTests {
  typealias Support = CommandTestSupport

  static let files = [
    "alltypes/before.realm", "strings/before.realm", "nested-links/before.realm", "embedded/before.realm",
    "format-samples/v24_commit.realm", "user-tutorial/before.realm",
  ]

  @Test(arguments: files)
  func compactKeepsEveryObjectAndDoesNotGrow(_ fixture: String) throws {
    try Support.withCopy(of: fixture, as: "a.realm") { file, dir in
      let sizeBefore = try Support.bytes(file).count
      let schemaBefore = try RealmDumper.schemaJSON(file)
      let dumpBefore = try RealmDumper.dumpJSONL(file)
      let result = Support.run(["compact", file])
      expectEqual(result.status, 0, "\(result.stderr)")
      let sizeAfter = try Support.bytes(file).count
      expectEqual(result.stdout, "Compacted \(file): \(sizeBefore) -> \(sizeAfter) bytes\n")
      #expect(sizeAfter <= sizeBefore)
      try expectEqual(RealmDumper.schemaJSON(file), schemaBefore)
      try expectEqual(RealmDumper.dumpJSONL(file), dumpBefore)
      #expect(try Support.problems(file).isEmpty)
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("realmctl-tmp") }
      #expect(leftovers.isEmpty)
    }
  }

  /// A file with free space (a migration that rewrote names in place leaves the old nodes
  /// free) gets smaller.
  @Test func freeSpaceIsGivenBack() throws {
    try Support.withCopy(of: "strings/before.realm", as: "a.realm") { file, _ in
      let schema = try Support.schema(file)
      let className = try #require(schema["classes"]?[0]?["name"])
      let property = try #require(schema["classes"]?[0]?["properties"]?[0]?["name"])
      guard case .string(let c) = className, case .string(let p) = property else { Issue.record("no names"); return }
      for (i, name) in ["renamedOnce", "renamedTwice"].enumerated() {
        let r = Support.run(["rename-property", file, c, i == 0 ? p : "renamedOnce", name])
        try #require(r.status == 0, "\(r.stderr)")
      }
      let sizeBefore = try Support.bytes(file).count
      let dumpBefore = try RealmDumper.dumpJSONL(file)
      let result = Support.run(["compact", file])
      expectEqual(result.status, 0, "\(result.stderr)")
      #expect(try Support.bytes(file).count < sizeBefore)
      try expectEqual(RealmDumper.dumpJSONL(file), dumpBefore)
      #expect(try Support.problems(file).isEmpty)
      // A compacted file has nothing more to give.
      let size = try Support.bytes(file).count
      expectEqual(Support.run(["compact", file]).stdout, "Compacted \(file): \(size) -> \(size) bytes\n")
    }
  }

  @Test func aMissingFileExits66() throws {
    try Support.inScratchDirectory { dir in
      let missing = dir.appendingPathComponent("none.realm").path
      let result = Support.run(["compact", missing])
      expectEqual(result.status, 66)
      #expect(!Support.exists(missing + ".lock"))
    }
  }
}
