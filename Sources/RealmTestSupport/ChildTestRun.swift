import Foundation

/// Runs one test of this test executable in a child process (the child side of a crash test,
/// which kills itself at a fault point) and waits for it to end.
public enum ChildTestRun {
  /// This test executable.
  public static var testExecutable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }

  /// Runs the Swift Testing test named `test` with `environment` added to this process's, its
  /// output discarded, and returns the ended process (`terminationReason`, `terminationStatus`).
  public static func run(_ test: String, environment: [String: String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: testExecutable)
    process.arguments = ["--testing-library", "swift-testing", "--filter", test]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process
  }
}
