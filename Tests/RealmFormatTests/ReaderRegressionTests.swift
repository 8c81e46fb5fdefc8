import RealmModel
import RealmTestSupport
import Testing
@testable import RealmFormat

/// Cases found by fuzzing the command line, kept as regression tests.
@Suite struct ReaderRegressionTests {
  /// A cluster leaf whose compact key count is a huge tagged value made the integrity check
  /// loop over 2^62 keys. Found by mutating `nested-links/before.realm` at offset 0x7b0.
  @Test func hugeCompactClusterCountIsCorruptNotEndless() throws {
    var bytes = try Fixtures.bytes("nested-links/before.realm")
    let word: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
    bytes.replaceSubrange(0x7B0..<0x7B8, with: word)
    let group = try Group(reader: ByteReader(bytes: bytes))
    let problems = group.check()
    #expect(problems.contains { $0.message.contains("more than a node can hold") })
    #expect(throws: FormatError.self) {
      for t in group.tables { try group.forEachObject(in: t) { _, _ in } }
    }
  }
}
