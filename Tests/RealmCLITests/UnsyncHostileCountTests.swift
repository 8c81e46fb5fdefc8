import Foundation
import RealmFormat
import RealmTestBytes
import RealmTestSupport
import Testing

/// `unsync` plans from the object counts the file claims (each table's cluster root): its
/// report added them up, and a class claiming Int.max objects beside others trapped. The copy
/// of the objects, which reads them from the leaves, now refuses a table whose leaves hold
/// another count (exit 65, the file untouched), before any report; the report's sum
/// saturates besides.
@Suite struct UnsyncHostileCountTests {
  typealias T = CommandTestSupport

  /// A synced file of 300 `Dog`s (more than a leaf: an inner cluster root) whose root,
  /// re-encoded 64 bits wide, claims Int.max objects; `Person` holds 2.
  static func hostile() throws -> [UInt8] {
    var shape = SyncedFiles.Shape()
    shape.dogs = 300
    var rewritten = 0
    let bytes = try SyncedFiles.build(shape) { node in
      guard let (header, elements) = try? RewritingNodeSink.elements(of: node),
        header.isInner, header.hasRefs, elements.count >= 4, elements[1] == 3, elements[2] == 601
      else { return nil }
      rewritten += 1
      return try? RewritingNodeSink.widened(node, setting: 2, to: -1)  // the all-ones slot: Int.max
    }
    try #require(rewritten == 1)
    return bytes
  }

  @Test func classClaimingIntMaxObjectsIsRefusedUntouched() throws {
    let bytes = try Self.hostile()
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("synced.realm").path
      try T.write(bytes, to: path)
      for words in [["unsync", path, "--dry-run"], ["unsync", path], ["unsync", path, "--json"]] {
        let r = T.run(words)
        expectEqual(r.status, 65, "\(words): \(r.stdout)\(r.stderr)")
        #expect(r.stderr.hasPrefix("Error: ") && r.stderr.contains("says it holds \(Int.max) objects but its cluster leaves hold 300"), "\(r.stderr)")
      }
      #expect(TestFiles.same(try T.bytes(path), bytes))
    }
  }
}
