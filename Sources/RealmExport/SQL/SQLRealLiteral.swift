#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// SQL literals for floats and doubles that every SQLite reads back bit for bit.
///
/// SQLite's text-to-number conversion was not correctly rounded before version 3.43: it scales
/// the decimal digits by a power of ten in `long double` (or, where that is a plain `double`,
/// in `double`) and rounds twice, so about one shortest decimal in a hundred reads back one unit
/// in the last place off (`9619.019002` does in 3.40). The literal is therefore chosen so that
/// SQLite cannot misread it:
///
/// - integers below 2^53 as `N.0`, which SQLite reduces to the exact integer `N`;
/// - the shortest decimal when its digits are an exact `double` (below 2^53), its power of ten
///   is exact (|exponent| <= 22) and it lies well inside the rounding interval (less than 0.49
///   units in the last place from the value), so one rounding of either precision gives the value;
/// - other integers below 2^63 as `CAST(N AS REAL)` (exact integer conversion);
/// - magnitudes below 2^-960, where SQLite's scaling loses precision, as an exact product
///   `(w*p)` of two doubles of moderate size (p a power of two, the product is exact);
/// - everything else with 17 significant digits, correctly rounded, which is within 0.45 units
///   in the last place of the value and reads back exactly in every SQLite with extended
///   precision and in 3.43 and later.
///
/// Infinities are `9e999` and `-9e999` (SQLite's own overflow to infinity). SQLite has no NaN:
/// it is written as the text `'NaN'`. A negative zero is written `-0.0`; note that SQLite keeps
/// its sign only in columns without REAL affinity.
enum SQLRealLiteral {
  /// Appends the literal of a double.
  static func append(_ v: Double, to out: inout [UInt8]) {
    if v.isNaN {
      out.append(contentsOf: "'NaN'".utf8)
      return
    }
    if v.isInfinite {
      out.append(contentsOf: (v < 0 ? "-9e999" : "9e999").utf8)
      return
    }
    if v == 0 {
      out.append(contentsOf: (v.sign == .minus ? "-0.0" : "0.0").utf8)
      return
    }
    let magnitude = v.magnitude
    if magnitude < 0x1p63, v == v.rounded(.towardZero) {
      let n = Int64(v)
      if magnitude < 0x1p53 {
        SQLLiteral.append(n, to: &out)
        out.append(contentsOf: ".0".utf8)
      } else {
        out.append(contentsOf: "CAST(".utf8)
        SQLLiteral.append(n, to: &out)
        out.append(contentsOf: " AS REAL)".utf8)
      }
      return
    }
    if v.exponent < -960 {
      // v = w * 2^-600 exactly; both factors are in SQLite's accurate range.
      out.append(UInt8(ascii: "("))
      append(v * 0x1p600, to: &out)
      out.append(UInt8(ascii: "*"))
      append(0x1p-600, to: &out)
      out.append(UInt8(ascii: ")"))
      return
    }
    if let decimal = ShortestDigits(magnitude.description), decimal.readsBackExactly(as: magnitude) {
      if v < 0 { out.append(UInt8(ascii: "-")) }
      decimal.append(to: &out)
      return
    }
    appendSeventeenDigits(v, to: &out)
  }

  /// Appends the literal of a float: the shortest decimal that reads back as the same float
  /// when SQLite cannot misread it, otherwise the float's exact value as a double.
  static func append(_ f: Float, to out: inout [UInt8]) {
    if f.isFinite, f != 0, let decimal = ShortestDigits(f.magnitude.description),
      let d = decimal.exactDouble, Float(d) == f.magnitude, decimal.readsBackExactly(as: d),
      !(f.magnitude < 0x1p53 && f == f.rounded(.towardZero))
    {
      if f < 0 { out.append(UInt8(ascii: "-")) }
      decimal.append(to: &out)
      return
    }
    append(Double(f), to: &out)
  }

  /// `%.17g`, with `.0` added when the C library printed an integer.
  private static func appendSeventeenDigits(_ v: Double, to out: inout [UInt8]) {
    var buffer = [CChar](repeating: 0, count: 40)
    let count = buffer.withUnsafeMutableBufferPointer { p in
      withVaList([v]) { vsnprintf(p.baseAddress, 40, "%.17g", $0) }
    }
    let text = buffer.prefix(max(0, min(Int(count), 39))).map { UInt8(bitPattern: $0) }
    out.append(contentsOf: text)
    if !text.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") }) {
      out.append(contentsOf: ".0".utf8)
    }
  }
}

/// A positive decimal `significand * 10^exponent` read from Swift's shortest description
/// (`1.5`, `1e-05`, `16777216.0`, `7.5647917e+08`), without leading or trailing zeros.
struct ShortestDigits {
  /// The significant digits as an integer (at most 17 digits).
  var significand: UInt64
  /// The number of significant digits.
  var digitCount: Int
  /// The power of ten of the last digit.
  var exponent: Int

  /// Parses a description; nil for anything unexpected (more than 19 digits, no digits).
  init?(_ text: String) {
    var s: UInt64 = 0
    var count = 0
    var fraction = 0
    var inFraction = false
    var exponentPart = 0
    var exponentNegative = false
    var inExponent = false
    var pendingZeros = 0
    for c in text.utf8 {
      if inExponent {
        if c == UInt8(ascii: "-") {
          exponentNegative = true
        } else if c >= 0x30 && c <= 0x39 {
          exponentPart = exponentPart * 10 + Int(c - 0x30)
          if exponentPart > 10_000 { return nil }
        }
        continue
      }
      switch c {
      case UInt8(ascii: "."): inFraction = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
      case 0x30...0x39:
        if inFraction { fraction += 1 }
        let d = UInt64(c - 0x30)
        if count == 0 && d == 0 { continue }
        if d == 0 {
          pendingZeros += 1  // kept only if a non-zero digit follows
          continue
        }
        for _ in 0..<pendingZeros {
          guard count < 19 else { return nil }
          s = s * 10
          count += 1
        }
        pendingZeros = 0
        guard count < 19 else { return nil }
        s = s * 10 + d
        count += 1
      default: return nil
      }
    }
    guard count > 0 else { return nil }
    significand = s
    digitCount = count
    exponent = (exponentNegative ? -exponentPart : exponentPart) - fraction + pendingZeros
  }

  /// Exact powers of ten as doubles.
  private static let powersOfTen: [Double] = (0...22).map { k in
    var p = 1.0
    for _ in 0..<k { p *= 10 }
    return p
  }

  /// The correctly rounded double of the decimal when one IEEE operation computes it
  /// (significand below 2^53, |exponent| <= 22); nil otherwise.
  var exactDouble: Double? {
    guard significand < 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
    let s = Double(significand)
    let p = ShortestDigits.powersOfTen[abs(exponent)]
    let d = exponent >= 0 ? s * p : s / p
    return d.isFinite ? d : nil
  }

  /// True when `v` is the correctly rounded value of this decimal, one IEEE operation computes
  /// it, and the decimal lies less than 0.49 units in the last place from `v`, so that a
  /// conversion that rounds twice (through `long double`) cannot land on the other side.
  func readsBackExactly(as v: Double) -> Bool {
    guard let d = exactDouble, d == v else { return false }
    let s = Double(significand)
    let p = ShortestDigits.powersOfTen[abs(exponent)]
    if exponent >= 0 {
      let residual = (-d).addingProduct(s, p)  // s*p - d, exact
      return residual.magnitude < 0.49 * d.ulp
    }
    let residual = s.addingProduct(-d, p)  // s - d*p, exact
    return residual.magnitude < 0.49 * d.ulp * p
  }

  /// Appends the decimal in plain notation when short, else as `d.ddde±x`; always with a
  /// decimal point or an exponent, so that SQLite reads a REAL.
  func append(to out: inout [UInt8]) {
    var digits: [UInt8] = []
    var m = significand
    repeat {
      digits.append(UInt8(ascii: "0") + UInt8(m % 10))
      m /= 10
    } while m > 0
    digits.reverse()
    let n = digits.count
    let point = n + exponent  // digits before the decimal point
    if exponent >= 0 && point <= 17 {
      out.append(contentsOf: digits)
      out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: exponent))
      out.append(contentsOf: ".0".utf8)
    } else if exponent < 0 && point > 0 {
      out.append(contentsOf: digits[0..<point])
      out.append(UInt8(ascii: "."))
      out.append(contentsOf: digits[point...])
    } else if exponent < 0 && point > -5 {
      out.append(contentsOf: "0.".utf8)
      out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -point))
      out.append(contentsOf: digits)
    } else {
      out.append(digits[0])
      out.append(UInt8(ascii: "."))
      if n > 1 { out.append(contentsOf: digits[1...]) } else { out.append(UInt8(ascii: "0")) }
      out.append(UInt8(ascii: "e"))
      let e = point - 1
      out.append(e < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
      out.append(contentsOf: String(e.magnitude).utf8)
    }
  }
}
