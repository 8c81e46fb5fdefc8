/// Formats floats and doubles as the shortest decimal that reads back exactly, laid out the way
/// C++ `std::to_chars` does without a format (which is what Realm's own JSON export writes):
/// the digits are the shortest round-trip digits (Swift's `description` computes the same
/// ones), and the fixed form is used when it is not longer than the exponent form, with a
/// two-digit minimum exponent (`1e-07`, `6.52194e+21`, `0.001`, `756479168`).
enum ShortestDecimal {
  /// Appends `v` (finite) to `out`; `-0.0` stays `-0.0`; a non-finite value appends `null`.
  static func append<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ v: F, to out: inout [UInt8]
  ) {
    guard v.isFinite else {
      out.append(contentsOf: Array("null".utf8))
      return
    }
    if v == 0 {
      if v.sign == .minus {
        out.append(contentsOf: [0x2D, 0x30, 0x2E, 0x30])
      } else {
        out.append(0x30)
      }
      return
    }
    if v.sign == .minus { out.append(UInt8(ascii: "-")) }
    let magnitude = v.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { scratch in
      var pointPosition = 0  // value = 0.d1d2...dn * 10^pointPosition
      if let d = magnitude as? Double, let n = fewDigits(d, into: scratch, pointPosition: &pointPosition) {
        layOut(magnitude, digits: UnsafeBufferPointer(rebasing: scratch[0..<n]), pointPosition: pointPosition, to: &out)
        return
      }
      let n = parseDescription(magnitude.description, into: scratch, pointPosition: &pointPosition)
      layOut(
        magnitude, digits: UnsafeBufferPointer(rebasing: scratch[0..<n]),
        pointPosition: pointPosition, to: &out)
    }
  }

  /// Writes the digits in fixed or exponent form, whichever is shorter (fixed on a tie).
  private static func layOut<F: BinaryFloatingPoint>(
    _ magnitude: F, digits: UnsafeBufferPointer<UInt8>, pointPosition: Int, to out: inout [UInt8]
  ) {
    let n = digits.count
    let exponent = pointPosition - 1
    let exponentDigits = exponent.magnitude >= 100 ? 3 : 2
    let scientificLength = n + (n > 1 ? 1 : 0) + 2 + exponentDigits
    let fixedLength: Int
    if pointPosition <= 0 {
      fixedLength = 2 - pointPosition + n
    } else if pointPosition < n {
      fixedLength = n + 1
    } else {
      fixedLength = pointPosition
    }
    if fixedLength <= scientificLength {
      if pointPosition <= 0 {
        out.append(UInt8(ascii: "0"))
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -pointPosition))
        out.append(contentsOf: digits)
      } else if pointPosition < n {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[0..<pointPosition]))
        out.append(UInt8(ascii: "."))
        out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[pointPosition...]))
      } else if magnitude < 0x1p63, let exact = UInt64(exactly: magnitude) {
        appendDecimal(exact, to: &out)
      } else if let exact = UInt128(exactly: magnitude) {
        // The value is an integer here; to_chars prints its exact digits, not padded zeros.
        appendDecimal(exact, to: &out)
      } else {
        out.append(contentsOf: digits)
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: pointPosition - n))
      }
      return
    }
    out.append(digits[0])
    if n > 1 {
      out.append(UInt8(ascii: "."))
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[1...]))
    }
    out.append(UInt8(ascii: "e"))
    out.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
    let e = exponent.magnitude
    if e >= 100 { out.append(UInt8(ascii: "0") + UInt8(e / 100)) }
    out.append(UInt8(ascii: "0") + UInt8(e / 10 % 10))
    out.append(UInt8(ascii: "0") + UInt8(e % 10))
  }

  /// Splits Swift's shortest description (`1.5`, `1e-05`, `16777216.0`, `7.5647917e+08`) into
  /// significant digits without leading/trailing zeros (written to `digits`, count returned)
  /// and the position of the decimal point.
  static func parseDescription(
    _ text: String, into digits: UnsafeMutableBufferPointer<UInt8>, pointPosition: inout Int
  ) -> Int {
    var count = 0
    var seenPoint = false
    var beforePoint = 0
    var exponent = 0
    var exponentNegative = false
    var inExponent = false
    var leadingZeros = true
    var skippedLeading = 0
    for c in text.utf8 {
      if inExponent {
        if c == UInt8(ascii: "-") {
          exponentNegative = true
        } else if c >= 0x30 && c <= 0x39 {
          exponent = exponent * 10 + Int(c - 0x30)
        }
        continue
      }
      switch c {
      case UInt8(ascii: "."): seenPoint = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
      case 0x30...0x39:
        if !seenPoint { beforePoint += 1 }
        if leadingZeros && c == 0x30 {
          skippedLeading += 1
          continue
        }
        leadingZeros = false
        // Shortest round-trip digits are at most 17 (doubles), so 48 bytes always suffice.
        if count < digits.count {
          digits[count] = c
          count += 1
        }
      default: continue
      }
    }
    while count > 1 && digits[count - 1] == 0x30 { count -= 1 }
    if count == 0 {
      digits[0] = 0x30
      count = 1
    }
    pointPosition = beforePoint - skippedLeading + (exponentNegative ? -exponent : exponent)
    return count
  }

  /// Powers of ten exactly representable as doubles, for ``fewDigits(_:into:pointPosition:)``.
  private static let powersOfTen: [Double] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000]

  /// The shortest round-trip digits of a double with at most 6 decimals and a magnitude below
  /// 2^31 (the common case: prices, scores, coordinates), without formatting a description;
  /// nil for other values.
  ///
  /// For each k from 0 to 6, m = round(d * 10^k) is the only k-decimal candidate (the
  /// double's rounding interval, under 2^-22 wide, is narrower than 10^-k) and it is exact
  /// (|d * 10^k - m| stays below 0.25 in floating point); m / 10^k, one correctly rounded
  /// division of two exact doubles, is what reading the text m·10^-k gives. The first k
  /// that reads back as d gives the fewest digits, which are the shortest round-trip digits.
  static func fewDigits(_ d: Double, into digits: UnsafeMutableBufferPointer<UInt8>, pointPosition: inout Int) -> Int? {
    guard d > 0, d < 0x1p31 else { return nil }
    for k in 0..<powersOfTen.count {
      let p = powersOfTen[k]
      let m = (d * p).rounded()
      guard m / p == d else { continue }
      var n = UInt64(m)
      guard n > 0 else { return nil }
      // Digits of n, most significant first.
      var count = 0
      var t = n
      while t > 0 {
        count += 1
        t /= 10
      }
      pointPosition = count - k
      var i = count
      while n > 0 {
        i -= 1
        digits[i] = 0x30 &+ UInt8(truncatingIfNeeded: n % 10)
        n /= 10
      }
      while count > 1 && digits[count - 1] == 0x30 { count -= 1 }
      return count
    }
    return nil
  }

  /// Appends an unsigned 64-bit integer in decimal.
  static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
    var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var v = value
    var count = 0
    withUnsafeMutableBytes(of: &buffer) { raw in
      repeat {
        raw[23 - count] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
        v /= 10
        count += 1
      } while v > 0
      out.append(contentsOf: UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + (24 - count), count: count))
    }
  }

  /// Appends an unsigned 128-bit integer in decimal.
  static func appendDecimal(_ value: UInt128, to out: inout [UInt8]) {
    if value == 0 {
      out.append(0x30)
      return
    }
    var v = value
    var tmp: [UInt8] = []
    tmp.reserveCapacity(40)
    while v > 0 {
      let (q, r) = v.quotientAndRemainder(dividingBy: 10)
      tmp.append(0x30 + UInt8(truncatingIfNeeded: r))
      v = q
    }
    out.append(contentsOf: tmp.reversed())
  }
}
