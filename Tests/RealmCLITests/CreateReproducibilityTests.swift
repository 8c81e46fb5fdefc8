import Foundation
import RealmTestSupport
import Testing

/// `create` writes the same bytes every time, in every process: Swift seeds its hashing
/// differently per process, so anything written in a dictionary's order (as the search indexes
/// of a table with several were, once) shows up only across processes.
@Suite struct CreateReproducibilityTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// `alltypes` has several indexed properties; `nested-links` several classes.
  @Test(arguments: ["alltypes", "nested-links"])
  func createdFilesAreIdenticalAcrossProcesses(_ fixture: String) throws {
    let folder = Self.fixtures.appendingPathComponent(fixture)
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("realmctl-repro-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    var files: [Data] = []
    for run in 0..<3 {
      let out = scratch.appendingPathComponent("\(run).realm").path
      let result = try EndToEndTests.run([
        "create", out, "--schema", folder.appendingPathComponent("schema.json").path,
        "--data", folder.appendingPathComponent("dump.jsonl").path,
      ])
      try #require(result.status == 0, "\(result.stderr)")
      files.append(try Data(contentsOf: URL(fileURLWithPath: out)))
    }
    expectEqual(files[1], files[0], "the second process wrote other bytes than the first")
    expectEqual(files[2], files[0], "the third process wrote other bytes than the first")
  }
}
