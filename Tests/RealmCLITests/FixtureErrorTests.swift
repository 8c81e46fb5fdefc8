import Foundation
import RealmCLI
import RealmMigration
import RealmStorage
import RealmTestSupport
import Testing

/// Exit codes and messages of `open`, `schema` and `dump` for files they cannot read, end to
/// end through the command layer (docs/exit-codes.md).
@Suite struct FixtureErrorTests {
  static let commands = [["open"], ["open", "--check"], ["schema"], ["dump"]]

  @Test(arguments: commands)
  func missingFileIs66(_ command: [String]) {
    let run = CommandRun([command[0], "no-such.realm"] + command.dropFirst())
    #expect(run.status == 66)
    #expect(run.output.isEmpty)
    #expect(run.errors == "Error: No such file: 'no-such.realm'\n")
  }

  @Test(arguments: commands)
  func notARealmFileIs65(_ command: [String]) {
    let path = fixturePath("README.md")
    let run = CommandRun([command[0], path] + command.dropFirst())
    #expect(run.status == 65)
    #expect(run.errors.hasPrefix("Error: '\(path)' is not a Realm file"))
  }

  @Test(SharedFixtures.enabled, arguments: commands)
  func encryptedFileIs65AndSaysSo(_ command: [String]) throws {
    let path = try FixtureLocation.shared.path(SharedFixtures.realmCoreSample("test__test_shared_decrypt_4k_page"))
    let run = CommandRun([command[0], path] + command.dropFirst())
    #expect(run.status == 65)
    #expect(run.errors == "Error: '\(path)' is encrypted (it has no readable Realm header): give its key with --key-file or REALMCTL_KEY\n")
  }

  /// Realm Core itself refuses these ("Database has an unsupported version (9) ...", error.txt).
  @Test(SharedFixtures.enabled, arguments: [
    ("test__resources__consistency_full_0", 9), ("test__resources__admin_realm_issue_1794", 9),
    ("test__test_upgrade_database_1000_1", 2),
  ])
  func formatsBeforeRealmCore6Are65(_ sample: String, _ format: Int) throws {
    let path = try FixtureLocation.shared.path(SharedFixtures.realmCoreSample(sample))
    for command in Self.commands {
      let run = CommandRun([command[0], path] + command.dropFirst())
      #expect(run.status == 65)
      #expect(run.errors.contains("file format \(format) is not supported"), "\(run.errors)")
    }
  }

  @Test func truncatedFileIs65() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("half.realm").path
    try Data(try Fixtures.bytes("user-tutorial/before.realm").prefix(4096)).write(to: URL(fileURLWithPath: path))
    for command in Self.commands {
      let run = CommandRun([command[0], path] + command.dropFirst())
      #expect(run.status == 65)
      #expect(run.errors.hasPrefix("Error: '\(path)' is not a valid Realm file: "))
    }
  }

  @Test func directoryIsNotReadable() {
    let run = CommandRun(["dump", Fixtures.root.path])
    #expect(run.status == 66)
    #expect(run.errors.contains("is a directory"))
  }

  @Test func storageErrorCodesMapToSysexits() {
    let expected: [(StorageError.Code, Int32)] = [
      (.fileNotFound, 66), (.permissionDenied, 77), (.notARealmFile, 65), (.encrypted, 65),
      (.unsupportedFormat, 65), (.corrupt, 65), (.locked, 75), (.io, 74), (.unsupported, 65), (.misuse, 70),
    ]
    for (code, status) in expected {
      #expect(ExitCode.forError(StorageError(code, "x")).rawValue == status, "\(code)")
    }
  }

  @Test func migrationErrorsAreDataErrors() {
    for code: MigrationError.Code in [
      .invalidPlan, .versionLower, .migrationRequired, .dataLoss, .constraintViolated, .evaluationFailed,
      .execFailed, .unsupported,
    ] {
      #expect(ExitCode.forError(MigrationError(code, "x")) == .dataError, "\(code)")
    }
  }
}
