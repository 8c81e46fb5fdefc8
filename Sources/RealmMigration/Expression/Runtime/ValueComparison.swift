import RealmFormat
import RealmModel
import RealmQuery

/// Equality and order of values, as `==`, `<`, `IN` and the collection functions use them.
///
/// Numbers compare by value across int, float, double and decimal128 (with a decimal128,
/// exactly, as Realm's queries compare). Strings compare by their UTF-8 bytes (Unicode scalar
/// order), as Realm does; `[c]` folds case as Realm does (`RealmStrings.equal`). Null equals
/// only null and is never less or greater than anything. Values of unrelated types are
/// unequal and unordered.
enum ValueComparison {
  /// `a == b`.
  static func equal(_ a: RealmValue, _ b: RealmValue, caseInsensitive: Bool = false) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.null, _), (_, .null): return false
    case (.string(let x), .string(let y)):
      return RealmStrings.equal(x, y, caseInsensitive: caseInsensitive)
    case (.list(let x), .list(let y)), (.set(let x), .set(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1, caseInsensitive: caseInsensitive) }
    default:
      if let o = numericOrder(a, b) { return o == 0 }
      return order(a, b) == 0 || (orderKind(a) == nil && a == b)
    }
  }

  /// -1, 0 or 1 when `a` and `b` are ordered; nil for null, NaN or unrelated types.
  static func order(_ a: RealmValue, _ b: RealmValue) -> Int? {
    switch (a, b) {
    case (.string(let x), .string(let y)):
      return ByteOrder.compare(x.utf8, y.utf8)
    case (.date(let x), .date(let y)): return sign3((x.seconds, x.nanoseconds), (y.seconds, y.nanoseconds))
    case (.objectId(let x), .objectId(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.uuid(let x), .uuid(let y)): return x < y ? -1 : (x == y ? 0 : 1)
    case (.data(let x), .data(let y)): return ByteOrder.compare(x, y)
    case (.bool(let x), .bool(let y)): return x == y ? 0 : (!x ? -1 : 1)
    case (.link(let x), .link(let y)):
      guard x.className == y.className else { return nil }
      return x.key < y.key ? -1 : (x.key == y.key ? 0 : 1)
    default: return numericOrder(a, b)
    }
  }

  private static func orderKind(_ v: RealmValue) -> Int? {
    switch v {
    case .embedded, .dictionary: return nil
    default: return 0
    }
  }

  private static func sign3<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }
  private static func sign3(_ x: (Int64, Int32), _ y: (Int64, Int32)) -> Int { x < y ? -1 : (x == y ? 0 : 1) }

  /// Order of two numbers; exact between ints and doubles, and with a decimal128 exactly as
  /// Realm's queries compare them (the other number converted to decimal128 first).
  static func numericOrder(_ a: RealmValue, _ b: RealmValue) -> Int? {
    if a.isDecimal || b.isDecimal {
      guard let x = asDecimal(a), let y = asDecimal(b), !x.isNaN, !y.isNaN else { return nil }
      return x.compareNumerically(to: y)
    }
    switch (a, b) {
    case (.int(let x), .int(let y)): return sign3(x, y)
    case (.int(let x), _):
      guard let y = asDouble(b) else { return nil }
      return intDoubleOrder(x, y)
    case (_, .int(let y)):
      guard let x = asDouble(a), let o = intDoubleOrder(y, x) else { return nil }
      return -o
    default:
      guard let x = asDouble(a), let y = asDouble(b), !x.isNaN, !y.isNaN else { return nil }
      return sign3(x, y)
    }
  }

  /// Exact comparison of an integer with a double (no rounding of large integers).
  private static func intDoubleOrder(_ x: Int64, _ y: Double) -> Int? {
    if y.isNaN { return nil }
    if y >= 9_223_372_036_854_775_808.0 { return -1 }
    if y < -9_223_372_036_854_775_808.0 { return 1 }
    let t = Int64(y.rounded(.towardZero))
    if x != t { return x < t ? -1 : 1 }
    let f = y - y.rounded(.towardZero)
    return f == 0 ? 0 : (f > 0 ? -1 : 1)
  }

  /// A number as a decimal128, converted as Realm's queries convert it; nil for other values.
  private static func asDecimal(_ v: RealmValue) -> Decimal128? {
    switch v {
    case .decimal128(let d): return d
    case .int(let i): return DecimalMath.from(i)
    case .float(let f): return DecimalMath.from(f)
    case .double(let d): return DecimalMath.from(d)
    default: return nil
    }
  }

  /// Float, double and decimal128 as a double; nil for other values.
  static func asDouble(_ v: RealmValue) -> Double? {
    switch v {
    case .float(let f): return Double(f)
    case .double(let d): return d
    case .decimal128(let d): return DecimalValue(d).double
    case .int(let i): return Double(i)
    default: return nil
    }
  }
}

extension RealmValue {
  fileprivate var isDecimal: Bool {
    if case .decimal128 = self { return true }
    return false
  }
}
