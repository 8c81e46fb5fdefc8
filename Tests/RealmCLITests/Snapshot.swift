import Foundation
import Testing

/// Golden files under `Tests/RealmCLITests/Snapshots`; `RECORD_SNAPSHOTS=1` rewrites them.
enum Snapshot {
  /// The folder of the snapshot files.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Snapshots")

  /// The package root (for docs/).
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Whether snapshots and generated doc sections are being re-recorded.
  static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

  /// Compares `actual` with the snapshot `name` (or records it).
  static func assertMatches(
    _ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let url = directory.appendingPathComponent(name)
    if isRecording {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(
      actual == expected, "snapshot \(name) differs; RECORD_SNAPSHOTS=1 re-records it",
      sourceLocation: sourceLocation)
  }
}
