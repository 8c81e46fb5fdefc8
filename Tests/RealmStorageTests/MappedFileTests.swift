import Foundation
import RealmFormat
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

/// The read-only mapping of a file (`MappedFile`).
@Suite struct MappedFileTests {
  /// Giving back the resident pages (what long scans do as they go) changes nothing the
  /// readers see: every byte reads the same afterwards, through the mapping and its readers,
  /// and the file reads as the same Realm.
  @Test func pagesGivenBackReadTheSame() throws {
    let original = try TestFiles.bytes(Fixtures.url("alltypes/before.realm").path)
    try Fixtures.withTemporaryFile(original, named: "alltypes.realm") { path in
      let mapping = try MappedFile(path: path)
      let reader = mapping.reader
      let before = Array(reader.base)
      expectEqual(before, original)
      reader.releaseResidentPages()
      expectEqual(Array(reader.base), original)
      mapping.releaseResidentPages()
      expectEqual(Array(mapping.reader.base), original)

      let file = try RealmFile.open(path: path)
      let counts = file.objectCounts
      file.group.reader.releaseResidentPages()
      expectEqual(file.objectCounts, counts)
      #expect(file.check(maxProblems: 10).isEmpty)
    }
  }
}
