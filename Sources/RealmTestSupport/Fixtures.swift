import Foundation
import RealmTestBytes

/// Locates the test fixtures committed under `Tests/Fixtures` (copied from `shared/fixtures`).
public enum Fixtures {
  /// The `Tests/Fixtures` directory of this checkout.
  public static let root: URL = {
    // Sources/RealmTestSupport/Fixtures.swift -> package root
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures")
  }()

  /// The file at `relativePath` below `Tests/Fixtures`.
  public static func url(_ relativePath: String) -> URL {
    root.appendingPathComponent(relativePath)
  }

  /// The bytes of a fixture file.
  public static func bytes(_ relativePath: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: url(relativePath)))
  }

  /// The reading cases: directories with `before.realm`, `schema.json` and `dump.jsonl`.
  public static var readingCases: [String] {
    let fm = FileManager.default
    let names = (try? fm.contentsOfDirectory(atPath: root.path)) ?? []
    return names.sorted().filter {
      fm.fileExists(atPath: root.appendingPathComponent("\($0)/before.realm").path)
        && fm.fileExists(atPath: root.appendingPathComponent("\($0)/dump.jsonl").path)
    }
  }

  /// Runs `body` with the path of a file named `name` that holds `bytes`, in a fresh temporary
  /// directory removed afterwards.
  public static func withTemporaryFile<T>(
    _ bytes: [UInt8], named name: String, _ body: (String) throws -> T
  ) throws -> T {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent(name).path
    try TestFiles.write(bytes, to: path)
    return try body(path)
  }

  /// A fresh temporary directory, removed by the caller (or left for the OS).
  public static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "realmctl-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
