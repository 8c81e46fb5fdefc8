import RealmModel
/// Decimal conversions the encoders need beyond the shared BID decoding (`Decimal128+BID`).
extension Decimal128 {
  /// The value as a double, for ordering decimals among other numbers in Mixed sets.
  var approximateDouble: Double {
    switch parts {
    case .nan: return .nan
    case .infinity(let negative): return negative ? -.infinity : .infinity
    case .finite(let negative, let coefficient, let exponent):
      var d = Double(coefficient)
      var e = exponent
      // Bounded by the exponent range (-6176...6111).
      while e > 0 && d.isFinite {
        d *= 10
        e -= 1
      }
      while e < 0 && d != 0 {
        d /= 10
        e += 1
      }
      return negative ? -d : d
    }
  }

  /// The value truncated toward zero when that fits an int64 (`bid128_to_int64_int`): how a
  /// decimal in a Mixed value is indexed (§4.6).
  var truncatedInt64: Int64? {
    guard case .finite(let negative, var c, let exponent) = parts else { return nil }
    if exponent >= 0 {
      for _ in 0..<exponent where c != 0 {
        let (m, overflow) = c.multipliedReportingOverflow(by: 10)
        if overflow || m > UInt128(UInt64.max) { return nil }
        c = m
      }
    } else {
      for _ in 0..<(-exponent) where c != 0 { c /= 10 }
    }
    if negative {
      guard c <= UInt128(1) << 63 else { return nil }
      return c == UInt128(1) << 63 ? Int64.min : -Int64(c)
    }
    guard c <= UInt128(Int64.max) else { return nil }
    return Int64(c)
  }
}
