import Foundation
import RealmTestSupport
import Testing

@testable import RealmCLI

/// Runs the built `realmctl` executable (`swift test` builds every product first) and checks
/// stdout, stderr and the exit status, as SAP's `AssertExecuteCommand` does.
@Suite struct EndToEndTests {
  /// `.build/<configuration>/realmctl`, found beside the test bundle.
  static var executable: URL? {
    var candidates: [URL] = []
    // The test bundle (or the xctest runner) lives in the products directory itself.
    for bundle in Bundle.allBundles {
      candidates.append(
        bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("realmctl"))
    }
    candidates.append(
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("realmctl"))
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(packageRoot.appendingPathComponent(".build/debug/realmctl"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  struct Result {
    var stdout: String
    var stderr: String
    var status: Int32
    var reason: Process.TerminationReason
  }

  /// Runs realmctl with `arguments`; `closeStdout` closes the reading end of its stdout first.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], closeStdout: Bool = false
  )
    throws -> Result
  {
    let executable = try #require(Self.executable, "build realmctl first (swift build)")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["COLUMNS"] = nil
    env.merge(environment) { $1 }
    process.environment = env
    let out = Pipe()
    process.standardOutput = out
    // Standard error goes to a file, so neither stream can fill up while the other is read.
    let errURL = FileManager.default.temporaryDirectory.appendingPathComponent(
      "realmctl-e2e-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errURL) }
    let err = try FileHandle(forWritingTo: errURL)
    process.standardError = err
    if closeStdout { try out.fileHandleForReading.close() }
    try process.run()
    let stdoutData = closeStdout ? Data() : out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try err.close()
    let stderrData = try Data(contentsOf: errURL)
    return Result(
      stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: stderrData, as: UTF8.self), status: process.terminationStatus,
      reason: process.terminationReason)
  }

  @Test func printsTheVersion() throws {
    let result = try Self.run(["--version"])
    // The binary and this test are built together: the same version and build stamp.
    expectEqual(result.stdout, VersionReport.current().line)
    #expect(result.stdout.hasPrefix(ReleaseVersion.number + " ("))
    expectEqual(result.stderr, "")
    expectEqual(result.status, 0)
  }

  @Test func printsTheRootHelp() throws {
    let snapshot = try String(
      contentsOf: Snapshot.directory.appendingPathComponent("help-realmctl.txt"), encoding: .utf8)
    for arguments in [["help"], [], ["--help"]] {
      let result = try Self.run(arguments)
      expectEqual(result.stdout, snapshot, "\(arguments)")
      expectEqual(result.stderr, "")
      expectEqual(result.status, 0)
    }
  }

  @Test func wrapsHelpToColumns() throws {
    let result = try Self.run(["schema", "--help"], environment: ["COLUMNS": "50"])
    #expect(
      result.stdout.contains(
        "  --class <name>          Print only the class\n                          named <name>.\n")
    )
  }

  @Test func reportsAUsageErrorWithExit64() throws {
    let result = try Self.run(["schema", "x.realm", "--format", "xml"])
    expectEqual(result.stdout, "")
    expectEqual(result.stderr, UsageErrorOutputTests.invalidSchemaFormat + UsageErrorOutputTests.schemaUsage)
    expectEqual(result.status, 64)
  }

  @Test func reportsAMissingFileWithExit66() throws {
    let result = try Self.run(["dump", "/no/such/file.realm"])
    expectEqual(result.stderr, "Error: No such file: '/no/such/file.realm'\n")
    expectEqual(result.status, 66)
  }

  @Test func noColourWhenStandardErrorIsAPipe() throws {
    let result = try Self.run(["open", "/no/such/file.realm"], environment: ["NO_COLOR": "1"])
    #expect(!result.stderr.contains("\u{1B}"))
  }

  @Test func aClosedPipeEndsQuietly() throws {
    let result = try Self.run(["help"], closeStdout: true)
    expectEqual(result.reason, .exit)
    expectEqual(result.status, 0)
    expectEqual(result.stderr, "")
  }
}
