import Foundation
import Testing

/// A program of this machine the export tests use when it is installed (`sqlite3`, `javac`,
/// `java`, `node`); the tests that need one are skipped, with the reason, when it is not.
struct ExternalTool: Sendable {
  /// The executable's path.
  var path: String

  /// The tool called `name` on `PATH`, nil when there is none.
  static func find(_ name: String) -> ExternalTool? {
    let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for dir in dirs {
      let candidate = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return ExternalTool(path: candidate) }
    }
    return nil
  }

  static let sqlite3 = find("sqlite3")
  static let javac = find("javac")
  static let java = find("java")
  static let node = find("node")
  static let swiftc = find("swiftc")
  static let tsc = find("tsc")
  static let kotlinc = find("kotlinc")
  static let dart = find("dart")
  static let dotnet = find("dotnet")

  /// The trait of a test that needs `tool`: skipped, saying why, when it is absent.
  static func required(_ tool: ExternalTool?, _ name: String) -> ConditionTrait {
    .enabled(if: tool != nil, "\(name) is not installed on this machine: skipped")
  }

  struct Result {
    var status: Int32
    var stdout: Data
    var stderr: String
  }

  /// Runs the tool with `arguments`, standard input read from `input` (a file) when given,
  /// in `directory`. Output goes through files, so no pipe can fill up.
  func run(_ arguments: [String], input: URL? = nil, in directory: URL? = nil) throws -> Result {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("realmctl-tool-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outURL = scratch.appendingPathComponent("out")
    let errURL = scratch.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    if let input {
      process.standardInput = try FileHandle(forReadingFrom: input)
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    return Result(
      status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
  }
}
