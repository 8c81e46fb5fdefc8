import RealmModel
/// The storage order of set elements and dictionary keys (§6.13): sets are binary-searched by
/// core, so the order is part of the format. Format 24 orders strings and binaries by
/// unsigned bytes; formats 20-23 by signed `char`, and formats 21/22 do not separate strings
/// from binaries in Mixed sets (`WritableFileFormat`).
public enum SetOrdering {
  /// Compares two elements of a set: -1, 0 (equal: one is dropped) or 1.
  ///
  /// Null sorts first. Values of one type compare by value: numbers numerically, strings and
  /// binaries by unsigned bytes (shorter prefix first), timestamps by time, ObjectIds and
  /// UUIDs by bytes, links by object key. Values of different types (Mixed sets) compare by
  /// rank first: bool, numbers (int, float, double, decimal compared numerically across
  /// types), string, binary, timestamp, ObjectId, UUID, link.
  ///
  /// `mixedSet`: the elements of a `Set<Mixed>`, whose strings Realm Core 11-13 order by their
  /// collation (`RealmCollation`) below format 24.
  public static func compare(
    _ a: RealmValue, _ b: RealmValue, format: WritableFileFormat = .current, mixedSet: Bool = false
  ) -> Int {
    var ra = rank(a)
    var rb = rank(b)
    if !format.separatesStringsFromBinariesInMixedSets {
      // Formats 21/22: one rank for strings and binaries; a string and a binary compare by
      // unsigned bytes (`Mixed::compare`).
      if ra == 3 { ra = 2 }
      if rb == 3 { rb = 2 }
    }
    if ra != rb { return ra < rb ? -1 : 1 }
    switch (a, b) {
    case (.bool(let x), .bool(let y)): return x == y ? 0 : x ? 1 : -1
    case (.string(let x), .string(let y)):
      if mixedSet && format < .v24 { return RealmCollation.compare(x, y) }
      return compareBytes(x.utf8, y.utf8, unsigned: format.comparesBytesUnsigned)
    case (.data(let x), .data(let y)): return compareBytes(x, y, unsigned: format.comparesBytesUnsigned)
    case (.string(let x), .data(let y)): return ByteOrder.compare(x.utf8, y)
    case (.data(let x), .string(let y)): return ByteOrder.compare(x, y.utf8)
    case (.date(let x), .date(let y)):
      return order((x.seconds, x.nanoseconds) < (y.seconds, y.nanoseconds), (x.seconds, x.nanoseconds) == (y.seconds, y.nanoseconds))
    case (.objectId(let x), .objectId(let y)): return order(x < y, x == y)
    case (.uuid(let x), .uuid(let y)): return order(x < y, x == y)
    case (.link(let x), .link(let y)):
      if x.className != y.className { return ByteOrder.compare(x.className.utf8, y.className.utf8) }
      return order(x.key < y.key, x.key == y.key)
    default:
      if ra == 1 { return compareNumbers(a, b) }
      return 0
    }
  }

  /// Compares strings (dictionary keys, set elements) by UTF-8 bytes: unsigned in format 24,
  /// signed `char` before.
  public static func compareStrings(_ a: String, _ b: String, format: WritableFileFormat = .current) -> Int {
    compareBytes(a.utf8, b.utf8, unsigned: format.comparesBytesUnsigned)
  }

  /// Sorts `values` in storage order and drops duplicates, as inserting them into a Realm set
  /// one by one would.
  public static func sortedUnique(
    _ values: [RealmValue], format: WritableFileFormat = .current, mixedSet: Bool = false
  ) -> [RealmValue] {
    let sorted = values.enumerated().sorted { lhs, rhs in
      let c = compare(lhs.element, rhs.element, format: format, mixedSet: mixedSet)
      return c < 0 || (c == 0 && lhs.offset < rhs.offset)
    }
    var result = [RealmValue]()
    result.reserveCapacity(sorted.count)
    for (_, v) in sorted {
      if let last = result.last, compare(last, v, format: format, mixedSet: mixedSet) == 0 { continue }
      result.append(v)
    }
    return result
  }

  private static func order(_ less: Bool, _ equal: Bool) -> Int { equal ? 0 : less ? -1 : 1 }

  private static func rank(_ v: RealmValue) -> Int {
    switch v {
    case .null: return -1
    case .bool: return 0
    case .int, .float, .double, .decimal128: return 1
    case .string: return 2
    case .data: return 3
    case .date: return 4
    case .objectId: return 5
    case .uuid: return 6
    case .link, .embedded: return 7
    case .list, .set, .dictionary: return 9
    }
  }

  /// Byte-wise comparison, shorter prefix first: unsigned, or with `unsigned: false` the
  /// bytes as signed `char`, as Realm Core compared them up to format 23 (``ByteOrder``).
  static func compareBytes<A: Sequence, B: Sequence>(_ a: A, _ b: B, unsigned: Bool) -> Int
  where A.Element == UInt8, B.Element == UInt8 {
    ByteOrder.compare(a, b, unsigned: unsigned)
  }

  /// Numeric comparison across int, float, double and decimal. NaN sorts first.
  private static func compareNumbers(_ a: RealmValue, _ b: RealmValue) -> Int {
    switch (a, b) {
    case (.int(let x), .int(let y)): return order(x < y, x == y)
    case (.decimal128(let x), .decimal128(let y)): return x.compareNumerically(to: y)
    case (.int(let x), _): return compareIntDouble(x, double(b))
    case (_, .int(let y)): return -compareIntDouble(y, double(a))
    default:
      let x = double(a)
      let y = double(b)
      if x.isNaN || y.isNaN { return x.isNaN && y.isNaN ? 0 : x.isNaN ? -1 : 1 }
      return order(x < y, x == y)
    }
  }

  private static func double(_ v: RealmValue) -> Double {
    switch v {
    case .float(let f): return Double(f)
    case .double(let d): return d
    case .decimal128(let d): return d.approximateDouble
    case .int(let i): return Double(i)
    default: return .nan
    }
  }

  /// Compares an int with a double exactly (no rounding of large ints).
  private static func compareIntDouble(_ i: Int64, _ d: Double) -> Int {
    if d.isNaN { return 1 }
    if d >= 9_223_372_036_854_775_808.0 { return -1 }
    if d < -9_223_372_036_854_775_808.0 { return 1 }
    // Floor without libm: truncate toward zero, then step down for negative fractions.
    var w = Int64(d)
    if Double(w) > d { w -= 1 }
    if i != w { return i < w ? -1 : 1 }
    return d > Double(w) ? -1 : 0
  }
}
