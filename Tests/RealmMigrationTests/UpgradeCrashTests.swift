import Foundation
import RealmTestSupport
import Testing

@testable import RealmMigration
@testable import RealmStorage

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 7, "done when" 3: `upgrade` of a legacy file (format 9, Realm Core 5's alltypes)
/// killed with SIGKILL at moments spread over the whole write, as ``MigrationCrashTests`` does
/// for migrations. After each kill the file is byte for byte the old (format 9) or the new
/// (format 24) file, and upgrading it again (as a user would) gives exactly the new file and
/// removes what the killed run left behind.
@Suite(.serialized) struct UpgradeCrashTests {
  static let fileEnvironment = "REALMCTL_TEST_UPGRADE_CRASH_FILE"
  static let pointEnvironment = "REALMCTL_TEST_UPGRADE_CRASH_AT"
  /// Small buffers: the write is made of many system calls to interrupt.
  static let writeBufferSize = 16 << 10

  static func options(_ faultInjection: (@Sendable (FaultPoint) -> FaultAction)?) -> UpgradeOptions {
    var options = UpgradeOptions()
    options.writeBufferSize = writeBufferSize
    options.faultInjection = faultInjection
    return options
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment[fileEnvironment] != nil, SkipReason.childProcessOnly))
  func upgradeInChildProcess() throws {
    let env = ProcessInfo.processInfo.environment
    let path = try #require(env[Self.fileEnvironment])
    let spec = try #require(env[Self.pointEnvironment]).split(separator: ":")
    let index = try #require(Int(spec[0]))
    let before = spec[1] == "before"
    _ = try Upgrader.upgrade(path: path, options: Self.options { point in
      if point.index == index && point.isBefore == before { kill(getpid(), SIGKILL) }
      return .proceed
    })
  }

  final class Recorder: @unchecked Sendable {
    var points: [FaultPoint] = []
  }

  static func bytes(_ path: String) throws -> [UInt8] { try TestFiles.bytes(path) }


  @Test func killedUpgradeLeavesOldOrNewFile() throws {
    let old = try Fixtures.bytes("legacy-core5/alltypes/original.realm")
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("crash.realm").path

    // The reference run records every fault point; a second run shows the result is stable.
    try Data(old).write(to: URL(fileURLWithPath: path))
    let recorder = Recorder()
    _ = try Upgrader.upgrade(path: path, options: Self.options { point in
      recorder.points.append(point)
      return .proceed
    })
    let new = try Self.bytes(path)
    #expect(new[20] == 24 && new != old)
    #expect(try RealmFile.open(path: path).group.check().isEmpty)
    try Data(old).write(to: URL(fileURLWithPath: path))
    _ = try Upgrader.upgrade(path: path)
    #expect(try Self.bytes(path) == new, "the upgrade is not deterministic")

    // Every point but the bulk writes, and writes spread over the file.
    let points = recorder.points
    let isWrite: (FaultPoint) -> Bool = { if case .write = $0.operation { return true } else { return false } }
    var chosen = points.filter { !isWrite($0) }
    let writes = points.filter(isWrite)
    #expect(writes.count > 20)
    for k in 0..<16 { chosen.append(writes[k * writes.count / 16]) }
    chosen.append(writes[writes.count - 1])
    chosen.sort { ($0.index, $0.isBefore ? 0 : 1) < ($1.index, $1.isBefore ? 0 : 1) }

    var states: [(point: FaultPoint, isNew: Bool)] = []
    for (i, point) in chosen.enumerated() {
      try Data(old).write(to: URL(fileURLWithPath: path))
      let process = try ChildTestRun.run(
        "upgradeInChildProcess",
        environment: [Self.fileEnvironment: path, Self.pointEnvironment: "\(point.index):\(point.isBefore ? "before" : "after")"])
      #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL, "not killed at \(point)")
      let after = try Self.bytes(path)
      #expect(after == old || after == new, "killed at \(point): neither the old nor the new file")
      states.append((point, after == new))
      if i % 4 == 0 || i == chosen.count - 1 {
        // Upgrading again completes the job and removes a killed run's temporary file.
        _ = try Upgrader.upgrade(path: path)
        #expect(try Self.bytes(path) == new, "killed at \(point): upgrading again did not give the new file")
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
