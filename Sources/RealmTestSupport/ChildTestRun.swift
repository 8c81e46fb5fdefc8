import Foundation
import RealmStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs one test of this test executable in a child process (the child side of a crash test,
/// which kills itself at a fault point, or of a lock test, which holds a lock) and waits for it
/// to end.
public enum ChildTestRun {
  /// This test executable.
  public static var testExecutable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }

  /// Runs the Swift Testing test named `test` with `environment` added to this process's, its
  /// output discarded, and returns the ended process (`terminationReason`, `terminationStatus`).
  public static func run(_ test: String, environment: [String: String]) throws -> Process {
    let process = try start(test, environment: environment)
    process.waitUntilExit()
    return process
  }

  /// Starts the Swift Testing test named `test` with `environment` added to this process's and
  /// returns the running process: its standard output goes to `stdout` and its standard input
  /// comes from `stdin` when given, its standard error is discarded.
  public static func start(
    _ test: String, environment: [String: String], stdout: Pipe? = nil, stdin: Pipe? = nil
  ) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: testExecutable)
    process.arguments = ["--testing-library", "swift-testing", "--filter", test]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = stdout ?? FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    if let stdin { process.standardInput = stdin }
    try process.run()
    return process
  }

  /// Whether the ended `process` was killed by SIGKILL (a crash test's child that reached its
  /// fault point).
  public static func wasKilled(_ process: Process) -> Bool {
    process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
  }
}

// MARK: - Killing a child at a fault point

extension ChildTestRun {
  /// The environment value that names `point` to a child: `index:before` or `index:after`.
  public static func environmentValue(of point: FaultPoint) -> String {
    "\(point.index):\(point.isBefore ? "before" : "after")"
  }

  /// The child's fault hook: SIGKILLs this process at the point that `value` (an
  /// ``environmentValue(of:)``) names, lets every other operation proceed. Nil when `value` is
  /// missing or malformed.
  public static func killHook(at value: String?) -> (@Sendable (FaultPoint) -> FaultAction)? {
    guard let spec = value?.split(separator: ":"), spec.count == 2, let index = Int(spec[0]) else { return nil }
    let before = spec[1] == "before"
    return { point in
      if point.index == index && point.isBefore == before { kill(getpid(), SIGKILL) }
      return .proceed
    }
  }

  /// The points to kill children at: every point that is not `bulk`, and `count` bulk points
  /// spread evenly over the bulk ones (and the last one when `includingLast`), in the order the
  /// write reaches them.
  public static func killPoints(
    _ points: [FaultPoint], bulk: (FaultPoint) -> Bool, spreading count: Int, includingLast: Bool = false
  ) -> [FaultPoint] {
    var chosen = points.filter { !bulk($0) }
    let bulkPoints = points.filter(bulk)
    let spread = min(max(0, count), bulkPoints.count)
    for k in 0..<spread { chosen.append(bulkPoints[k * bulkPoints.count / spread]) }
    if includingLast, let last = bulkPoints.last { chosen.append(last) }
    chosen.sort { ($0.index, $0.isBefore ? 0 : 1) < ($1.index, $1.isBefore ? 0 : 1) }
    return chosen
  }

  /// ``killPoints(_:bulk:spreading:includingLast:)`` with as many bulk points as make `total`
  /// points in all (or every point when there are fewer).
  public static func killPoints(_ points: [FaultPoint], bulk: (FaultPoint) -> Bool, total: Int) -> [FaultPoint] {
    killPoints(points, bulk: bulk, spreading: total - points.filter { !bulk($0) }.count)
  }
}

/// Collects the fault points of a reference run (its ``hook`` lets every operation proceed).
public final class FaultPointRecorder: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [FaultPoint] = []

  /// Creates an empty recorder.
  public init() {}

  /// The points recorded so far, in order.
  public var points: [FaultPoint] { lock.withLock { recorded } }

  /// The fault hook that records each point.
  public var hook: @Sendable (FaultPoint) -> FaultAction {
    { point in
      self.lock.withLock { self.recorded.append(point) }
      return .proceed
    }
  }
}
