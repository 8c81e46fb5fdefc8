import RealmFormat

/// Number parsing with the C library's rules that Realm's query parser relies on (written out
/// here so that results do not depend on the platform's C library or locale).
enum CNumber {
  /// `strtoll(text, nullptr, 0)`: optional sign, then hexadecimal after `0x`, octal after a
  /// leading `0`, decimal otherwise; stops at the first digit that does not fit the base;
  /// saturates at the bounds of Int64 on overflow; 0 when there are no digits. With `base`
  /// 10, always decimal (`strtoll(text, nullptr, 10)`, what `sscanf`'s `%d` reads).
  static func strtoll(_ text: String, base fixedBase: UInt64 = 0) -> Int64 {
    let b = Array(text.utf8)
    let (start, negative) = signStart(b)
    var i = start
    var base: UInt64 = 10
    if fixedBase != 0 {
      base = fixedBase
    } else if i + 1 < b.count, b[i] == UInt8(ascii: "0"), b[i + 1] | 0x20 == UInt8(ascii: "x"), i + 2 < b.count,
      digitValue(b[i + 2], base: 16) != nil
    {
      base = 16
      i += 2
    } else if i < b.count, b[i] == UInt8(ascii: "0") {
      base = 8
    }
    var magnitude: UInt64 = 0
    var overflow = false
    while i < b.count, let d = digitValue(b[i], base: base) {
      let (m, o1) = magnitude.multipliedReportingOverflow(by: base)
      let (s, o2) = m.addingReportingOverflow(UInt64(d))
      if o1 || o2 { overflow = true }
      magnitude = s
      i += 1
    }
    if negative {
      if overflow || magnitude > UInt64(Int64.max) + 1 { return Int64.min }
      return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
    }
    if overflow || magnitude > UInt64(Int64.max) { return Int64.max }
    return Int64(magnitude)
  }

  private static func digitValue(_ c: UInt8, base: UInt64) -> UInt8? {
    guard let v = HexDigit.value(c), UInt64(v) < base else { return nil }
    return v
  }

  /// What `std::istringstream >> int64_t` reads from a string: leading white space, an
  /// optional sign and decimal digits; nil when there are no digits or the value overflows.
  static func streamInteger(_ text: String) -> Int64? {
    let b = Array(text.utf8)
    let (start, negative) = signStart(b)
    var i = start
    var magnitude: UInt64 = 0
    var count = 0
    while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
      let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
      let (s, o2) = m.addingReportingOverflow(UInt64(b[i] - 0x30))
      if o1 || o2 { return nil }
      magnitude = s
      count += 1
      i += 1
    }
    guard count > 0 else { return nil }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
      return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
    }
    guard magnitude <= UInt64(Int64.max) else { return nil }
    return Int64(magnitude)
  }

  /// What `std::istringstream >> double` reads (the longest decimal number at the start,
  /// after white space), or the special words `nan`, `inf`, `infinity` with an optional sign
  /// when that fails; nil when neither applies.
  static func streamDouble(_ text: String) -> Double? {
    if let number = numberPrefix(text) { return Double(number) }
    switch text.lowercased() {
    case "nan", "+nan": return .nan
    case "-nan": return -Double.nan
    case "inf", "+inf", "infinity", "+infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    default: return nil
    }
  }

  /// Where the digits of `b` start after C's leading white space and an optional sign, and
  /// whether the sign was `-`.
  private static func signStart(_ b: [UInt8]) -> (index: Int, negative: Bool) {
    var i = 0
    while i < b.count, b[i] == 0x20 || (b[i] >= 0x09 && b[i] <= 0x0D) { i += 1 }
    guard i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") else { return (i, false) }
    return (i + 1, b[i] == UInt8(ascii: "-"))
  }
}
