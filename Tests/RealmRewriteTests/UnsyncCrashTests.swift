import RealmFormat
import RealmModel
import RealmTestSupport
import Testing

@testable import RealmStorage

/// Issue 19, "done when" 3: `unsync` in place killed with SIGKILL at moments spread over the
/// whole write, as ``UpgradeCrashTests`` does for `upgrade`. After each kill the file is byte
/// for byte the synced file as before or the converted one, and converting again gives exactly
/// the converted file and removes what the killed run left behind (``ConversionCrashSweep``).
@Suite(.serialized) struct UnsyncCrashTests {
  @Test func killedUnsyncLeavesSyncedOrLocalFile() throws {
    var shape = SyncedFiles.Shape()
    shape.flexible = true
    shape.dogs = 3_000
    shape.subscriptions = [("dogs", "Dog", "TRUEPREDICATE")]
    (shape.history, shape.uploadCursor) = SyncedFiles.history(pending: 1)
    try ConversionCrashSweep.unsync.run(old: try SyncedFiles.build(shape)) { path, _ throws in
      try expectEqual(RealmFile.open(path: path).group.historyType, .inRealm)
    }
  }
}
