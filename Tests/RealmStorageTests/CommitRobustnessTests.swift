import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmStorage
import RealmFormat
import RealmModel

/// A write transaction on a corrupt file throws, never traps: random bytes of the header, the
/// group top array and the free lists are changed, then a transaction frees and replaces the
/// table-names array and commits.
@Suite struct CommitRobustnessTests {
  typealias Support = CommitTestSupport

  @Test(arguments: ["format-samples/v24_commit.realm", "format-samples/v24_write_copy.realm"])
  func mutatedFilesThrowOrCommit(fixture: String) throws {
    let original = try Support.bytes(Fixtures.url(fixture).path)
    let header = try HeaderState(reader: ByteReader(bytes: original))
    let top = try GroupTopState(
      reader: ByteReader(bytes: original), ref: Ref(Int(header.currentTop)))
    // The interesting bytes: header, footer, top array, free-list arrays.
    var targets: [Range<Int>] = [0..<24, (original.count - 16)..<original.count]
    for ref in [top.ref] + top.freeListRefs where !ref.isNull {
      let size = try ArrayNode(ByteReader(bytes: original), ref).header.byteSize
      targets.append(ref.rawValue..<(ref.rawValue + size))
    }
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("mutated.realm").path
    var random = SeededRandom(seed: 0x5EED_0003)
    var outcomes = (threw: 0, committed: 0)
    for round in 0..<300 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let range = targets[Int.random(in: 0..<targets.count, using: &random)]
        let at = Int.random(in: range, using: &random)
        bytes[at] = random.next() % 4 == 0 ? 0xFF : UInt8.random(in: 0...255, using: &random)
      }
      try Support.write(bytes, to: path)
      do {
        let tx = try WriteTransaction.begin(path: path)
        guard let topNode = tx.top else { continue }
        let names = try topNode.ref(0)
        let copy = try tx.allocate(try Support.renamedCopy(of: names, in: tx.reader))
        try tx.free(names)
        try tx.commit(tableNames: copy, tables: try topNode.ref(1))
        outcomes.committed += 1
      } catch let error as StorageError {
        #expect(
          // A damaged header reads as an encrypted file (no readable Realm header).
          [.corrupt, .notARealmFile, .unsupported, .unsupportedFormat, .misuse, .encrypted].contains(
            error.code), "round \(round): \(error)")
        outcomes.threw += 1
      } catch {
        outcomes.threw += 1  // FormatError from the test's own reads of the mutated file
      }
    }
    #expect(outcomes.threw > 0)
  }
}
