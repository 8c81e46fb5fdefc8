import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

/// The byte helpers the test targets call instead of the standard library's generic code
/// (RealmTestSupport is optimised; the test targets are not).
@Suite struct TestFilesTests {
  @Test func linesLeaveOutEmptyLinesAndSplitKeepsThemWhenAsked() {
    let text = Array("a\n\nbc\n".utf8)
    expectEqual(TestFiles.lines(text).map { Array($0) }, [Array("a".utf8), Array("bc".utf8)])
    expectEqual(TestFiles.split(text[...], at: 0x0A, keepingEmpty: true).map { Array($0) }, [Array("a".utf8), [], Array("bc".utf8), []])
    expectEqual(TestFiles.split(Array("x\ty".utf8)[...], at: 0x09).map { Array($0) }, [Array("x".utf8), Array("y".utf8)])
  }

  @Test func slicesCompareByTheirBytes() {
    let a = Array("xabc".utf8)
    let b = Array("abc".utf8)
    #expect(TestFiles.same(a[1...], b[...]))
    #expect(!TestFiles.same(a[0...], b[...]))
  }

  @Test func objectKeysAreTheFirstKeyOfEachLine() {
    let dump = Array(
      #"""
      {"$class":"A","$key":7,"l":{"$ref":"B","$key":1}}
      {"$class":"A","$key":-3}
      {"$class":"A"}
      """#.utf8)
    expectEqual(TestFiles.objectKeys(inDump: dump), [7, -3])
  }

  /// Format-23 and 22 files go to the Core that opens them as they are (when it is here).
  @Test(RealmOracle.enabled) func theOracleOfAFileIsTheCoreOfItsFormat() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realmctl-oracle-choice-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for (name, format) in [("before-24.realm", 24), ("before-23.realm", 23)] {
      let path = Fixtures.url("fulltext/\(name)").path
      let want: RealmOracle.Core = format == 23 && RealmOracle.core13.isAvailable ? .core13 : .core14
      expectEqual(RealmOracle.openingAsIs(path).core, want, "\(name)")
      expectEqual(RealmOracle.openingAsIs(path, encrypted: true).core, .core14, "\(name)")
    }
    // The same file with format 22 in its header (only the header is read).
    var bytes = try TestFiles.bytes(Fixtures.url("fulltext/before-23.realm").path)
    bytes[20 + Int(bytes[23] & 1)] = 22
    let format22 = dir.appendingPathComponent("format22.realm").path
    try TestFiles.write(bytes, to: format22)
    expectEqual(RealmOracle.openingAsIs(format22).core, (RealmOracle.core12.isAvailable ? .core12 : .core14))
    expectEqual([22, 23, 24, 20, 11].map { RealmOracle.ownCore(ofFormat: $0)?.core }, [.core12, .core13, .core14, nil, nil])
    let notRealm = dir.appendingPathComponent("text.realm")
    try Data("not a realm file at all, not at all".utf8).write(to: notRealm)
    expectEqual(RealmOracle.openingAsIs(notRealm.path).core, .core14)
  }
}
