/// Decimal128 (IEEE 754-2008 BID, §6.7): sign, coefficient and exponent, and building a
/// value from them.
extension Decimal128 {
  /// The decomposed value of a decimal.
  public enum Parts: Sendable, Equatable {
    /// `(-1)^negative * coefficient * 10^exponent`; coefficient < 10^34, exponent in -6176...6111.
    case finite(negative: Bool, coefficient: UInt128, exponent: Int)
    /// Plus or minus infinity.
    case infinity(negative: Bool)
    /// Not a number (Realm's null is a NaN with payload 0xAA).
    case nan
  }

  /// 10^34: every canonical coefficient is below it.
  public static let coefficientLimit: UInt128 = {
    var v: UInt128 = 1
    for _ in 0..<34 { v *= 10 }
    return v
  }()
  /// Exponent bias of BID128.
  static let exponentBias = 6176
  /// Smallest exponent.
  public static let minExponent = -6176
  /// Largest exponent.
  public static let maxExponent = 6111

  /// A quiet NaN without payload.
  public static let nan = Decimal128(low: 0, high: 0x7C00_0000_0000_0000)
  /// Positive infinity.
  public static let infinity = Decimal128(low: 0, high: 0x7800_0000_0000_0000)
  /// Negative infinity.
  public static let negativeInfinity = Decimal128(low: 0, high: 0xF800_0000_0000_0000)

  /// True when the sign bit is set (also for -0 and -Inf).
  public var isSignMinus: Bool { high >> 63 == 1 }
  /// True for every NaN, including Realm's null marker.
  public var isNaN: Bool { high & 0x7C00_0000_0000_0000 == 0x7C00_0000_0000_0000 }
  /// True for plus or minus infinity.
  public var isInfinite: Bool { high & 0x7C00_0000_0000_0000 == 0x7800_0000_0000_0000 }
  /// True for Realm's null marker.
  public var isRealmNull: Bool { self == Decimal128.realmNull }

  /// Sign, coefficient and exponent; non-canonical encodings (coefficient >= 10^34 or the
  /// `11` combination form) are zero, as IEEE 754 says.
  public var parts: Parts {
    if isNaN { return .nan }
    let negative = isSignMinus
    if isInfinite { return .infinity(negative: negative) }
    if (high >> 61) & 3 == 3 {
      let exponent = Int((high >> 47) & 0x3FFF) - Decimal128.exponentBias
      return .finite(negative: negative, coefficient: 0, exponent: exponent)
    }
    let exponent = Int((high >> 49) & 0x3FFF) - Decimal128.exponentBias
    let coefficient = UInt128(high & 0x0001_FFFF_FFFF_FFFF) << 64 | UInt128(low)
    if coefficient >= Decimal128.coefficientLimit {
      return .finite(negative: negative, coefficient: 0, exponent: exponent)
    }
    return .finite(negative: negative, coefficient: coefficient, exponent: exponent)
  }

  /// Encodes `(-1)^negative * coefficient * 10^exponent` exactly; nil when the coefficient is
  /// 10^34 or more or the exponent is outside -6176...6111.
  public init?(negative: Bool, coefficient: UInt128, exponent: Int) {
    guard coefficient < Decimal128.coefficientLimit,
      exponent >= Decimal128.minExponent, exponent <= Decimal128.maxExponent
    else { return nil }
    let biased = UInt64(exponent + Decimal128.exponentBias)
    self.init(
      low: UInt64(truncatingIfNeeded: coefficient),
      high: (negative ? 1 << 63 : 0) | biased << 49 | UInt64(truncatingIfNeeded: coefficient >> 64))
  }
}
