import Foundation
import RealmFormat
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmStorage

/// Realm's in-place commit protocol on encrypted files (issue 8): WriteTransaction writes
/// through the encrypted page store, with the same atomicity as on plain files.
@Suite struct EncryptedCommitTests {
  typealias Support = CommitTestSupport
  static let key = try! EncryptionKey(keyFile: try! Fixtures.bytes("encrypted/person.key"))

  /// The plaintext of an encrypted file (pages never written, or cut off, as zeros).
  static func plaintext(_ bytes: [UInt8]) throws -> [UInt8] {
    let holder = ByteReader(bytes: bytes)
    let file = try DecryptedFile(raw: holder.base, owner: holder.owner!, key: key)
    var out = [UInt8](repeating: 0, count: EncryptedLayout.completeDataPages(fileSize: bytes.count) * 4096)
    for page in 0..<(out.count / 4096) {
      let result = out.withUnsafeMutableBytes { file.read(page: page, into: $0.baseAddress! + page * 4096) }
      if result == .failed { throw FormatError.corrupt("page \(page) fails its HMAC check") }
    }
    return out
  }

  static func renameCommit(_ path: String, options: WriteTransaction.Options) throws -> WriteTransaction.CommitResult {
    var options = options
    options.encryptionKey = key
    let tx = try WriteTransaction.begin(path: path, options: options)
    let top = try #require(tx.top)
    let names = try tx.allocate(try Support.renamedCopy(of: try top.ref(0), in: tx.reader))
    try tx.free(try top.ref(0))
    return try tx.commit(tableNames: names, tables: try top.ref(1))
  }

  /// Six commits in a row on an encrypted streaming-form file (Realm's write_copy): every
  /// version reads, checks clean and accounts for every byte; the file stays encrypted.
  @Test func repeatedCommitsOnAnEncryptedFile() throws {
    try Support.withCopy(of: "encrypted/person.realm") { path in
      var versions: [UInt64] = []
      for _ in 0..<6 {
        let result = try Self.renameCommit(path, options: WriteTransaction.Options())
        versions.append(result.version)
        let file = try RealmFile.open(path: path, key: Self.key)
        #expect(file.group.check().isEmpty)
        expectEqual(file.group.topRef, result.topRef)
        let plain = try Self.plaintext(try Support.bytes(path))
        let report = try SpaceAccounting.verify(ByteReader(bytes: plain))
        expectEqual(report.topRef, result.topRef)
        #expect(!FileHeader.hasMnemonic(ByteReader(bytes: try Support.bytes(path))))
      }
      expectEqual(versions, Array(versions[0]..<(versions[0] + 6)))
    }
  }

  @Test func abortLeavesTheEncryptedFileByteIdentical() throws {
    for policy in [FreeSpacePolicy.appendOnly, .reuseOlderFreeSpace] {
      try Support.withCopy(of: "encrypted/after-migrate/after.realm") { path in
        let before = try Support.bytes(path)
        var options = WriteTransaction.Options()
        options.freeSpace = policy
        options.encryptionKey = try EncryptionKey(keyFile: try Fixtures.bytes("encrypted/after-migrate/after.key"))
        let tx = try WriteTransaction.begin(path: path, options: options)
        let top = try #require(tx.top)
        for _ in 0..<200 { _ = try tx.allocate(try Support.renamedCopy(of: try top.ref(0), in: tx.reader)) }
        // More than the store keeps in memory: pages reach the disk before the abort.
        let big = NodeEncoder.integerNode((0..<100_000).map { Int64($0) }, width: 64)
        for _ in 0..<12 { _ = try tx.allocate(big) }
        #expect(try Support.bytes(path) != before, "nothing was written before the abort")
        tx.abort()
        #expect(TestFiles.same(try Support.bytes(path), before), "\(policy)")
      }
    }
  }

  /// Every file operation (entry writes, fsyncs, page writes, resizes) made to fail in turn:
  /// the file is byte for byte as before, or (after the flip) the new version.
  @Test func failureAtEveryOperationRollsBack() throws {
    let outcomes = try Support.outcomesOfFailingEachOperation(
      of: "encrypted/person.realm", plaintext: Self.plaintext,
      commit: { path, faultInjection in
        var options = WriteTransaction.Options()
        options.faultInjection = faultInjection
        _ = try Self.renameCommit(path, options: options)
      },
      whenNew: { path throws in #expect(try RealmFile.open(path: path, key: Self.key).group.check().isEmpty) })
    #expect(outcomes.count >= 12)
    #expect(outcomes.contains(true) && outcomes.first == false)
    // Once new, new for every later failure point.
    if let first = outcomes.firstIndex(of: true) { #expect(outcomes[first...].allSatisfy { $0 }) }
  }

  /// A transaction without the key, on an encrypted file, is refused before anything is written.
  @Test func encryptedFileWithoutKeyIsRefused() throws {
    try Support.withCopy(of: "encrypted/person.realm") { path in
      let before = try Support.bytes(path)
      #expect(throws: StorageError(.encrypted, "")) { try WriteTransaction.begin(path: path) }
      var options = WriteTransaction.Options()
      options.encryptionKey = try EncryptionKey(bytes: Array(0..<64))
      #expect(throws: StorageError(.wrongKey, "")) { try WriteTransaction.begin(path: path, options: options) }
      #expect(TestFiles.same(try Support.bytes(path), before))
    }
  }
}
