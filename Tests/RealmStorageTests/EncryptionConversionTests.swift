import Foundation
import RealmFormat
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmStorage

/// `encrypt`, `decrypt` and re-keying through ``RealmEncryption``, checked against the bytes
/// Realm Core wrote.
@Suite struct EncryptionConversionTests {
  func key(_ name: String) throws -> EncryptionKey {
    try EncryptionKey(keyFile: try Fixtures.bytes("encrypted/\(name).key"))
  }

  func bytes(_ path: String) throws -> [UInt8] { try TestFiles.bytes(path) }

  /// Realm's encryption is deterministic (IVs start at 1): decrypting a fixture and encrypting
  /// the plaintext again with the same key gives Realm's bytes exactly.
  @Test(arguments: [("alltypes", "alltypes"), ("person", "person"), ("after-migrate/before", "after-migrate/before")])
  func reencryptionReproducesRealmsBytes(_ name: String, _ keyName: String) throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let source = Fixtures.url("encrypted/\(name).realm").path
    let plain = dir.appendingPathComponent("plain.realm").path
    let again = dir.appendingPathComponent("again.realm").path
    let k = try key(keyName)
    let decrypted = try RealmEncryption.rewrite(path: source, key: k, newKey: nil, outputPath: plain)
    expectEqual(decrypted.sizeAfter, EncryptedLayout.dataSize(fileSize: decrypted.sizeBefore))
    #expect(try RealmFile.open(path: plain).group.check().isEmpty)
    try RealmEncryption.rewrite(path: plain, key: nil, newKey: k, outputPath: again)
    try expectEqual(bytes(again), bytes(source))
  }

  /// A realm written more than once (iv2 != 0) is no write_copy: compare meaning, and that
  /// decrypting gives a plain file that reads the same.
  @Test func decryptedRealmReadsAsRealmsAnswer() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let plain = dir.appendingPathComponent("plain.realm").path
    try RealmEncryption.rewrite(
      path: Fixtures.url("encrypted/after-migrate/after.realm").path, key: try key("after-migrate/after"),
      newKey: nil, outputPath: plain)
    let dump = try RealmDumper.dumpJSONL(plain)
    #expect(DumpComparison.compareDumpWithFixture("person-add-email/after.dump.jsonl", schema: "person-add-email/after.schema.json", actual: dump).isEmpty)
  }

  @Test func encryptInPlaceRekeyAndDecryptRoundTrip() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("people.realm").path
    try FileManager.default.copyItem(atPath: Fixtures.url("person-add-email/before.realm").path, toPath: path)
    let original = try bytes(path)
    let k1 = try key("alltypes")
    let k2 = try key("person")
    try RealmEncryption.rewrite(path: path, key: nil, newKey: k1)
    #expect(!FileHeader.hasMnemonic(ByteReader(bytes: try bytes(path))))
    #expect(try RealmFile.open(path: path, key: k1).group.check().isEmpty)
    try RealmEncryption.rewrite(path: path, key: k1, newKey: k2)
    #expect(throws: StorageError(.wrongKey, "")) { try RealmFile.open(path: path, key: k1) }
    let dump = try RealmDumper.dumpJSONL(path, key: k2)
    #expect(DumpComparison.compareDumpWithFixture("person-add-email/dump.jsonl", schema: "person-add-email/schema.json", actual: dump).isEmpty)
    try RealmEncryption.rewrite(path: path, key: k2, newKey: nil)
    #expect(TestFiles.same(try bytes(path), original))
  }
}
