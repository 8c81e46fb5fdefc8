/// Decimal128 as text, in the style Realm writes (`1.5`, `-0.001`, `1.000`, `1E+400`,
/// `1E-6176`, `NaN`, `Inf`, `-Inf`), and parsing such text back exactly.
extension Decimal128 {
  /// Realm's text form: plain notation when the exponent is <= 0 and the adjusted exponent
  /// (exponent + digits - 1) is >= -6, scientific notation (`d.dddE+x`) otherwise; trailing
  /// zeros of the coefficient are kept (`1.000`), a negative zero is `-0`.
  public var text: String {
    var out: [UInt8] = []
    out.reserveCapacity(44)
    appendText(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends ``text`` as UTF-8.
  public func appendText(to out: inout [UInt8]) {
    switch parts {
    case .nan:
      out.append(contentsOf: [0x4E, 0x61, 0x4E])  // NaN
    case .infinity(let negative):
      if negative { out.append(UInt8(ascii: "-")) }
      out.append(contentsOf: [0x49, 0x6E, 0x66])  // Inf
    case .finite(let negative, let coefficient, let exponent):
      if negative { out.append(UInt8(ascii: "-")) }
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
        let n = Decimal128.writeDigits(coefficient, to: buffer)
        Decimal128.layOut(
          UnsafeBufferPointer(rebasing: buffer[0..<n]), exponent: exponent, to: &out)
      }
    }
  }

  /// Writes the decimal digits of `value` (< 10^34) to the start of `buffer`; returns their
  /// count. Works in two 64-bit halves of 19 digits: 128-bit division per digit is slow.
  private static func writeDigits(_ value: UInt128, to buffer: UnsafeMutableBufferPointer<UInt8>)
    -> Int
  {
    let tenTo19: UInt64 = 10_000_000_000_000_000_000
    let (high, low) = value.quotientAndRemainder(dividingBy: UInt128(tenTo19))
    var count = 0
    func put(_ v: UInt64, minimumDigits: Int) {
      var tmp: (UInt64, UInt64, UInt64) = (0, 0, 0)
      withUnsafeMutableBytes(of: &tmp) { raw in
        var x = v
        var k = 0
        repeat {
          raw[23 - k] = 0x30 + UInt8(truncatingIfNeeded: x % 10)
          x /= 10
          k += 1
        } while x > 0 || k < minimumDigits
        for i in (24 - k)..<24 {
          buffer[count] = raw[i]
          count += 1
        }
      }
    }
    if high > 0 {
      put(UInt64(truncatingIfNeeded: high), minimumDigits: 1)
      put(UInt64(truncatingIfNeeded: low), minimumDigits: 19)
    } else {
      put(UInt64(truncatingIfNeeded: low), minimumDigits: 1)
    }
    return count
  }

  /// Plain notation when the exponent is <= 0 and the adjusted exponent >= -6, else scientific.
  private static func layOut(
    _ digits: UnsafeBufferPointer<UInt8>, exponent: Int, to out: inout [UInt8]
  ) {
    let n = digits.count
    let adjusted = exponent + n - 1
    if exponent <= 0 && adjusted >= -6 {
      if exponent == 0 {
        out.append(contentsOf: digits)
      } else if -exponent < n {
        out.append(contentsOf: digits[0..<(n + exponent)])
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: digits[(n + exponent)...])
      } else {
        out.append(UInt8(ascii: "0"))
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -exponent - n))
        out.append(contentsOf: digits)
      }
    } else {
      out.append(digits[0])
      if n > 1 {
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: digits[1...])
      }
      out.append(UInt8(ascii: "E"))
      out.append(adjusted < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
      var magnitude = adjusted.magnitude
      var exponentDigits: [UInt8] = []
      repeat {
        exponentDigits.append(0x30 + UInt8(truncatingIfNeeded: magnitude % 10))
        magnitude /= 10
      } while magnitude > 0
      out.append(contentsOf: exponentDigits.reversed())
    }
  }

  /// Parses decimal text: an optional sign, digits with an optional point, an optional exponent
  /// (`e`/`E`), or `NaN`, `Inf`, `Infinity` (any case). More than 34 significant digits are
  /// rounded half to even; exponents beyond the range are clamped as IEEE 754 does (a zero or a
  /// coefficient padded with zeros), overflowing to infinity and underflowing to zero. Nil when
  /// the text is not a number.
  public init?(text: String) {
    var b = Array(text.utf8)[...]
    while let f = b.first, f == 0x20 || f == 0x09 { b.removeFirst() }
    while let l = b.last, l == 0x20 || l == 0x09 { b.removeLast() }
    var negative = false
    if let f = b.first, f == UInt8(ascii: "-") || f == UInt8(ascii: "+") {
      negative = f == UInt8(ascii: "-")
      b.removeFirst()
    }
    let word = String(decoding: b, as: UTF8.self).lowercased()
    if word == "nan" {
      self = .nan
      if negative { high |= 1 << 63 }
      return
    }
    if word == "inf" || word == "infinity" {
      self = negative ? .negativeInfinity : .infinity
      return
    }
    // Significant digits (at most 34 kept), then rounding information for the rest.
    var coefficient: UInt128 = 0
    var kept = 0
    var dropped = 0  // digits not kept, left of the point they raise the exponent
    var firstDropped: UInt8 = 0
    var restNonZero = false
    var fractionDigits = 0
    var sawDigit = false
    var sawPoint = false
    var i = b.startIndex
    while i < b.endIndex {
      let c = b[i]
      if c == UInt8(ascii: ".") {
        if sawPoint { return nil }
        sawPoint = true
      } else if c >= 0x30 && c <= 0x39 {
        sawDigit = true
        if sawPoint { fractionDigits += 1 }
        let d = c - 0x30
        if kept == 0 && d == 0 {
          // Leading zero: not significant.
        } else if kept < 34 {
          coefficient = coefficient * 10 + UInt128(d)
          kept += 1
        } else {
          if dropped == 0 { firstDropped = d } else if d != 0 { restNonZero = true }
          dropped += 1
        }
      } else {
        break
      }
      i += 1
    }
    guard sawDigit else { return nil }
    var exponentPart = 0
    if i < b.endIndex {
      guard b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") else { return nil }
      i += 1
      var exponentNegative = false
      if i < b.endIndex, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") {
        exponentNegative = b[i] == UInt8(ascii: "-")
        i += 1
      }
      guard i < b.endIndex else { return nil }
      while i < b.endIndex {
        let c = b[i]
        guard c >= 0x30 && c <= 0x39 else { return nil }
        // Saturate: anything this large overflows or underflows anyway.
        if exponentPart < 1_000_000 { exponentPart = exponentPart * 10 + Int(c - 0x30) }
        i += 1
      }
      if exponentNegative { exponentPart = -exponentPart }
    }
    var exponent = exponentPart - fractionDigits + dropped
    if dropped > 0 {
      let roundUp = firstDropped > 5 || (firstDropped == 5 && (restNonZero || coefficient % 2 == 1))
      if roundUp {
        coefficient += 1
        if coefficient == Decimal128.coefficientLimit {
          coefficient /= 10
          exponent += 1
        }
      }
    }
    self = Decimal128.clamped(negative: negative, coefficient: coefficient, exponent: exponent)
  }

  /// Fits a coefficient (< 10^34) and any exponent into the encodable range.
  private static func clamped(negative: Bool, coefficient: UInt128, exponent: Int) -> Decimal128 {
    var c = coefficient
    var e = exponent
    if c == 0 {
      e = min(max(e, minExponent), maxExponent)
    }
    while e > maxExponent {
      let scaled = c * 10
      guard scaled < coefficientLimit else { return negative ? .negativeInfinity : .infinity }
      c = scaled
      e -= 1
    }
    if e < minExponent {
      // Shift digits out, rounding half to even on the last one shifted out.
      var roundDigit: UInt128 = 0
      var sticky = false
      while e < minExponent {
        if roundDigit != 0 { sticky = true }
        if c == 0 {
          roundDigit = 0
          e = minExponent
          break
        }
        (c, roundDigit) = c.quotientAndRemainder(dividingBy: 10)
        e += 1
      }
      if roundDigit > 5 || (roundDigit == 5 && (sticky || c % 2 == 1)) { c += 1 }
    }
    return Decimal128(negative: negative, coefficient: c, exponent: e)
      ?? (negative ? .negativeInfinity : .infinity)
  }
}
