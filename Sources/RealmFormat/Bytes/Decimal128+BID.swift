import RealmModel

/// The narrower BID64 and BID32 leaf forms of decimals in format 24 (§6.7): widening them to a
/// `Decimal128` and narrowing one back when it fits exactly.
extension Decimal128 {
  /// Widens a BID64 decimal (the 8-byte leaf form of format 24, §6.7); Realm's BID64 null
  /// becomes Realm's BID128 null.
  public init(bid64 x: UInt64) {
    let negative = x >> 63 == 1
    if x & 0x7C00_0000_0000_0000 == 0x7C00_0000_0000_0000 {
      // NaN: keep the quiet/signalling bits and the payload.
      self.init(low: x & 0x0003_FFFF_FFFF_FFFF, high: x & 0xFE00_0000_0000_0000)
      return
    }
    if x & 0x7800_0000_0000_0000 == 0x7800_0000_0000_0000 {
      self = negative ? .negativeInfinity : .infinity
      return
    }
    let exponent: Int
    var coefficient: UInt64
    if (x >> 61) & 3 == 3 {
      exponent = Int((x >> 51) & 0x3FF) - 398
      coefficient = 0x0020_0000_0000_0000 | (x & 0x0007_FFFF_FFFF_FFFF)
    } else {
      exponent = Int((x >> 53) & 0x3FF) - 398
      coefficient = x & 0x001F_FFFF_FFFF_FFFF
    }
    if coefficient > 9_999_999_999_999_999 { coefficient = 0 }
    // Always in range: BID64 exponents are -398...369 and coefficients < 10^16.
    self =
      Decimal128(negative: negative, coefficient: UInt128(coefficient), exponent: exponent) ?? .nan
  }

  /// Widens a BID32 decimal (the 4-byte leaf form of format 24, §6.7); Realm's BID32 null
  /// becomes Realm's BID128 null.
  public init(bid32 x: UInt32) {
    let negative = x >> 31 == 1
    if x & 0x7C00_0000 == 0x7C00_0000 {
      self.init(low: UInt64(x & 0x000F_FFFF), high: UInt64(x & 0xFE00_0000) << 32)
      return
    }
    if x & 0x7800_0000 == 0x7800_0000 {
      self = negative ? .negativeInfinity : .infinity
      return
    }
    let exponent: Int
    var coefficient: UInt32
    if (x >> 29) & 3 == 3 {
      exponent = Int((x >> 21) & 0xFF) - 101
      coefficient = 0x0080_0000 | (x & 0x001F_FFFF)
    } else {
      exponent = Int((x >> 23) & 0xFF) - 101
      coefficient = x & 0x007F_FFFF
    }
    if coefficient > 9_999_999 { coefficient = 0 }
    self =
      Decimal128(negative: negative, coefficient: UInt128(coefficient), exponent: exponent) ?? .nan
  }
}

extension Decimal128 {
  /// The same value as a BID64 (8-byte leaf form, §6.7), nil when it does not fit exactly
  /// (coefficient >= 2^53 or exponent outside -398...369). NaNs keep their payload when it fits,
  /// so Realm's null becomes `0x7C000000000000AA`.
  public var bid64: UInt64? {
    let sign: UInt64 = isSignMinus ? 1 << 63 : 0
    switch parts {
    case .nan:
      guard high & 0x0001_FFFF_FFFF_FFFF == 0, low <= 0x0003_FFFF_FFFF_FFFF else { return nil }
      return (high & 0xFE00_0000_0000_0000) | low
    case .infinity: return sign | 0x7800_0000_0000_0000
    case .finite(_, let c, let e):
      guard c < 1 << 53, e >= -398, e <= 369 else { return nil }
      return sign | UInt64(e + 398) << 53 | UInt64(c)
    }
  }

  /// The same value as a BID32 (4-byte leaf form, §6.7), nil when it does not fit exactly
  /// (coefficient >= 2^23 or exponent outside -101...90). Realm's null becomes `0x7C0000AA`.
  public var bid32: UInt32? {
    let sign: UInt32 = isSignMinus ? 1 << 31 : 0
    switch parts {
    case .nan:
      guard high & 0x0001_FFFF_FFFF_FFFF == 0, low <= 0x000F_FFFF else { return nil }
      return UInt32(truncatingIfNeeded: high >> 32) & 0xFE00_0000 | UInt32(low)
    case .infinity: return sign | 0x7800_0000
    case .finite(_, let c, let e):
      guard c < 1 << 23, e >= -101, e <= 90 else { return nil }
      return sign | UInt32(e + 101) << 23 | UInt32(c)
    }
  }
}
