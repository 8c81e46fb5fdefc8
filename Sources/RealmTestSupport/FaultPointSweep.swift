import Foundation
import RealmStorage

/// Which fault points the crash tests (a child killed with SIGKILL at a point) and the fault
/// tests (a system call made to fail at a point) exercise.
///
/// Each point of a write is of one kind: the part of the commit protocol it belongs to
/// (``CommitStage``: new nodes, free lists and top, header slot, select bit, a replacement
/// file, ...), the system call (`pwrite`, `fsync`, a resize, `rename`), and whether it is
/// before or after the call. A test's reference run records every point; by default
/// (`make test`) it then exercises ``representative(_:)`` points: every kind at its first and
/// last occurrence, and once in the middle of the kinds that occur more than three times (the
/// bulk writes of nodes or of a replacement file). Every moment where the file changes its
/// meaning is a first or last point of its kind (the last node written, the header slot, the
/// select bit, the rename), so each is still exercised. With
/// `REALMCTL_FULL_CRASH_SWEEP=1` (``isFull``; `make fuzz`'s campaign sets it) each test runs
/// its full sweep instead (docs/testing.md, "Crash tests").
public enum FaultPointSweep {
  /// The environment variable that asks for every test's full sweep.
  public static let environmentVariable = "REALMCTL_FULL_CRASH_SWEEP"

  /// True when the full sweeps are asked for (the variable set, and not to `0`).
  public static var isFull: Bool {
    guard let value = ProcessInfo.processInfo.environment[environmentVariable] else { return false }
    return !value.isEmpty && value != "0"
  }

  /// The kind of a fault point: stage, system call, before or after it.
  public struct Kind: Hashable, Sendable {
    public var stage: CommitStage
    /// 0 `pwrite`, 1 `fsync`, 2 resize, 3 `rename`.
    public var call: Int
    public var isBefore: Bool

    /// The kind of `point`.
    public init(_ point: FaultPoint) {
      stage = point.stage
      switch point.operation {
      case .write: call = 0
      case .sync: call = 1
      case .resize: call = 2
      case .rename: call = 3
      }
      isBefore = point.isBefore
    }
  }

  /// A few of `points` (in the order of a write) that cover every kind of point among them:
  /// each kind's first and last occurrence, and its middle one when it occurs more than three
  /// times; in the order of `points`.
  public static func representative(_ points: [FaultPoint]) -> [FaultPoint] {
    representativePositions(points).map { points[$0] }
  }

  /// The positions in `points` of ``representative(_:)``, ascending.
  public static func representativePositions(_ points: [FaultPoint]) -> [Int] {
    var positions: [Kind: [Int]] = [:]
    for (i, point) in points.enumerated() { positions[Kind(point), default: []].append(i) }
    var chosen = Set<Int>()
    for (_, at) in positions {
      chosen.insert(at[0])
      chosen.insert(at[at.count - 1])
      if at.count > 3 { chosen.insert(at[at.count / 2]) }
    }
    return chosen.sorted()
  }

  /// The points to exercise: `full()` under the full sweep, ``representative(_:)`` otherwise.
  public static func choose(_ points: [FaultPoint], full: () -> [FaultPoint]) -> [FaultPoint] {
    isFull ? full() : representative(points)
  }

  /// For a loop that makes the k-th system call fail in-process (``FaultCounter``, which counts
  /// the points before each call): the values of k to run, from the points of a reference run
  /// (``FaultPointRecorder``). Every k under the full sweep; otherwise the positions of the
  /// representative points among the points before a call.
  public static func failurePositions(_ points: [FaultPoint]) -> [Int] {
    let before = points.filter(\.isBefore)
    return isFull ? Array(before.indices) : representativePositions(before)
  }
}
