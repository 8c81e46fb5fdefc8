import Foundation
import RealmTestBytes
import Synchronization
import RealmFormat
import RealmModel
import RealmTestSupport
import Testing

@testable import RealmStorage

/// Every encrypted fixture written by Realm Core reads with its key exactly as Realm's answers.
@Suite struct EncryptedReadTests {
  static func key(_ name: String) throws -> EncryptionKey {
    try EncryptionKey(keyFile: try Fixtures.bytes("encrypted/\(name).key"))
  }

  /// (encrypted file, key file, directory of Realm's answers, answer file prefix)
  static let cases: [(file: String, key: String, schema: String, dump: String)] = [
    ("encrypted/alltypes.realm", "alltypes", "alltypes/schema.json", "alltypes/dump.jsonl"),
    ("encrypted/person.realm", "person", "person-rename-age/schema.json", "person-rename-age/dump.jsonl"),
    ("encrypted/big.realm", "big", "encrypted/big.schema.json", "encrypted/big.dump.jsonl"),
    ("encrypted/after-migrate/before.realm", "after-migrate/before", "person-add-email/schema.json", "person-add-email/dump.jsonl"),
    ("encrypted/after-migrate/after.realm", "after-migrate/after", "person-add-email/after.schema.json", "person-add-email/after.dump.jsonl"),
  ]

  @Test(arguments: cases.indices)
  func readsWithItsKeyAsRealmDoes(_ i: Int) throws {
    let c = Self.cases[i]
    let path = Fixtures.url(c.file).path
    let key = try Self.key(c.key)
    let schema = try RealmDumper.schemaJSON(path, key: key)
    #expect(DumpComparison.compareSchemaWithFixture(c.schema, actual: schema).isEmpty)
    let dump = try RealmDumper.dumpJSONL(path, key: key)
    let problems = DumpComparison.compareDumpWithFixture(c.dump, schema: c.schema, actual: dump)
    #expect(problems.isEmpty, "\(problems.prefix(3))")
    let file = try RealmFile.open(path: path, key: key)
    #expect(file.isEncrypted)
    #expect(file.group.check().isEmpty)
  }

  @Test func withoutKeyIsRefusedAsEncrypted() {
    #expect(throws: StorageError(.encrypted, "")) {
      try RealmFile.open(path: Fixtures.url("encrypted/person.realm").path)
    }
  }

  @Test func wrongKeyUsesRealmsWording() throws {
    // alltypes.realm was written once (iv2 = 0 everywhere): Realm calls the mismatch an
    // interrupted first write; after.realm was written twice: the HMAC text.
    let wrong = try Self.key("person")
    let cases: [(String, String)] = [
      ("encrypted/alltypes.realm", "page 0 in file of size 6443008 has never been successfully written to, but a write was begun"),
      ("encrypted/after-migrate/after.realm", "page 0 in file of size 122880 failed the HMAC check. Either the encryption key is incorrect or data is corrupted"),
    ]
    let realm = String(decoding: try Fixtures.bytes("encrypted/wrong-key.txt"), as: UTF8.self)
    for (file, wording) in cases {
      #expect(realm.contains(wording))
      do {
        _ = try RealmFile.open(path: Fixtures.url(file).path, key: wrong)
        Issue.record("opened \(file) with the wrong key")
      } catch {
        expectEqual(error.code, .wrongKey)
        #expect(error.description.contains("does not match"))
        #expect(error.description.contains("Realm file decryption failed (Decryption failed: \(wording))"))
      }
    }
  }

  @Test func keyForPlainFileIsRefused() throws {
    #expect(throws: StorageError(.notEncrypted, "")) {
      try RealmFile.open(path: Fixtures.url("alltypes/before.realm").path, key: try Self.key("alltypes"))
    }
  }

  @Test func keyFileForms() throws {
    let hex = try Fixtures.bytes("encrypted/alltypes.key")
    let fromHex = try EncryptionKey(keyFile: hex)
    try expectEqual(EncryptionKey(keyFile: Array(0..<64)), fromHex)
    // Whitespace anywhere and upper case are accepted.
    var spaced: [UInt8] = []
    for (i, c) in Array(String(decoding: hex, as: UTF8.self).uppercased().utf8).enumerated() {
      spaced.append(c)
      if i % 16 == 15 { spaced += [0x20, 0x0A] }
    }
    try expectEqual(EncryptionKey(keyFile: spaced), fromHex)
    #expect(throws: EncryptionKey.FormatProblem.self) { try EncryptionKey(keyFile: Array(hex.prefix(100))) }
    var bad = hex
    bad[7] = UInt8(ascii: "g")
    #expect(throws: EncryptionKey.FormatProblem.self) { try EncryptionKey(keyFile: bad) }
    #expect(!"\(fromHex)".contains("0001"))
  }
}

/// The decrypting byte source under concurrent readers and read-ahead.
@Suite struct DecryptedFileTests {
  /// Several threads reading every object at once see the same data, and every page is
  /// decrypted at most once (readers and the read-ahead worker share the work).
  @Test func concurrentReadersDecryptEachPageOnce() throws {
    let path = Fixtures.url("encrypted/big.realm").path
    let key = try EncryptedReadTests.key("big")
    let file = try RealmFile.open(path: path, key: key)
    let group = file.group
    let producer = try #require(group.reader.pages?.producer as? DecryptedFile)
    let table = try #require(group.table(forClass: "Row"))
    let sums = Mutex<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      var count = 0
      try? group.forEachObject(in: table) { _, values in count += values.count }
      sums.withLock { $0.append(count) }
    }
    let counts = sums.withLock { $0 }
    #expect(counts.count == 4 && Set(counts).count == 1 && counts[0] == table.objectCount * 5)
    #expect(producer.decryptedPages.load(ordering: .relaxed) <= producer.pageCount)
  }
}
