/// Numeric ordering of decimals, as Realm orders them in sets and sorts.
extension Decimal128 {
  /// -1, 0 or 1 as `self` is numerically below, equal to or above `other`.
  ///
  /// Cohort members (1.0 and 1.00) and zeros of either sign are equal. NaNs come before every
  /// number and are ordered among themselves by their bits, so the order is total.
  public func compareNumerically(to other: Decimal128) -> Int {
    switch (parts, other.parts) {
    case (.nan, .nan):
      if self == other { return 0 }
      return (high, low) < (other.high, other.low) ? -1 : 1
    case (.nan, _): return -1
    case (_, .nan): return 1
    case (.infinity(let a), .infinity(let b)):
      return a == b ? 0 : (a ? -1 : 1)
    case (.infinity(let a), _): return a ? -1 : 1
    case (_, .infinity(let b)): return b ? 1 : -1
    case (.finite(let na, let ca, let ea), .finite(let nb, let cb, let eb)):
      if ca == 0 && cb == 0 { return 0 }
      if ca == 0 { return nb ? 1 : -1 }
      if cb == 0 { return na ? -1 : 1 }
      if na != nb { return na ? -1 : 1 }
      let magnitude = Decimal128.compareMagnitudes(ca, ea, cb, eb)
      return na ? -magnitude : magnitude
    }
  }

  /// True when both are numbers of equal value, or both NaN with the same bits.
  public func isNumericallyEqual(to other: Decimal128) -> Bool {
    compareNumerically(to: other) == 0
  }

  /// Compares c1*10^e1 with c2*10^e2 (both coefficients non-zero, < 10^34).
  private static func compareMagnitudes(_ c1: UInt128, _ e1: Int, _ c2: UInt128, _ e2: Int) -> Int {
    let d1 = decimalDigitCount(c1)
    let d2 = decimalDigitCount(c2)
    let adjusted1 = e1 + d1
    let adjusted2 = e2 + d2
    if adjusted1 != adjusted2 { return adjusted1 < adjusted2 ? -1 : 1 }
    // Same magnitude: scale the shorter coefficient up (stays below 10^34).
    var a = c1
    var b = c2
    if d1 < d2 {
      for _ in 0..<(d2 - d1) { a *= 10 }
    } else if d2 < d1 {
      for _ in 0..<(d1 - d2) { b *= 10 }
    }
    return a == b ? 0 : (a < b ? -1 : 1)
  }

  /// Number of decimal digits of a positive value (1 for 0).
  static func decimalDigitCount(_ v: UInt128) -> Int {
    var n = 1
    var x = v
    while x >= 10 {
      x /= 10
      n += 1
    }
    return n
  }
}
