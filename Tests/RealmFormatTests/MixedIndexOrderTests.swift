import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

/// The entries of a `mixed` index whose values share their index data: Realm keeps their
/// object keys in the order of the values (`Mixed::compare`: the type's rank, then the value;
/// Realm Core 12 and 13 rank binaries with strings), equal values in key order, and looks a
/// value up by that order. The commands' tests check the same against Realm's own files
/// (`MixedIndexTests`).
@Suite struct MixedIndexOrderTests {
  let index = EncoderSearchIndexTests()

  /// The object keys of the list (or single entry) holding `value`'s data.
  func entry(_ values: [RealmValue], _ value: RealmValue, format: WritableFileFormat = .current) throws -> [Int64] {
    var entries = SearchIndexEntries()
    for (i, v) in values.enumerated() { try entries.append(v, key: Int64(i)) }
    var sink = makeSink()
    let root = SearchIndexWriter.write(entries, format: format, into: &sink)
    return try index.find(DecodedImage(sink), root, SearchIndex.indexData(value))
  }

  @Test func falseComesBeforeTheZerosItSharesItsDataWith() throws {
    // The objects: 0, false, 0.
    try expectEqual(entry([.int(0), .bool(false), .int(0)], .int(0)), [1, 0, 2])
    try expectEqual(entry([.int(1), .bool(true), .int(1), .bool(true)], .bool(true)), [1, 3, 0, 2])
  }

  @Test func numbersOfEveryTypeAreOrderedByValue() throws {
    // Int 2 and the decimal 2.5 (indexed as its truncation, 2) share the data; the float and
    // double 0 and the decimal 0 are equal to the int 0 and keep key order among them.
    let values: [RealmValue] = [
      .decimal128(try #require(Decimal128(text: "2.5"))), .int(2), .double(0), .int(0), .float(0),
      .decimal128(try #require(Decimal128(text: "0"))), .bool(false), .int(2),
    ]
    try expectEqual(entry(values, .int(2)), [1, 7, 0])
    try expectEqual(entry(values, .int(0)), [6, 2, 3, 4, 5])
  }

  @Test func stringsAndBinariesFollowTheFormatsRank() throws {
    let a = RealmValue.string("a")
    let binaryA = RealmValue.data([0x61])
    let values = [binaryA, a, binaryA, a]
    // Core 14: strings (rank 2) before binaries (rank 3).
    try expectEqual(entry(values, a, format: .v24), [1, 3, 0, 2])
    // Core 12 and 13: one rank, compared by bytes: equal, so in key order.
    try expectEqual(entry(values, a, format: .v23), [0, 1, 2, 3])
    try expectEqual(entry(values, a, format: .v22), [0, 1, 2, 3])
  }

  @Test func objectIdsComeAfterTheDatesTheyShareTheirDataWith() throws {
    let zeros = RealmValue.objectId(ObjectId(high: 0, low: 0))
    let epoch = RealmValue.date(Timestamp(seconds: 0, nanoseconds: 0))
    try expectEqual(entry([zeros, epoch, zeros, epoch], epoch), [1, 3, 0, 2])
  }

  /// What the query planner looks up (`SearchIndex.indexData`) is what the writer stores.
  @Test func lookupDataAreTheWritersData() throws {
    var values: [RealmValue] = [
      .float(0.5), .float(-2_147_483_648), .float(3e9), .double(-0.0), .double(.nan), .double(2_147_483_648),
      .decimal128(try #require(Decimal128(text: "-7.9"))), .decimal128(try #require(Decimal128(text: "1E+30"))),
      .string(""), .data([]), .date(Timestamp(seconds: -1, nanoseconds: -5)), .bool(true),
    ]
    var g = WriteRoundTripTests.Generator(rng: SeededRandom(seed: 5))
    for t: PropertyType in [.int, .bool, .string, .data, .date, .float, .double, .decimal128, .objectId, .uuid] {
      for _ in 0..<40 { values.append(g.value(t, optional: false, objects: 1)) }
    }
    var entries = SearchIndexEntries()
    for (i, v) in values.enumerated() { try entries.append(v, key: Int64(i)) }
    for (i, v) in values.enumerated() {
      expectEqual(SearchIndex.indexData(v), Array(entries.data(i)), "\(v)")
    }
  }
}
