import RealmFormat
import RealmTestSupport
import Testing

@testable import RealmStorage

/// Issue 7, "done when" 3: `upgrade` of a legacy file (format 9, Realm Core 5's alltypes)
/// killed with SIGKILL at moments spread over the whole write, as ``MigrationCrashTests`` does
/// for migrations. After each kill the file is byte for byte the old (format 9) or the new
/// (format 24) file, and upgrading it again (as a user would) gives exactly the new file and
/// removes what the killed run left behind (``ConversionCrashSweep``).
@Suite(.serialized) struct UpgradeCrashTests {
  @Test func killedUpgradeLeavesOldOrNewFile() throws {
    try ConversionCrashSweep.upgrade.run(old: try Fixtures.bytes("legacy-core5/alltypes/original.realm")) { path, new throws in
      expectEqual(new[20], 24)
      #expect(try RealmFile.open(path: path).group.check().isEmpty)
    }
  }
}
