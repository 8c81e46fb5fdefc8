import Foundation
import RealmFormat
import RealmModel
import RealmTestSupport
import Testing

@testable import RealmRewrite

/// `unsync` (and `open`, which counts the pending uploads) reads the sync client history's
/// B+-trees of changesets and origin file idents. A leaf's count is not bounded by its bytes:
/// a width-0 leaf claims 16,777,215 elements in 8 bytes, and an inner node may name it again
/// and again. Such a history is refused as corrupt, the file untouched, instead of gathering
/// billions of entries from a file of a few KiB.
@Suite struct UnsyncHostileHistoryTests {
  /// The synced file with history slot `slot` (13 changesets, 16 origin file idents) pointing
  /// at an inner B+-tree node, written in the file's free space, whose `children` children are
  /// one width-0 leaf of 0xFFFFFF elements.
  static func hostile(slot: Int, children: Int) throws -> [UInt8] {
    var shape = SyncedFiles.Shape()
    (shape.history, shape.uploadCursor) = SyncedFiles.history(pending: 1)
    var bytes = try SyncedFiles.build(shape)
    let group = try Group(reader: ByteReader(bytes: bytes))
    let top = try ArrayNode(group.reader, group.topRef)
    let positions = try top.child(3)
    let lengths = try top.child(4)
    let need = 8 + 8 * (children + 2) + 8
    let chunk = try #require((0..<positions.count).first { lengths.uncheckedGet($0) >= need }, "no free chunk of \(need) bytes")
    let at = Int(positions.uncheckedGet(chunk))
    let leaf = at + need - 8
    let inner = NodeEncoder.integerNode(
      [Int64(1000) << 1 | 1] + [Int64](repeating: Int64(leaf), count: children) + [Int64(0xFF_FFFF * children) << 1 | 1],
      width: 64, hasRefs: true, isInner: true)
    let width0 = NodeEncoder.integerNode(repeatElement(0, count: 0xFF_FFFF), width: 0)
    bytes.replaceSubrange(at..<(at + need), with: inner + width0)
    let history = try ArrayNode(group.reader, try top.ref(8))
    try #require(history.width == 64)
    SyncedFiles.put(&bytes, at: history.payload + 8 * slot, UInt64(at), width: 8)
    return bytes
  }

  @Test("a history B+-tree of width-0 leaves claiming 2^24 entries each is refused untouched",
        arguments: [(16, 1), (16, 200), (13, 200)])
  func absurdHistoryLeavesAreRefused(slot: Int, children: Int) throws {
    let damaged = try Self.hostile(slot: slot, children: children)
    try UnsyncTests.expectCorruptRefusal(of: damaged, saying: "sync history")
  }
}
