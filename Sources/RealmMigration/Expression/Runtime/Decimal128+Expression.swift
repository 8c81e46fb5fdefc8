import RealmModel

/// The decoded value of a BID decimal128: sign, coefficient and power of ten, or a
/// special value. Only what the expression language needs: comparison through `Double`,
/// conversion to text, to `Double` and to `Int64`.
enum DecimalValue: Equatable {
  case nan
  case infinity(negative: Bool)
  /// `(-1)^negative * coefficient * 10^exponent`.
  case finite(negative: Bool, coefficient: UInt128, exponent: Int)

  private static let bias = 6176
  private static let maxCoefficient: UInt128 = 9_999_999_999_999_999_999_999_999_999_999

  init(_ d: Decimal128) {
    let negative = d.high >> 63 == 1
    if (d.high >> 58) & 0x1F == 0x1F {
      self = .nan
      return
    }
    if (d.high >> 58) & 0x1F == 0x1E {
      self = .infinity(negative: negative)
      return
    }
    let exponentBits: UInt64
    var coefficient: UInt128
    if (d.high >> 61) & 3 == 3 {
      // The large-coefficient form always exceeds 10^34 - 1 for decimal128: non-canonical, zero.
      exponentBits = (d.high >> 47) & 0x3FFF
      coefficient = 0
    } else {
      exponentBits = (d.high >> 49) & 0x3FFF
      coefficient = UInt128(d.high & 0x1_FFFF_FFFF_FFFF) << 64 | UInt128(d.low)
      if coefficient > Self.maxCoefficient { coefficient = 0 }
    }
    self = .finite(negative: negative, coefficient: coefficient, exponent: Int(exponentBits) - Self.bias)
  }

  /// Nearest `Double` (through decimal text, which the standard library rounds correctly).
  var double: Double {
    switch self {
    case .nan: return .nan
    case .infinity(let negative): return negative ? -.infinity : .infinity
    case .finite(let negative, let coefficient, let exponent):
      let magnitude = Double("\(coefficient)e\(exponent)") ?? 0
      return negative ? -magnitude : magnitude
    }
  }

  /// The IEEE 754 scientific string: `1.5`, `-0.001`, `1E+400`, `NaN`, `Inf`, `-Inf`.
  var text: String {
    switch self {
    case .nan: return "NaN"
    case .infinity(let negative): return negative ? "-Inf" : "Inf"
    case .finite(let negative, let coefficient, let exponent):
      let digits = Array(String(coefficient))
      let sign = negative ? "-" : ""
      let adjusted = exponent + digits.count - 1
      if exponent <= 0 && adjusted >= -6 {
        if exponent == 0 { return sign + String(digits) }
        let pointAt = digits.count + exponent
        if pointAt > 0 {
          return sign + String(digits[..<pointAt]) + "." + String(digits[pointAt...])
        }
        return sign + "0." + String(repeating: "0", count: -pointAt) + String(digits)
      }
      let mantissa = digits.count == 1 ? String(digits) : String(digits[0]) + "." + String(digits[1...])
      return sign + mantissa + "E" + (adjusted >= 0 ? "+" : "") + String(adjusted)
    }
  }
}
