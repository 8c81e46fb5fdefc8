import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmRewrite
@testable import RealmStorage

/// The crash test of a whole-file conversion in place (`upgrade`, `unsync`): the conversion
/// killed with SIGKILL at every point that is not a bulk write and at writes spread over the
/// file. After each kill the file is byte for byte the old or the new file, and converting again
/// (as a user would) gives exactly the new file and removes what the killed run left behind.
/// The killed conversions run in ``ConversionCrashChild``.
struct ConversionCrashSweep: Sendable {
  /// The conversion's name, which tells the child which one to run.
  var name: String
  /// Small buffers: the write is made of many system calls to interrupt.
  var writeBufferSize: Int
  /// How many bulk writes to kill at (spread over the file), besides the last one.
  var spreadWrites: Int
  /// The conversion of the file at a path.
  var conversion: @Sendable (String, UpgradeOptions) throws -> Void

  /// `upgrade` (``UpgradeCrashTests``).
  static let upgrade = ConversionCrashSweep(name: "upgrade", writeBufferSize: 16 << 10, spreadWrites: 16) {
    _ = try Upgrader.upgrade(path: $0, options: $1)
  }
  /// `unsync` (``UnsyncCrashTests``).
  static let unsync = ConversionCrashSweep(name: "unsync", writeBufferSize: 4 << 10, spreadWrites: 8) {
    _ = try Unsyncer.unsync(path: $0, options: $1)
  }
  /// Every conversion a child may be asked to run.
  static let all = [upgrade, unsync]

  /// Converts the file at `path`, with a fault hook.
  func convert(_ path: String, _ faultInjection: (@Sendable (FaultPoint) -> FaultAction)?) throws {
    var options = UpgradeOptions()
    options.writeBufferSize = writeBufferSize
    options.faultInjection = faultInjection
    try conversion(path, options)
  }

  static func isWrite(_ point: FaultPoint) -> Bool {
    if case .write = point.operation { return true } else { return false }
  }

  /// Converts `old` once (recording the fault points; `checkNew` looks at the converted file at
  /// a path), then kills a child at each chosen point.
  func run(old: [UInt8], checkNew: (_ path: String, _ new: [UInt8]) throws -> Void) throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("crash.realm").path

    // The reference run records every fault point; a second run shows the result is stable.
    try TestFiles.write(old, to: path)
    let recorder = FaultPointRecorder()
    try convert(path, recorder.hook)
    let new = try TestFiles.bytes(path)
    #expect(new != old)
    try checkNew(path, new)
    try TestFiles.write(old, to: path)
    try convert(path, nil)
    #expect(TestFiles.same(try TestFiles.bytes(path), new), "the conversion is not deterministic")

    #expect(recorder.points.filter(Self.isWrite).count > spreadWrites)
    // By default every kind of point (FaultPointSweep); the full sweep: every point but the
    // bulk writes, and spreadWrites of those and the last.
    let chosen = FaultPointSweep.choose(recorder.points) {
      ChildTestRun.killPoints(recorder.points, bulk: Self.isWrite, spreading: spreadWrites, includingLast: true)
    }
    var states: [(point: FaultPoint, isNew: Bool)] = []
    for (i, point) in chosen.enumerated() {
      try TestFiles.write(old, to: path)
      let process = try ChildTestRun.run(
        "convertInChildProcess",
        environment: [
          ConversionCrashChild.fileEnvironment: path, ConversionCrashChild.conversionEnvironment: name,
          ConversionCrashChild.pointEnvironment: ChildTestRun.environmentValue(of: point),
        ])
      #expect(ChildTestRun.wasKilled(process), "not killed at \(point)")
      let after = try TestFiles.bytes(path)
      let isNew = TestFiles.same(after, new)
      #expect(isNew || TestFiles.same(after, old), "killed at \(point): neither the old nor the new file")
      states.append((point, isNew))
      if i % 4 == 0 || i == chosen.count - 1 {
        // Converting again completes the job and removes a killed run's temporary file.
        try convert(path, nil)
        #expect(TestFiles.same(try TestFiles.bytes(path), new), "killed at \(point): converting again did not give the new file")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".realmctl-tmp-") }
        #expect(left.isEmpty, "killed at \(point): \(left)")
      }
    }
    // The file switches at the rename, and only there.
    let rename = try #require(states.firstIndex { $0.point.operation == .rename })
    #expect(states[...rename].allSatisfy { !$0.isNew })
    #expect(states[(rename + 1)...].allSatisfy { $0.isNew })
    #expect(states.count > rename + 1)
  }
}

/// The child side of ``ConversionCrashSweep``: converts the file named in the environment and
/// SIGKILLs itself at the named fault point.
@Suite struct ConversionCrashChild {
  static let fileEnvironment = "REALMCTL_TEST_CONVERSION_CRASH_FILE"
  static let conversionEnvironment = "REALMCTL_TEST_CONVERSION_CRASH_NAME"
  static let pointEnvironment = "REALMCTL_TEST_CONVERSION_CRASH_AT"

  @Test(.enabled(if: ProcessInfo.processInfo.environment[fileEnvironment] != nil, SkipReason.childProcessOnly))
  func convertInChildProcess() throws {
    let env = ProcessInfo.processInfo.environment
    let path = try #require(env[Self.fileEnvironment])
    let sweep = try #require(ConversionCrashSweep.all.first { $0.name == env[Self.conversionEnvironment] })
    let hook = try #require(ChildTestRun.killHook(at: env[Self.pointEnvironment]))
    try sweep.convert(path, hook)
  }
}
