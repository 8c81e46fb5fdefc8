import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmStorage
import RealmFormat

/// Issue 3, "done when" 3: a large write killed with SIGKILL at many moments spread over the
/// whole write; after each kill the file holds exactly the old or exactly the new version
/// and its space accounting is clean.
///
/// The write runs in a child process (this test binary re-launched with a filter on
/// ``performWriteInChildProcess()``), which kills itself at the chosen fault point — before
/// or after a given `pwrite`, `fsync` or resize — so every run is deterministic.
///
/// This is the commit engine's own test with a synthetic write (every node rewritten). Real
/// migrations (`Migrator.migrate` rewriting a 100,000-object file, and committing a rename in
/// place) are crash-tested the same way in `RealmMigrationTests/MigrationCrashTests.swift`,
/// which this target cannot import. To crash-test another storage-level write, replace the
/// body of ``performWrite(path:hook:)``: it must be deterministic and pass `hook` as
/// `WriteTransaction.Options.faultInjection`.
@Suite struct CrashTests {
  typealias Support = CommitTestSupport
  static let fileEnvironment = "REALMCTL_TEST_CRASH_FILE"
  static let pointEnvironment = "REALMCTL_TEST_CRASH_AT"

  /// The write under test: every node of the group rewritten copy-on-write.
  static func performWrite(path: String, hook: (@Sendable (FaultPoint) -> FaultAction)?) throws {
    var options = WriteTransaction.Options()
    // Small buffers: many separate writes to interrupt.
    options.writeBufferSize = 64 << 10
    options.faultInjection = hook
    let tx = try WriteTransaction.begin(path: path, options: options)
    let (names, tables) = try Support.rewriteEverything(tx)
    try tx.commit(tableNames: names, tables: tables)
  }

  /// Child process side: performs the write and SIGKILLs itself at the requested point.
  @Test(.enabled(if: ProcessInfo.processInfo.environment[fileEnvironment] != nil, SkipReason.childProcessOnly))
  func performWriteInChildProcess() throws {
    let env = ProcessInfo.processInfo.environment
    let path = try #require(env[Self.fileEnvironment])
    let hook = try #require(ChildTestRun.killHook(at: env[Self.pointEnvironment]))
    try Self.performWrite(path: path, hook: hook)
  }

  /// What one killed child left behind.
  struct Run: Sendable {
    var killed: Bool
    var state: CommitTestSupport.LogicalState
    var accountingError: String?
  }

  typealias Results = IndexedResults<Result<Run, any Error>>

  /// Copies `original` to `path`, runs the write in a child killed at `point`, inspects the file.
  static func killAndInspect(original: [UInt8], path: String, at point: FaultPoint) throws -> Run {
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.removeItem(atPath: FileLock.lockPath(forRealmAt: path))
    try Support.write(original, to: path)
    let child = try ChildTestRun.run(
      "performWriteInChildProcess",
      environment: [fileEnvironment: path, pointEnvironment: ChildTestRun.environmentValue(of: point)])
    let killed = ChildTestRun.wasKilled(child)
    let after = try Support.bytes(path)
    let state = try Support.logicalState(after)
    var accountingError: String?
    do {
      _ = try SpaceAccounting.verify(ByteReader(bytes: after))
    } catch {
      accountingError = "\(error)"
    }
    return Run(killed: killed, state: state, accountingError: accountingError)
  }

  /// Runs the crash loop on `fixture` with at least `minimumKills` kill points.
  func crashLoop(fixture: String, minimumKills: Int) throws {
    let original = try Support.bytes(Fixtures.url(fixture).path)
    let oldState = try Support.logicalState(original)

    // Reference run in-process: the new version and every fault point of the write.
    let reference = try Support.copyFixture(fixture)
    defer { Support.removeCopy(reference) }
    let recorder = FaultPointRecorder()
    try Self.performWrite(path: reference, hook: recorder.hook)
    let newState = try Support.logicalState(try Support.bytes(reference))
    #expect(newState != oldState)
    let points = recorder.points

    // By default every kind of point of the write (FaultPointSweep); the full sweep: every
    // point of the publishing stages, plus node writes spread evenly over the rest.
    let chosen = FaultPointSweep.choose(points) { ChildTestRun.killPoints(points, bulk: { $0.stage == .nodes }, total: minimumKills) }
    if FaultPointSweep.isFull { #expect(chosen.count >= minimumKills) }

    // Two children at a time (each on its own copy); results are checked on this thread.
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let results = Results(count: chosen.count)
    let killPoints = chosen
    let workers = 2
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      let path = dir.appendingPathComponent("crash-\(worker).realm").path
      for i in stride(from: worker, to: killPoints.count, by: workers) {
        results.set(
          i, Result { try Self.killAndInspect(original: original, path: path, at: killPoints[i]) })
      }
    }
    var outcomes: [(FaultPoint, Bool)] = []
    for (point, result) in zip(chosen, results.values) {
      let run = try #require(try result?.get())
      #expect(run.killed, "child for \(point) was not killed")
      #expect(run.state == oldState || run.state == newState, "killed at \(point): \(run.state)")
      #expect(
        run.accountingError == nil,
        "killed at \(point): space accounting fails: \(run.accountingError ?? "")")
      outcomes.append((point, run.state == newState))
    }
    // The file switches to the new version exactly once the select bit was written.
    let firstNew = outcomes.firstIndex { $0.1 }
    let flip = try #require(outcomes.firstIndex { $0.0.stage == .selectBit && !$0.0.isBefore })
    expectEqual(firstNew, flip)
    #expect(outcomes[flip...].allSatisfy { $0.1 })
  }

  /// 8.9 MB of large string nodes, every one rewritten (the file grows to about 17 MB).
  @Test func killedLargeRewriteLeavesOldOrNewVersion() throws {
    try crashLoop(fixture: "strings/before.realm", minimumKills: 64)
  }

  /// 7 MB of many small nodes of every column type (about 0.5 s per run in debug builds).
  @Test func killedRewriteOfManySmallNodesLeavesOldOrNewVersion() throws {
    try crashLoop(fixture: "alltypes/before.realm", minimumKills: 16)
  }

  @Test func killedStreamingConversionAndCommitLeavesOldOrNewVersion() throws {
    try crashLoop(fixture: "format-samples/v24_write_copy.realm", minimumKills: 20)
  }
}
