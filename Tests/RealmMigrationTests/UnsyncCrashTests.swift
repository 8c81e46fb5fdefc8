import Foundation
import RealmTestSupport
import Testing

@testable import RealmMigration
@testable import RealmStorage

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 19, "done when" 3: `unsync` in place killed with SIGKILL at moments spread over the
/// whole write, as ``UpgradeCrashTests`` does for `upgrade`. After each kill the file is byte
/// for byte the synced file as before or the converted one, and converting again gives exactly
/// the converted file and removes what the killed run left behind.
@Suite(.serialized) struct UnsyncCrashTests {
  static let fileEnvironment = "REALMCTL_TEST_UNSYNC_CRASH_FILE"
  static let pointEnvironment = "REALMCTL_TEST_UNSYNC_CRASH_AT"

  static func options(_ faultInjection: (@Sendable (FaultPoint) -> FaultAction)?) -> UpgradeOptions {
    var options = UpgradeOptions()
    options.writeBufferSize = 4 << 10  // many system calls to interrupt
    options.faultInjection = faultInjection
    return options
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment[fileEnvironment] != nil, SkipReason.childProcessOnly))
  func unsyncInChildProcess() throws {
    let env = ProcessInfo.processInfo.environment
    let path = try #require(env[Self.fileEnvironment])
    let spec = try #require(env[Self.pointEnvironment]).split(separator: ":")
    let index = try #require(Int(spec[0]))
    let before = spec[1] == "before"
    _ = try Unsyncer.unsync(path: path, options: Self.options { point in
      if point.index == index && point.isBefore == before { kill(getpid(), SIGKILL) }
      return .proceed
    })
  }

  final class Recorder: @unchecked Sendable {
    var points: [FaultPoint] = []
  }

  @Test func killedUnsyncLeavesSyncedOrLocalFile() throws {
    var shape = SyncedFiles.Shape()
    shape.flexible = true
    shape.dogs = 3_000
    shape.subscriptions = [("dogs", "Dog", "TRUEPREDICATE")]
    (shape.history, shape.uploadCursor) = SyncedFiles.history(pending: 1)
    let old = try SyncedFiles.build(shape)
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("crash.realm").path

    try TestFiles.write(old, to: path)
    let recorder = Recorder()
    _ = try Unsyncer.unsync(path: path, options: Self.options { point in
      recorder.points.append(point)
      return .proceed
    })
    let new = try UpgradeCrashTests.bytes(path)
    #expect(new != old)
    #expect(try RealmFile.open(path: path).group.historyType == .inRealm)
    try TestFiles.write(old, to: path)
    _ = try Unsyncer.unsync(path: path)
    #expect(try UpgradeCrashTests.bytes(path) == new, "the conversion is not deterministic")

    let points = recorder.points
    let isWrite: (FaultPoint) -> Bool = { if case .write = $0.operation { return true } else { return false } }
    var chosen = points.filter { !isWrite($0) }
    let writes = points.filter(isWrite)
    #expect(writes.count > 8)
    for k in 0..<8 { chosen.append(writes[k * writes.count / 8]) }
    chosen.append(writes[writes.count - 1])
    chosen.sort { ($0.index, $0.isBefore ? 0 : 1) < ($1.index, $1.isBefore ? 0 : 1) }

    var states: [(point: FaultPoint, isNew: Bool)] = []
    for (i, point) in chosen.enumerated() {
      try TestFiles.write(old, to: path)
      let process = try ChildTestRun.run(
        "unsyncInChildProcess",
        environment: [Self.fileEnvironment: path, Self.pointEnvironment: "\(point.index):\(point.isBefore ? "before" : "after")"])
      #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL, "not killed at \(point)")
      let after = try UpgradeCrashTests.bytes(path)
      #expect(after == old || after == new, "killed at \(point): neither the synced nor the converted file")
      states.append((point, after == new))
      if i % 4 == 0 || i == chosen.count - 1 {
        _ = try Unsyncer.unsync(path: path)
        #expect(try UpgradeCrashTests.bytes(path) == new, "killed at \(point): converting again did not give the local file")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".realmctl-tmp-") }
        #expect(left.isEmpty, "killed at \(point): \(left)")
      }
    }
    let rename = try #require(states.firstIndex { $0.point.operation == .rename })
    #expect(states[...rename].allSatisfy { !$0.isNew })
    #expect(states[(rename + 1)...].allSatisfy { $0.isNew })
    #expect(states.count > rename + 1)
  }
}
