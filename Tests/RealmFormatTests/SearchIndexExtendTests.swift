import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

/// `SearchIndexWriter.extendInts` (the append's merge of new int entries into an existing
/// index): every value is found with the same keys as in the index written whole from all
/// the entries, and the cases it cannot merge are handed back for a rebuild.
@Suite struct SearchIndexExtendTests {
  let lookup = EncoderSearchIndexTests()

  /// The existing index of `old` (keys 0...), extended with `new` (keys after them), in one
  /// buffer: its root and the image to read it from; nil when it asks for a rebuild.
  func extend(_ old: [Int64], _ new: [Int64], unique: Bool) throws -> (DecodedImage, Ref, replaced: [Ref])? {
    var entries = SearchIndexEntries()
    for (k, v) in old.enumerated() { try entries.append(.int(v), key: Int64(k)) }
    var sink = makeSink()
    let root = SearchIndexWriter.write(entries, format: .current, into: &sink)
    var runs = SortedPairRuns(scratch: MemoryScratchStorage(entriesPerRun: 64), bySecond: false)
    for (i, v) in new.enumerated() { runs.append(SearchIndexWriter.intPair(v, key: Int64(old.count + i))) }
    runs.sortPending()
    let reader = ByteReader(bytes: sink.bytes)
    let result = try SearchIndexWriter.extendInts(root: root, with: runs, unique: unique, reader: reader, limits: Limits(), into: &sink)
    guard case .written(let extended, let replaced) = result else { return nil }
    return (DecodedImage(sink), extended, replaced)
  }

  func data(_ v: Int64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: v) >> (8 * $0)) } }

  @Test func theExtendedIndexFindsWhatTheWholeIndexFinds() throws {
    var rng = SeededRandom(seed: 20)
    // Existing values with sub-nodes (equal values, equal low halves), new values between
    // them, negative and above 2^32, none sharing its low 32 bits with an existing one.
    var old: [Int64] = (0..<2500).map { Int64($0 * 4) } + [7 << 32 | 2, 9 << 32 | 2, 6, 6, 6, -8]
    old += (0..<500).map { _ in Int64(rng.next() % 1000) * 4 }
    var new: [Int64] = (0..<2500).map { Int64($0 * 4 + 1) } + [3 << 32 | 3, -(1 << 40) | 3, .max, .min + 7, 11, 11]
    new += (0..<300).map { _ in Int64(rng.next() % 1000) * 4 + 1 }
    let lows = Set(old.map { UInt32(truncatingIfNeeded: $0) })
    #expect(new.allSatisfy { !lows.contains(UInt32(truncatingIfNeeded: $0)) })
    let extended = try #require(try extend(old, new, unique: false))
    #expect(!extended.replaced.isEmpty)
    let whole = try EncoderSearchIndexTests().build((old + new).map { .int($0) })
    var keys: [Int64: [Int64]] = [:]
    for (k, v) in (old + new).enumerated() { keys[v, default: []].append(Int64(k)) }
    for (v, expected) in keys {
      try expectEqual(lookup.find(extended.0, extended.1, data(v)).sorted(), expected, "\(v)")
      try expectEqual(lookup.find(whole.0, whole.1, data(v)).sorted(), expected, "\(v)")
    }
    try expectEqual(lookup.find(extended.0, extended.1, data(2)), [])
  }

  @Test func sharedLowHalvesAndRepeatedUniqueValuesAskForARebuild() throws {
    // 2^32 + 4 shares its low 32 bits with the existing 4.
    #expect(try extend([0, 4, 8], [(1 << 32) + 4], unique: false) == nil)
    // A primary key given twice among the new values.
    #expect(try extend([0, 4, 8], [13, 13], unique: true) == nil)
    // The same values without the unique constraint: one entry with both keys.
    let both = try #require(try extend([0, 4, 8], [13, 13], unique: false))
    try expectEqual(lookup.find(both.0, both.1, data(13)).sorted(), [3, 4])
    // Into an empty index.
    let fresh = try #require(try extend([], [5, -5], unique: true))
    try expectEqual(lookup.find(fresh.0, fresh.1, data(-5)), [1])
  }
}
