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
    expectEqual(run.status, 66)
    #expect(run.output.isEmpty)
    expectEqual(run.errors, "Error: No such file: 'no-such.realm'\n")
  }

  @Test(arguments: commands)
  func notARealmFileIs65(_ command: [String]) {
    let path = fixturePath("README.md")
    let run = CommandRun([command[0], path] + command.dropFirst())
    expectEqual(run.status, 65)
    #expect(run.errors.hasPrefix("Error: '\(path)' is not a Realm file"))
  }

  @Test(SharedFixtures.enabled, arguments: commands)
  func encryptedFileIs65AndSaysSo(_ command: [String]) throws {
    let path = try FixtureLocation.shared.path(SharedFixtures.realmCoreSample("test__test_shared_decrypt_4k_page"))
    let run = CommandRun([command[0], path] + command.dropFirst())
    expectEqual(run.status, 65)
    expectEqual(run.errors, "Error: '\(path)' is encrypted (it has no readable Realm header): give its key with --key-file or REALMCTL_KEY\n")
  }

  /// Formats no Realm Core writes any more (1) or ever wrote (12-19), and formats newer than
  /// realmctl: exit 65 with the format named.
  @Test(arguments: [(1, "file format 1 is not supported (the first Realm files"), (15, "file format 15 is not supported (realmctl reads formats 2 to 11 and 20 to 24)"), (25, "file format 25 is not supported (realmctl reads formats 2 to 11 and 20 to 24; format 25 comes only from realm-core's unreleased next-major branch)")])
  func unknownFormatsAre65(_ format: Int, _ message: String) throws {
    var bytes = try Fixtures.bytes("user-tutorial/before.realm")
    bytes[20] = UInt8(format)
    bytes[21] = UInt8(format)
    try Fixtures.withTemporaryFile(bytes, named: "other.realm") { path in
      for command in Self.commands {
        let run = CommandRun([command[0], path] + command.dropFirst())
        expectEqual(run.status, 65)
        #expect(run.errors.contains(message), "\(run.errors)")
      }
    }
  }

  /// A Git LFS pointer committed in place of the file is named as such (issue 7).
  @Test func gitLFSPointerIs65AndSaysSo() throws {
    let pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n"
    try Fixtures.withTemporaryFile(Array(pointer.utf8), named: "seed.realm") { path in
      for command in Self.commands {
        let run = CommandRun([command[0], path] + command.dropFirst())
        expectEqual(run.status, 65)
        expectEqual(run.errors, "Error: '\(path)' is a Git LFS pointer, not the Realm file: run `git lfs pull` to fetch the file\n")
      }
    }
  }

  /// A size that is not a multiple of 8: the usual damage of a text-mode transfer (issue 7).
  @Test func sizeNotAMultipleOf8SaysHowFilesGetDamaged() throws {
    // What git's autocrlf does: a CR before an LF byte (here the first one).
    var bytes = try Fixtures.bytes("user-tutorial/before.realm")
    bytes.insert(0x0D, at: try #require(bytes.firstIndex(of: 0x0A)))
    #expect(bytes.count % 8 != 0)
    try Fixtures.withTemporaryFile(bytes, named: "crlf.realm") { path in
      let run = CommandRun(["open", path])
      expectEqual(run.status, 65)
      #expect(run.errors.contains("is not a multiple of 8: it was damaged in transfer, most likely by a line-ending conversion or a text-mode transfer"), "\(run.errors)")
    }
  }

  @Test func truncatedFileIs65() throws {
    let half = Array(try Fixtures.bytes("user-tutorial/before.realm").prefix(4096))
    try Fixtures.withTemporaryFile(half, named: "half.realm") { path in
      for command in Self.commands {
        let run = CommandRun([command[0], path] + command.dropFirst())
        expectEqual(run.status, 65)
        #expect(run.errors.hasPrefix("Error: '\(path)' is not a valid Realm file: "))
      }
    }
  }

  @Test func directoryIsNotReadable() {
    let run = CommandRun(["dump", Fixtures.root.path])
    expectEqual(run.status, 66)
    #expect(run.errors.contains("is a directory"))
  }

  @Test func storageErrorCodesMapToSysexits() {
    let expected: [(StorageError.Code, Int32)] = [
      (.fileNotFound, 66), (.permissionDenied, 77), (.notARealmFile, 65), (.encrypted, 65),
      (.unsupportedFormat, 65), (.corrupt, 65), (.locked, 75), (.io, 74), (.unsupported, 65), (.misuse, 70),
    ]
    for (code, status) in expected {
      expectEqual(ExitCode.forError(StorageError(code, "x")).rawValue, status, "\(code)")
    }
  }

  @Test func migrationErrorsAreDataErrors() {
    for code: MigrationError.Code in [
      .invalidPlan, .versionLower, .migrationRequired, .dataLoss, .constraintViolated, .evaluationFailed,
      .execFailed, .unsupported,
    ] {
      expectEqual(ExitCode.forError(MigrationError(code, "x")), .dataError, "\(code)")
    }
  }
}
