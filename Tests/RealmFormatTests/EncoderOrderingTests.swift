import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

@Suite struct EncoderOrderingTests {
  func dec(_ coefficient: UInt64, _ exponent: Int, negative: Bool = false) -> Decimal128 {
    Decimal128(low: coefficient, high: (negative ? 1 << 63 : 0) | UInt64(exponent + 6176) << 49)
  }

  @Test func stringsSortByUnsignedBytes() {
    // Swift's String order would put "e\u{301}" (decomposed é) next to "é"; Realm compares bytes.
    let input: [RealmValue] = [.string("é"), .string("b"), .null, .string("B"), .string(""), .string("e\u{301}"), .string("b")]
    let sorted = SetOrdering.sortedUnique(input)
    expectEqual(sorted, [.null, .string(""), .string("B"), .string("b"), .string("e\u{301}"), .string("é")])
  }

  @Test func binariesSortShorterPrefixFirst() {
    let sorted = SetOrdering.sortedUnique([.data([1, 2]), .data([1]), .data([0xFF]), .data([])])
    expectEqual(sorted, [.data([]), .data([1]), .data([1, 2]), .data([0xFF])])
  }

  @Test func numbersSortNumerically() {
    expectEqual(SetOrdering.sortedUnique([.int(3), .int(-7), .int(.max), .int(.min)]), [.int(.min), .int(-7), .int(3), .int(.max)])
    // NaN is not equal to itself: compare bit patterns.
    let doubles = SetOrdering.sortedUnique([.double(2.5), .double(-.infinity), .null, .double(.nan)]).map { v -> UInt64? in
      if case .double(let d) = v { return d.bitPattern } else { return nil }
    }
    expectEqual(doubles, [nil, Double.nan.bitPattern, (-Double.infinity).bitPattern, Double(2.5).bitPattern])
    let decimals: [RealmValue] = [.decimal128(dec(15, -1)), .decimal128(dec(2, 0)), .decimal128(dec(1, 3, negative: true)), .decimal128(dec(150, -2))]
    // 1.5 and 1.50 are equal: the second is dropped.
    expectEqual(SetOrdering.sortedUnique(decimals), [.decimal128(dec(1, 3, negative: true)), .decimal128(dec(15, -1)), .decimal128(dec(2, 0))])
    expectEqual(dec(0, 5).compareNumerically(to: dec(0, -3, negative: true)), 0)
    #expect(Decimal128.realmNull.compareNumerically(to: dec(1, 0)) < 0)
  }

  @Test func mixedSortsByRankThenValue() {
    let oid = ObjectId(high: 1, low: 2)
    let uuid = RealmUUID(high: 1, low: 2)
    let input: [RealmValue] = [
      .link(ObjectLink(className: "A", key: 1)), .uuid(uuid), .objectId(oid), .date(Timestamp(seconds: 1, nanoseconds: 0)),
      .data([0]), .string("a"), .double(3.5), .int(3), .float(3), .bool(true), .bool(false), .null,
      .decimal128(dec(1, 0)),
    ]
    let sorted = SetOrdering.sortedUnique(input)
    // int 3 and float 3 are equal numbers: the first one inserted stays.
    expectEqual(sorted, [
      .null, .bool(false), .bool(true), .decimal128(dec(1, 0)), .int(3), .double(3.5), .string("a"), .data([0]),
      .date(Timestamp(seconds: 1, nanoseconds: 0)), .objectId(oid), .uuid(uuid), .link(ObjectLink(className: "A", key: 1)),
    ])
  }

  @Test func otherTypesSortByValue() {
    #expect(SetOrdering.sortedUnique([.date(Timestamp(seconds: 1, nanoseconds: 5)), .date(Timestamp(seconds: -1, nanoseconds: 0)), .date(Timestamp(seconds: 1, nanoseconds: 2))])
      == [.date(Timestamp(seconds: -1, nanoseconds: 0)), .date(Timestamp(seconds: 1, nanoseconds: 2)), .date(Timestamp(seconds: 1, nanoseconds: 5))])
    #expect(SetOrdering.sortedUnique([.uuid(RealmUUID(high: 2, low: 0)), .uuid(RealmUUID(high: 1, low: 9))])
      == [.uuid(RealmUUID(high: 1, low: 9)), .uuid(RealmUUID(high: 2, low: 0))])
    expectEqual(SetOrdering.sortedUnique([.bool(true), .bool(false), .bool(true)]), [.bool(false), .bool(true)])
  }

  @Test func dictionaryEntriesSortByKeyBytesLastWins() {
    let sorted = MixedLeafEncoder.sortedEntries([
      DictionaryEntry("b", .int(1)), DictionaryEntry("A", .int(2)), DictionaryEntry("b", .int(3)), DictionaryEntry("ä", .null),
    ])
    expectEqual(sorted, [DictionaryEntry("A", .int(2)), DictionaryEntry("b", .int(3)), DictionaryEntry("ä", .null)])
  }
}
