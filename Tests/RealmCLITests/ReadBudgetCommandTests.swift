import Foundation
import RealmTestSupport
import Testing

/// The read budget through the commands (docs/file-formats.md, "Bounded reading"): a damaged
/// file whose objects would expand far beyond its size gets exit status 65 and a clear error,
/// and prints no more than the bound.
@Suite struct ReadBudgetCommandTests {
  @Test func dumpOfAFileThatExpandsWithoutEndIs65() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let good = dir.appendingPathComponent("good.realm").path
    let damaged = dir.appendingPathComponent("damaged.realm").path
    let bytes = try CraftedFiles.holders(listCount: 3000)
    try Data(bytes).write(to: URL(fileURLWithPath: good))
    try Data(try CraftedFiles.sharingOneList(bytes)).write(to: URL(fileURLWithPath: damaged))

    let fine = CommandRun(["dump", good, "--format", "jsonl"])
    expectEqual(fine.status, 0, "\(fine.errors)")
    expectEqual(fine.text.split(separator: "\n").count, 256)

    for format in ["jsonl", "json", "table"] {
      let run = CommandRun(["dump", damaged, "--format", format])
      expectEqual(run.status, 65, "\(format): \(run.status) \(run.errors)")
      #expect(run.errors.hasPrefix("Error: '\(damaged)' is not a valid Realm file: "), "\(run.errors)")
      #expect(run.errors.contains("units of values a reading may decode, 16 per byte of the file"), "\(run.errors)")
      // 256 lists of 3000 numbers would print about 2.3 MB in JSON Lines: the output stops
      // when the budget (16 units per byte of the file) is spent.
      #expect(run.output.count < 256 * 3000 * 3 / 2, "\(format): \(run.output.count) bytes")
    }
  }
}
