import RealmModel

/// The conversion functions `string int double bool date`: each returns nil when the value
/// cannot be converted (the caller reports it, or uses the default argument).
enum Conversion {
  static func toString(_ v: RealmValue) -> RealmValue? {
    ValueText.string(v).map(RealmValue.string)
  }

  /// Strings: an optional sign and decimal digits (surrounding spaces allowed); numbers
  /// truncated toward zero when in range; bools 0/1; dates their seconds since the epoch.
  static func toInt(_ v: RealmValue) -> RealmValue? {
    switch v {
    case .int: return v
    case .bool(let b): return .int(b ? 1 : 0)
    case .string(let s):
      let t = trimmed(s)
      let digits = t.hasPrefix("+") ? t.dropFirst() : t
      if digits.hasPrefix("+") || (t.hasPrefix("+") && digits.hasPrefix("-")) { return nil }
      return Int64(digits).map(RealmValue.int)
    case .float(let f): return truncate(Double(f))
    case .double(let d): return truncate(d)
    case .decimal128(let d): return truncate(DecimalValue(d).double)
    case .date(let t): return .int(t.seconds)
    default: return nil
    }
  }

  private static func truncate(_ d: Double) -> RealmValue? {
    Int64(exactly: d.rounded(.towardZero)).map(RealmValue.int)
  }

  /// Strings in Swift's `Double` syntax (`1.5`, `1e3`, `nan`, `inf`); numbers; bools 0/1;
  /// dates their seconds since the epoch with the fraction.
  static func toDouble(_ v: RealmValue) -> RealmValue? {
    switch v {
    case .double: return v
    case .int(let i): return .double(Double(i))
    case .float(let f): return .double(Double(f))
    case .decimal128(let d): return .double(DecimalValue(d).double)
    case .bool(let b): return .double(b ? 1 : 0)
    case .string(let s): return Double(trimmed(s)).map(RealmValue.double)
    case .date(let t): return .double(Double(t.seconds) + Double(t.nanoseconds) / 1e9)
    default: return nil
    }
  }

  /// Strings `true false yes no 1 0` (any case); numbers: zero is false, others true.
  static func toBool(_ v: RealmValue) -> RealmValue? {
    switch v {
    case .bool: return v
    case .int(let i): return .bool(i != 0)
    case .float(let f): return f.isNaN ? nil : .bool(f != 0)
    case .double(let d): return d.isNaN ? nil : .bool(d != 0)
    case .string(let s):
      switch trimmed(s).lowercased() {
      case "true", "yes", "1": return .bool(true)
      case "false", "no", "0": return .bool(false)
      default: return nil
      }
    default: return nil
    }
  }

  /// ISO-8601 strings (see ``DateText/parse(_:)``); ints and doubles as seconds since
  /// 1970-01-01T00:00:00Z.
  static func toDate(_ v: RealmValue) -> RealmValue? {
    switch v {
    case .date: return v
    case .string(let s): return DateText.parse(String(trimmed(s))).map(RealmValue.date)
    case .int(let i): return .date(Timestamp(seconds: i, nanoseconds: 0))
    case .float(let f): return seconds(Double(f))
    case .double(let d): return seconds(d)
    default: return nil
    }
  }

  private static func seconds(_ d: Double) -> RealmValue? {
    guard d.isFinite, let whole = Int64(exactly: d.rounded(.towardZero)) else { return nil }
    // The fraction has the sign of the whole part, as Timestamp requires.
    let nanos = Int32(((d - d.rounded(.towardZero)) * 1e9).rounded())
    if nanos == 1_000_000_000 || nanos == -1_000_000_000 {
      return .date(Timestamp(seconds: whole + (nanos > 0 ? 1 : -1), nanoseconds: 0))
    }
    return .date(Timestamp(seconds: whole, nanoseconds: nanos))
  }

  static func trimmed(_ s: String) -> Substring {
    var sub = s[...]
    while let c = sub.first, c.isWhitespace { sub = sub.dropFirst() }
    while let c = sub.last, c.isWhitespace { sub = sub.dropLast() }
    return sub
  }
}
