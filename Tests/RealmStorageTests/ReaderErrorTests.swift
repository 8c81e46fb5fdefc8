import Foundation
import RealmFormat
import RealmModel
import RealmStorage
import RealmTestSupport
import Testing

@Suite struct ReaderErrorTests {
  /// Writes `bytes` to a fresh temporary file and returns its path.
  func temporaryFile(_ bytes: [UInt8], name: String = "test.realm") throws -> String {
    let dir = try Fixtures.temporaryDirectory()
    let url = dir.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  func openError(_ path: String) -> StorageError? {
    do {
      _ = try RealmFile.open(path: path)
      return nil
    } catch {
      return error
    }
  }

  @Test func missingFile() {
    let e = openError("/nonexistent/dir/nothing.realm")
    expectEqual(e?.code, .fileNotFound)
    expectEqual(e?.description, "'/nonexistent/dir/nothing.realm' does not exist")
  }

  @Test func directoryIsNotARealmFile() throws {
    let dir = try Fixtures.temporaryDirectory()
    expectEqual(openError(dir.path)?.code, .notARealmFile)
  }

  @Test(arguments: [0, 1, 23])
  func fileSmallerThanTheHeader(_ size: Int) throws {
    let path = try temporaryFile([UInt8](repeating: 0x41, count: size))
    let e = try #require(openError(path))
    expectEqual(e.code, .notARealmFile)
    #expect(e.description.contains("fewer than the 24-byte Realm header"))
  }

  @Test func wrongMnemonic() throws {
    var bytes = try Fixtures.bytes("format-samples/v24_plain_group.realm")
    bytes[16] = UInt8(ascii: "X")
    let e = try #require(openError(try temporaryFile(bytes)))
    expectEqual(e.code, .notARealmFile)
    #expect(e.description.contains("'T-DB'"))
  }

  @Test func textFileIsNotARealmFile() throws {
    let path = try temporaryFile(Array("hello, this is certainly not a realm file\n".utf8))
    expectEqual(openError(path)?.code, .notARealmFile)
  }

  @Test(SharedFixtures.enabled, arguments: ["test__test_shared_decrypt_4k_page", "test__test_shared_decrypt_64k_page"])
  func encryptedFile(_ sample: String) throws {
    let e = try #require(openError(try FixtureLocation.shared.path(SharedFixtures.realmCoreSample(sample))))
    expectEqual(e.code, .encrypted)
    #expect(e.description.hasSuffix("is encrypted (it has no readable Realm header): give its key"))
  }

  @Test(arguments: [1, 12, 19, 25, 255])
  func unknownFormatsAreRefused(_ format: Int) throws {
    var bytes = try Fixtures.bytes("user-tutorial/before.realm")
    bytes[20] = UInt8(format)
    bytes[21] = UInt8(format)
    let e = try #require(openError(try temporaryFile(bytes)))
    expectEqual(e.code, .unsupportedFormat)
    #expect(e.description.contains("file format \(format) is not supported"))
  }

  /// Formats 2-9 are read (through the legacy table layout).
  @Test func legacyFormatOpens() throws {
    let file = try RealmFile.open(path: Fixtures.url("legacy-core5/person-v1/original.realm").path)
    expectEqual(file.group.fileFormat, 9)
    expectEqual(file.group.table(forClass: "Person")?.objectCount, 20)
    #expect(file.group.table(named: "pk") == nil)
  }

  @Test(arguments: [24, 1000, 4096, 50_000, 1_000_000, 7_340_032 - 8, 7_340_032 - 4096])
  func truncatedFileIsCorrupt(_ length: Int) throws {
    let bytes = Array(try Fixtures.bytes("alltypes/before.realm").prefix(length))
    let e = try #require(openError(try temporaryFile(bytes)))
    expectEqual(e.code, .corrupt, "\(e)")
    #expect(e.formatError != nil)
    #expect(e.description.hasPrefix("'"))
  }

  @Test func everyPrefixOfASmallFileFailsCleanly() throws {
    everyPrefixFails(try Fixtures.bytes("format-samples/v24_plain_group.realm"))
  }

  @Test(SharedFixtures.enabled)
  func everyPrefixOfASmallFormat11FileFailsCleanly() throws {
    everyPrefixFails(try FixtureLocation.shared.bytes(SharedFixtures.realmCoreSample("test__test_upgrade_database_11")))
  }

  func everyPrefixFails(_ bytes: [UInt8]) {
    for length in 0..<bytes.count {
      let reader = ByteReader(bytes: Array(bytes.prefix(length)))
      #expect(throws: FormatError.self) { _ = try Group(reader: reader) }
    }
  }

  @Test func openingNeverWritesOrCreatesALockFile() throws {
    let dir = try Fixtures.temporaryDirectory()
    let url = dir.appendingPathComponent("copy.realm")
    let original = try Fixtures.bytes("format-samples/v24_commit.realm")
    try Data(original).write(to: url)
    // Read-only permissions: opening must not need write access.
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
    let file = try RealmFile.open(path: url.path)
    expectEqual(file.fileSize, original.count)
    #expect(file.group.tables.count > 0)
    try expectEqual(Data(contentsOf: url), Data(original))
    let contents = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    expectEqual(contents, ["copy.realm"])
  }

  @Test(SharedFixtures.enabled)
  func emptyRealmHasNoTables() throws {
    let file = try RealmFile.open(path: try FixtureLocation.shared.path(SharedFixtures.realmCoreSample("test__resources__vacuum_no_history_type")))
    #expect(file.group.tables.isEmpty)
    expectEqual(file.group.topRef, .null)
    let schema = try file.group.schema()
    #expect(schema.classes.isEmpty)
    #expect(schema.schemaVersion == nil)
  }
}
