/// Numeric comparison of BID decimal128 values, as `Decimal128::operator<` orders set
/// elements (§6.13). Conversion to and from text lives elsewhere.
extension Decimal128 {
  /// The decoded parts of a finite value: sign, coefficient (< 10^34) and exponent.
  struct FiniteParts {
    var isNegative: Bool
    var coefficient: UInt128
    var exponent: Int
  }

  /// NaN (including Realm's null), infinities, or a finite value (§6.7 BID decoding).
  enum Classified {
    case nan
    case infinity(negative: Bool)
    case finite(FiniteParts)
  }

  var classified: Classified {
    let negative = high >> 63 == 1
    if high & 0x7C00_0000_0000_0000 == 0x7C00_0000_0000_0000 { return .nan }
    if high & 0x7800_0000_0000_0000 == 0x7800_0000_0000_0000 { return .infinity(negative: negative) }
    if (high >> 61) & 3 == 3 {
      // Non-canonical large-coefficient encoding: the value is zero.
      return .finite(FiniteParts(isNegative: negative, coefficient: 0, exponent: Int((high >> 47) & 0x3FFF) - 6176))
    }
    let exponent = Int((high >> 49) & 0x3FFF) - 6176
    var coefficient = (UInt128(high & ((1 << 49) - 1)) << 64) | UInt128(low)
    if coefficient >= Decimal128.tenToThe34 { coefficient = 0 }
    return .finite(FiniteParts(isNegative: negative, coefficient: coefficient, exponent: exponent))
  }

  static let tenToThe34: UInt128 = {
    var v: UInt128 = 1
    for _ in 0..<34 { v *= 10 }
    return v
  }()

  /// Compares two decimals numerically: -1, 0 or 1. NaNs sort before every number and
  /// equal each other; +0 equals -0.
  static func compare(_ a: Decimal128, _ b: Decimal128) -> Int {
    switch (a.classified, b.classified) {
    case (.nan, .nan): return 0
    case (.nan, _): return -1
    case (_, .nan): return 1
    case (.infinity(let na), .infinity(let nb)): return na == nb ? 0 : na ? -1 : 1
    case (.infinity(let na), .finite): return na ? -1 : 1
    case (.finite, .infinity(let nb)): return nb ? 1 : -1
    case (.finite(let x), .finite(let y)):
      let xZero = x.coefficient == 0
      let yZero = y.coefficient == 0
      if xZero && yZero { return 0 }
      let xSign = xZero ? 0 : x.isNegative ? -1 : 1
      let ySign = yZero ? 0 : y.isNegative ? -1 : 1
      if xSign != ySign { return xSign < ySign ? -1 : 1 }
      let magnitude = compareMagnitude(x, y)
      return xSign < 0 ? -magnitude : magnitude
    }
  }

  /// Compares |x| and |y| for non-zero coefficients.
  private static func compareMagnitude(_ x: FiniteParts, _ y: FiniteParts) -> Int {
    let xDigits = digitCount(x.coefficient)
    let yDigits = digitCount(y.coefficient)
    // The value's order of magnitude is digits + exponent.
    let xMagnitude = xDigits + x.exponent
    let yMagnitude = yDigits + y.exponent
    if xMagnitude != yMagnitude { return xMagnitude < yMagnitude ? -1 : 1 }
    // Same magnitude: scale both to the same number of digits (at most 34, fits 128 bits).
    var xc = x.coefficient
    var yc = y.coefficient
    for _ in xDigits..<max(xDigits, yDigits) { xc *= 10 }
    for _ in yDigits..<max(xDigits, yDigits) { yc *= 10 }
    return xc == yc ? 0 : xc < yc ? -1 : 1
  }

  private static func digitCount(_ v: UInt128) -> Int {
    var n = 0
    var r = v
    while r > 0 {
      r /= 10
      n += 1
    }
    return n
  }

  /// The value as a double, for comparisons with other numeric types in Mixed sets.
  var approximateDouble: Double {
    switch classified {
    case .nan: return .nan
    case .infinity(let negative): return negative ? -.infinity : .infinity
    case .finite(let p):
      var d = Double(p.coefficient)
      var e = p.exponent
      while e > 0 {
        d *= 10
        e -= 1
      }
      while e < 0 {
        d /= 10
        e += 1
      }
      return p.isNegative ? -d : d
    }
  }

  /// The value truncated toward zero when it fits an int64 (`bid128_to_int64_int`), used for
  /// search-index data of decimals in Mixed (§4.6).
  var truncatedInt64: Int64? {
    guard case .finite(let p) = classified else { return nil }
    var c = p.coefficient
    if p.exponent >= 0 {
      for _ in 0..<p.exponent {
        if c == 0 { break }
        let (m, o) = c.multipliedReportingOverflow(by: 10)
        if o || m > UInt128(UInt64.max) { return nil }
        c = m
      }
    } else {
      for _ in 0..<(-p.exponent) {
        if c == 0 { break }
        c /= 10
      }
    }
    if p.isNegative {
      guard c <= UInt128(1) << 63 else { return nil }
      return c == UInt128(1) << 63 ? Int64.min : -Int64(c)
    }
    guard c <= UInt128(Int64.max) else { return nil }
    return Int64(c)
  }
}
