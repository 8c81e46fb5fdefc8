/// Formats floats and doubles as the shortest decimal that reads back exactly, laid out the way
/// C++ `std::to_chars` does without a format (which is what Realm's own JSON export writes):
/// the digits are the shortest round-trip digits (Swift's `description` computes the same
/// ones), and the fixed form is used when it is not longer than the exponent form, with a
/// two-digit minimum exponent (`1e-07`, `6.52194e+21`, `0.001`, `756479168`).
package enum ShortestDecimal {
  /// The most bytes ``write(_:to:)`` writes.
  package static let maxLength = 48

  /// Appends `v` (finite) to `out`; `-0.0` stays `-0.0`; a non-finite value appends `null`.
  package static func append<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ v: F, to out: inout [UInt8]
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxLength) { text in
      let n = write(v, to: text.baseAddress!)
      // A typed buffer: appending it is one copy.
      out.append(contentsOf: UnsafeBufferPointer(rebasing: text[0..<n]))
    }
  }

  /// Writes `v` as ``append(_:to:)`` appends it, at `out` (room for ``maxLength`` bytes);
  /// returns the number of bytes written.
  package static func write<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ v: F, to out: UnsafeMutablePointer<UInt8>
  ) -> Int {
    var o = Output(out)
    guard v.isFinite else {
      o.put("null")
      return o.count
    }
    if v == 0 {
      o.put(v.sign == .minus ? "-0.0" : "0")
      return o.count
    }
    if v.sign == .minus { o.put(UInt8(ascii: "-")) }
    let magnitude = v.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { scratch in
      var pointPosition = 0  // value = 0.d1d2...dn * 10^pointPosition
      if let d = magnitude as? Double, let n = fewDigits(d, into: scratch, pointPosition: &pointPosition) {
        layOut(magnitude, digits: UnsafeBufferPointer(rebasing: scratch[0..<n]), pointPosition: pointPosition, to: &o)
        return
      }
      let n = parseDescription(magnitude.description, into: scratch, pointPosition: &pointPosition)
      layOut(
        magnitude, digits: UnsafeBufferPointer(rebasing: scratch[0..<n]),
        pointPosition: pointPosition, to: &o)
    }
    return o.count
  }

  /// Bytes written at a pointer the caller made room at.
  struct Output {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0
    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }
    @inline(__always) mutating func put(_ b: UInt8) {
      base[count] = b
      count &+= 1
    }
    @inline(__always) mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
      guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
      (base + count).update(from: from, count: bytes.count)
      count &+= bytes.count
    }
    mutating func put(_ s: StaticString) { s.withUTF8Buffer { put($0) } }
    mutating func put(_ b: UInt8, times n: Int) {
      for _ in 0..<max(n, 0) { put(b) }
    }
  }

  /// Writes the digits in fixed or exponent form, whichever is shorter (fixed on a tie).
  private static func layOut<F: BinaryFloatingPoint>(
    _ magnitude: F, digits: UnsafeBufferPointer<UInt8>, pointPosition: Int, to out: inout Output
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
        out.put(UInt8(ascii: "0"))
        out.put(UInt8(ascii: "."))
        out.put(UInt8(ascii: "0"), times: -pointPosition)
        out.put(digits)
      } else if pointPosition < n {
        out.put(UnsafeBufferPointer(rebasing: digits[0..<pointPosition]))
        out.put(UInt8(ascii: "."))
        out.put(UnsafeBufferPointer(rebasing: digits[pointPosition...]))
      } else if magnitude < 0x1p63, let exact = UInt64(exactly: magnitude) {
        writeDecimal(exact, to: &out)
      } else if let exact = UInt128(exactly: magnitude) {
        // The value is an integer here; to_chars prints its exact digits, not padded zeros.
        writeDecimal(exact, to: &out)
      } else {
        out.put(digits)
        out.put(UInt8(ascii: "0"), times: pointPosition - n)
      }
      return
    }
    out.put(digits[0])
    if n > 1 {
      out.put(UInt8(ascii: "."))
      out.put(UnsafeBufferPointer(rebasing: digits[1...]))
    }
    out.put(UInt8(ascii: "e"))
    out.put(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
    let e = exponent.magnitude
    if e >= 100 { out.put(UInt8(ascii: "0") + UInt8(e / 100)) }
    out.put(UInt8(ascii: "0") + UInt8(e / 10 % 10))
    out.put(UInt8(ascii: "0") + UInt8(e % 10))
  }

  /// Writes an unsigned integer in decimal.
  private static func writeDecimal<T: BinaryInteger>(_ value: T, to out: inout Output) {
    var v = value
    let first = out.count
    repeat {
      out.put(0x30 &+ UInt8(truncatingIfNeeded: v % 10))
      v /= 10
    } while v > 0
    // Digits came least significant first.
    var i = first
    var j = out.count - 1
    while i < j {
      let t = out.base[i]
      out.base[i] = out.base[j]
      out.base[j] = t
      i += 1
      j -= 1
    }
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
}
