import RealmModel

/// The narrower BID64 and BID32 leaf forms of decimals in format 24 (§6.7): widening them to a
/// `Decimal128` and narrowing one back when it fits exactly.
extension Decimal128 {
  /// Widens a BID64 decimal (the 8-byte leaf form of format 24, §6.7); Realm's BID64 null
  /// becomes Realm's BID128 null.
  public init(bid64 x: UInt64) { self.init(x, widening: .bid64) }

  /// Widens a BID32 decimal (the 4-byte leaf form of format 24, §6.7); Realm's BID32 null
  /// becomes Realm's BID128 null.
  public init(bid32 x: UInt32) { self.init(UInt64(x), widening: .bid32) }

  /// The same value as a BID64 (8-byte leaf form, §6.7), nil when it does not fit exactly
  /// (coefficient >= 2^53 or exponent outside -398...369). NaNs keep their payload when it fits,
  /// so Realm's null becomes `0x7C000000000000AA`.
  public var bid64: UInt64? { narrowed(to: .bid64) }

  /// The same value as a BID32 (4-byte leaf form, §6.7), nil when it does not fit exactly
  /// (coefficient >= 2^23 or exponent outside -101...90). Realm's null becomes `0x7C0000AA`.
  public var bid32: UInt32? { narrowed(to: .bid32).map { UInt32($0) } }

  /// Widens the `form` decimal `x` (in the low bits).
  @inline(__always)
  private init(_ x: UInt64, widening form: NarrowDecimal) {
    let negative = x >> (form.width - 1) == 1
    if x & form.top(0x7C) == form.top(0x7C) {
      // NaN: keep the quiet/signalling bits and the payload.
      self.init(low: x & (1 << form.payloadBits - 1), high: (x & form.top(0xFE)) << (64 - form.width))
      return
    }
    if x & form.top(0x78) == form.top(0x78) {
      self = negative ? .negativeInfinity : .infinity
      return
    }
    let exponent: Int
    var coefficient: UInt64
    if (x >> (form.width - 3)) & 3 == 3 {
      // The large-coefficient form: the exponent two bits lower, an implied `100` before the coefficient.
      exponent = Int((x >> (form.coefficientBits - 2)) & form.exponentMask) - form.bias
      coefficient = 1 << form.coefficientBits | (x & (1 << (form.coefficientBits - 2) - 1))
    } else {
      exponent = Int((x >> form.coefficientBits) & form.exponentMask) - form.bias
      coefficient = x & (1 << form.coefficientBits - 1)
    }
    if coefficient > form.maxCoefficient { coefficient = 0 }
    // Always in range: the narrow forms' exponents and coefficients are in Decimal128's.
    self =
      Decimal128(negative: negative, coefficient: UInt128(coefficient), exponent: exponent) ?? .nan
  }

  /// The `form` decimal of the same value (in the low bits), nil when it does not fit exactly.
  @inline(__always)
  private func narrowed(to form: NarrowDecimal) -> UInt64? {
    let sign: UInt64 = isSignMinus ? 1 << (form.width - 1) : 0
    switch parts {
    case .nan:
      guard high & 0x0001_FFFF_FFFF_FFFF == 0, low < 1 << form.payloadBits else { return nil }
      return (high >> (64 - form.width)) & form.top(0xFE) | low
    case .infinity: return sign | form.top(0x78)
    case .finite(_, let c, let e):
      guard c < 1 << form.coefficientBits, form.exponents.contains(e) else { return nil }
      return sign | UInt64(e + form.bias) << form.coefficientBits | UInt64(c)
    }
  }
}

/// The layout of a narrow BID decimal (IEEE 754-2008 decimal64 or decimal32, binary integer
/// encoding): a sign bit, then the biased exponent and the coefficient, or in the
/// large-coefficient form (the two bits after the sign set) the exponent two bits lower.
private struct NarrowDecimal {
  /// Bits in all.
  var width: Int
  /// Bits of the biased exponent.
  var exponentBits: Int
  /// The exponents the form holds.
  var exponents: ClosedRange<Int>
  /// The largest coefficient (10^digits - 1); a larger one reads as 0.
  var maxCoefficient: UInt64

  // Computed, so that the inlined conversions see constants.
  static var bid64: NarrowDecimal {
    NarrowDecimal(width: 64, exponentBits: 10, exponents: -398...369, maxCoefficient: 9_999_999_999_999_999)
  }
  static var bid32: NarrowDecimal {
    NarrowDecimal(width: 32, exponentBits: 8, exponents: -101...90, maxCoefficient: 9_999_999)
  }

  /// What is added to an exponent to store it.
  var bias: Int { -exponents.lowerBound }
  var exponentMask: UInt64 { 1 << exponentBits - 1 }
  /// Bits of the coefficient in the common form (the biased exponent is above them).
  var coefficientBits: Int { width - 1 - exponentBits }
  /// Bits of a NaN's payload.
  var payloadBits: Int { coefficientBits - 3 }
  /// `byte` as the form's top byte (sign, then the start of the combination field).
  func top(_ byte: UInt64) -> UInt64 { byte << (width - 8) }
}
