import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

/// `SearchIndexWriter.extendInts` on an index it did not write: the streamed insert merges its
/// new keys into the file's int index, so a hostile index must not lead it to write an index
/// whose entries are out of order (lookups would miss, or refuse, every object of the
/// misplaced leaves). Such an index is handed back for a rebuild from the column's values.
@Suite struct SearchIndexExtendHostileTests {
  /// An index of `values` (keys 0...) whose top-level inner node has its children 1 and 2
  /// swapped (each leaf is sorted, the leaves are not): its root and the image.
  static func swappedLeaves(_ values: [Int64]) throws -> (RewritingNodeSink, Ref) {
    var entries = SearchIndexEntries()
    for (k, v) in values.enumerated() { try entries.append(.int(v), key: Int64(k)) }
    var sink = RewritingNodeSink(rewrite: RewritingNodeSink.innerIndexNodeWithChildrenSwapped)
    let root = SearchIndexWriter.write(entries, format: .current, into: &sink)
    try #require(sink.rewritten == 1, "the index has no inner node")
    return (sink, root)
  }

  static func extend(_ sink: inout RewritingNodeSink, root: Ref, new: [Int64], after count: Int) throws -> SearchIndexWriter.IntExtension {
    var runs = SortedPairRuns(scratch: MemoryScratchStorage(entriesPerRun: 64), bySecond: false)
    for (i, v) in new.enumerated() { runs.append(SearchIndexWriter.intPair(v, key: Int64(count + i))) }
    runs.sortPending()
    let reader = ByteReader(bytes: sink.image.bytes)
    return try SearchIndexWriter.extendInts(root: root, with: runs, unique: true, reader: reader, limits: Limits(), into: &sink)
  }

  @Test func leavesOutOfOrderAskForARebuild() throws {
    let old = (0..<2500).map { Int64($0) * 4 }
    var (sink, root) = try Self.swappedLeaves(old)
    // New values above, between and below the existing ones: none is placed by the merge.
    for new in [[Int64(100_000)], [Int64(4001)], [Int64(-5)]] {
      let result = try Self.extend(&sink, root: root, new: new, after: old.count)
      guard case .needsRebuild(let written) = result else {
        Issue.record("an index whose leaves are out of order was extended for \(new)")
        continue
      }
      // The second leaf, read first, fills a new leaf (and its keys) before the first leaf's
      // entries show the disorder: those nodes are handed back to be freed.
      expectEqual(written.count, 2, "\(new): \(written)")
    }
  }

  /// The same index with its leaves in order is extended (the refusal is the order's doing).
  @Test func theSameIndexInOrderIsExtended() throws {
    var entries = SearchIndexEntries()
    let old = (0..<2500).map { Int64($0) * 4 }
    for (k, v) in old.enumerated() { try entries.append(.int(v), key: Int64(k)) }
    var sink = RewritingNodeSink { _ in nil }
    let root = SearchIndexWriter.write(entries, format: .current, into: &sink)
    guard case .written = try Self.extend(&sink, root: root, new: [100_000], after: old.count) else {
      Issue.record("a sound index was not extended")
      return
    }
  }
}

