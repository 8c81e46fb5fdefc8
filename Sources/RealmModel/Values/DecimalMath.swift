/// Decimal128 arithmetic as Realm's queries use it (IEEE 754-2008 decimal, results rounded to
/// 34 digits, half to even): sums and averages of decimals, arithmetic with a decimal operand,
/// and the conversions Realm applies before comparing an int, float or double with a decimal.
package enum DecimalMath {
  // MARK: - Conversions

  /// An integer, exactly.
  package static func from(_ v: Int64) -> Decimal128 {
    Decimal128(negative: v < 0, coefficient: UInt128(v.magnitude), exponent: 0)!
  }

  /// A double as Realm converts it: the exact binary value rounded to 34 digits, then, when
  /// that has more than 15 significant digits, to 15 (Realm's `Decimal128(double)`).
  package static func from(_ v: Double) -> Decimal128 { fromBinary(v, digits: 15) }

  /// A float as Realm converts it: like a double, to 7 significant digits.
  package static func from(_ v: Float) -> Decimal128 { fromBinary(Double(v), digits: 7) }

  /// Decimal text as Realm reads a literal compared with a decimal property; NaN when the text
  /// is not a number.
  package static func parse(_ text: String) -> Decimal128 {
    Decimal128(text: text) ?? .nan
  }

  private static func fromBinary(_ v: Double, digits: Int) -> Decimal128 {
    if v.isNaN { return .nan }
    if v.isInfinite { return v < 0 ? .negativeInfinity : .infinity }
    let negative = v.sign == .minus
    if v == 0 { return Decimal128(negative: negative, coefficient: 0, exponent: 0)! }
    // v = significand * 2^e exactly, significand an integer below 2^53.
    let e = Int(v.exponent) - 52
    let significand = UInt64(v.significandBitPattern) | (v.isNormal ? 1 << 52 : 0)
    var big = BigUInt(significand)
    var exponent = 0
    if v.isSubnormal {
      // Subnormals: v = significandBitPattern * 2^-1074.
      big = BigUInt(UInt64(v.significandBitPattern))
      for _ in 0..<1074 { big.multiply(by: 5) }
      exponent = -1074
    } else if e >= 0 {
      for _ in 0..<e { big.multiply(by: 2) }
    } else {
      for _ in 0..<(-e) { big.multiply(by: 5) }
      exponent = e
    }
    guard case .finite(_, let c, let x) = round(negative: negative, big, exponent: exponent).parts else { return .nan }
    let largest: UInt128 = digits == 15 ? 999_999_999_999_999 : 9_999_999
    if c <= largest { return Decimal128(negative: negative, coefficient: c, exponent: x)! }
    let base2 = Int(v.exponent)
    var base10 = (base2 * 30103) / (100 * 1000)
    if base2 < 0 { base10 -= 1 }
    var adjust = digits - 1
    var q = quantize(c, x, to: base10 - adjust)
    if q > largest {
      adjust -= 1
      q = quantize(c, x, to: base10 - adjust)
    }
    return Decimal128(negative: negative, coefficient: q, exponent: base10 - adjust) ?? .nan
  }

  /// The coefficient of `c * 10^x` expressed with exponent `target`, rounded half to even.
  private static func quantize(_ c: UInt128, _ x: Int, to target: Int) -> UInt128 {
    if x >= target {
      var r = c
      for _ in 0..<(x - target) { r = r &* 10 }
      return r
    }
    var big = BigUInt(c)
    big.divideRoundingHalfEven(byPowerOfTen: target - x)
    return big.uint128
  }

  // MARK: - Arithmetic

  /// `a + b`.
  package static func add(_ a: Decimal128, _ b: Decimal128) -> Decimal128 {
    switch (a.parts, b.parts) {
    case (.nan, _): return a
    case (_, .nan): return b
    case (.infinity(let x), .infinity(let y)): return x == y ? a : .nan
    case (.infinity, _): return a
    case (_, .infinity): return b
    case (.finite(let n1, let c1, let e1), .finite(let n2, let c2, let e2)):
      if c1 == 0 && c2 == 0 {
        return Decimal128(negative: n1 && n2, coefficient: 0, exponent: min(e1, e2))!
      }
      if c1 == 0 { return b }
      if c2 == 0 { return a }
      // (hi) has the larger exponent.
      let (nh, ch, eh, nl, cl, el) = e1 >= e2 ? (n1, c1, e1, n2, c2, e2) : (n2, c2, e2, n1, c1, e1)
      let diff = eh - el
      var high: BigUInt
      var low: BigUInt
      var exponent: Int
      if diff > 80 {
        // The smaller operand only decides the rounding: it becomes a sticky unit.
        high = BigUInt(ch)
        high.multiply(byPowerOfTen: 80)
        low = BigUInt(UInt64(1))
        exponent = eh - 80
      } else {
        high = BigUInt(ch)
        high.multiply(byPowerOfTen: diff)
        low = BigUInt(cl)
        exponent = el
      }
      if nh == nl {
        high.add(low)
        return round(negative: nh, high, exponent: exponent)
      }
      let order = high.compare(low)
      if order == 0 { return Decimal128(negative: false, coefficient: 0, exponent: min(e1, e2))! }
      if order > 0 {
        high.subtract(low)
        return round(negative: nh, high, exponent: exponent)
      }
      low.subtract(high)
      return round(negative: nl, low, exponent: exponent)
    }
  }

  /// `a - b`.
  package static func subtract(_ a: Decimal128, _ b: Decimal128) -> Decimal128 {
    if b.isNaN { return b }
    var negated = b
    negated.high ^= 1 << 63
    return add(a, negated)
  }

  /// `a * b`.
  package static func multiply(_ a: Decimal128, _ b: Decimal128) -> Decimal128 {
    switch (a.parts, b.parts) {
    case (.nan, _): return a
    case (_, .nan): return b
    case (.infinity(let x), .infinity(let y)): return x != y ? .negativeInfinity : .infinity
    case (.infinity(let x), .finite(let y, let c, _)), (.finite(let y, let c, _), .infinity(let x)):
      if c == 0 { return .nan }
      return x != y ? .negativeInfinity : .infinity
    case (.finite(let n1, let c1, let e1), .finite(let n2, let c2, let e2)):
      var p = BigUInt(c1)
      p.multiply(BigUInt(c2))
      return round(negative: n1 != n2, p, exponent: e1 + e2)
    }
  }

  /// `a / b`.
  package static func divide(_ a: Decimal128, _ b: Decimal128) -> Decimal128 {
    switch (a.parts, b.parts) {
    case (.nan, _): return a
    case (_, .nan): return b
    case (.infinity, .infinity): return .nan
    case (.infinity(let x), .finite(let y, _, _)): return x != y ? .negativeInfinity : .infinity
    case (.finite(let x, _, _), .infinity(let y)):
      return Decimal128(negative: x != y, coefficient: 0, exponent: Decimal128.minExponent)!
    case (.finite(let n1, let c1, let e1), .finite(let n2, let c2, let e2)):
      if c2 == 0 { return c1 == 0 ? .nan : (n1 != n2 ? .negativeInfinity : .infinity) }
      if c1 == 0 { return Decimal128(negative: n1 != n2, coefficient: 0, exponent: max(Decimal128.minExponent, min(Decimal128.maxExponent, e1 - e2)))! }
      // Enough digits for 34 significant ones and a rounding digit, plus a sticky unit.
      let scale = 36 + DecimalMath.digitCount(c2)
      var dividend = BigUInt(c1)
      dividend.multiply(byPowerOfTen: scale)
      let remainderIsZero = dividend.divide(by: BigUInt(c2))
      dividend.multiply(by: 10)
      if !remainderIsZero { dividend.add(BigUInt(UInt64(1))) }
      return round(negative: n1 != n2, dividend, exponent: e1 - e2 - scale - 1)
    }
  }

  /// `a / n` for a count.
  package static func divide(_ a: Decimal128, byCount n: Int) -> Decimal128 {
    divide(a, from(Int64(n)))
  }

  // MARK: - Rounding

  /// `(-1)^negative * magnitude * 10^exponent` rounded to 34 digits half to even, with the
  /// exponent brought into range (overflow gives infinity, underflow rounds toward zero's
  /// subnormal range).
  static func round(negative: Bool, _ magnitude: BigUInt, exponent: Int) -> Decimal128 {
    var m = magnitude
    var e = exponent
    let digits = m.decimalDigitCount
    if digits > 34 {
      let drop = digits - 34
      _ = m.divideRoundingHalfEven(byPowerOfTen: drop)
      e += drop
      if m.decimalDigitCount > 34 {
        _ = m.divideRoundingHalfEven(byPowerOfTen: 1)
        e += 1
      }
    }
    if e < Decimal128.minExponent {
      let drop = Decimal128.minExponent - e
      if drop > 40 {
        m = BigUInt(UInt64(0))
      } else {
        _ = m.divideRoundingHalfEven(byPowerOfTen: drop)
      }
      e = Decimal128.minExponent
    }
    var c = m.uint128
    if e > Decimal128.maxExponent {
      if c == 0 {
        e = Decimal128.maxExponent
      } else {
        while e > Decimal128.maxExponent, c < Decimal128.coefficientLimit / 10 {
          c *= 10
          e -= 1
        }
        if e > Decimal128.maxExponent { return negative ? .negativeInfinity : .infinity }
      }
    }
    return Decimal128(negative: negative, coefficient: c, exponent: e) ?? .nan
  }
}

/// A small unsigned big integer (little-endian 32-bit limbs) for exact decimal arithmetic.
struct BigUInt: Sendable {
  private(set) var limbs: [UInt32]

  init(_ v: UInt64) {
    limbs = [UInt32(truncatingIfNeeded: v), UInt32(truncatingIfNeeded: v >> 32)]
    normalize()
  }

  init(_ v: UInt128) {
    limbs = (0..<4).map { UInt32(truncatingIfNeeded: v >> (32 * $0)) }
    normalize()
  }

  private mutating func normalize() {
    while let last = limbs.last, last == 0 { limbs.removeLast() }
  }

  var isZero: Bool { limbs.isEmpty }

  /// The low 128 bits.
  var uint128: UInt128 {
    var v: UInt128 = 0
    for (i, l) in limbs.prefix(4).enumerated() { v |= UInt128(l) << (32 * i) }
    return v
  }

  mutating func multiply(by small: UInt32) {
    var carry: UInt64 = 0
    for i in limbs.indices {
      let p = UInt64(limbs[i]) * UInt64(small) + carry
      limbs[i] = UInt32(truncatingIfNeeded: p)
      carry = p >> 32
    }
    if carry > 0 { limbs.append(UInt32(carry)) }
    normalize()
  }

  mutating func multiply(byPowerOfTen n: Int) {
    var left = n
    while left >= 9 {
      multiply(by: 1_000_000_000)
      left -= 9
    }
    var rest: UInt32 = 1
    for _ in 0..<left { rest *= 10 }
    if rest > 1 { multiply(by: rest) }
  }

  mutating func multiply(_ other: BigUInt) {
    if isZero || other.isZero {
      limbs = []
      return
    }
    var out = [UInt32](repeating: 0, count: limbs.count + other.limbs.count)
    for i in limbs.indices {
      var carry: UInt64 = 0
      for j in other.limbs.indices {
        let p = UInt64(limbs[i]) * UInt64(other.limbs[j]) + UInt64(out[i + j]) + carry
        out[i + j] = UInt32(truncatingIfNeeded: p)
        carry = p >> 32
      }
      var k = i + other.limbs.count
      while carry > 0 {
        let s = UInt64(out[k]) + carry
        out[k] = UInt32(truncatingIfNeeded: s)
        carry = s >> 32
        k += 1
      }
    }
    limbs = out
    normalize()
  }

  mutating func add(_ other: BigUInt) {
    var carry: UInt64 = 0
    let n = max(limbs.count, other.limbs.count)
    if limbs.count < n { limbs.append(contentsOf: repeatElement(0, count: n - limbs.count)) }
    for i in 0..<n {
      let s = UInt64(limbs[i]) + UInt64(i < other.limbs.count ? other.limbs[i] : 0) + carry
      limbs[i] = UInt32(truncatingIfNeeded: s)
      carry = s >> 32
    }
    if carry > 0 { limbs.append(UInt32(carry)) }
  }

  /// `self -= other`, with `other <= self`.
  mutating func subtract(_ other: BigUInt) {
    var borrow: Int64 = 0
    for i in limbs.indices {
      var d = Int64(limbs[i]) - Int64(i < other.limbs.count ? other.limbs[i] : 0) - borrow
      if d < 0 {
        d += 1 << 32
        borrow = 1
      } else {
        borrow = 0
      }
      limbs[i] = UInt32(d)
    }
    normalize()
  }

  func compare(_ other: BigUInt) -> Int {
    if limbs.count != other.limbs.count { return limbs.count < other.limbs.count ? -1 : 1 }
    for i in stride(from: limbs.count - 1, through: 0, by: -1) where limbs[i] != other.limbs[i] {
      return limbs[i] < other.limbs[i] ? -1 : 1
    }
    return 0
  }

  /// Divides by a small number; returns the remainder.
  @discardableResult
  mutating func divide(bySmall d: UInt32) -> UInt32 {
    var remainder: UInt64 = 0
    for i in stride(from: limbs.count - 1, through: 0, by: -1) {
      let cur = remainder << 32 | UInt64(limbs[i])
      limbs[i] = UInt32(cur / UInt64(d))
      remainder = cur % UInt64(d)
    }
    normalize()
    return UInt32(remainder)
  }

  /// Divides by `other` (bit by bit); returns true when the remainder is zero.
  mutating func divide(by other: BigUInt) -> Bool {
    if other.limbs.count == 1 { return divide(bySmall: other.limbs[0]) == 0 }
    var quotient = BigUInt(UInt64(0))
    var remainder = BigUInt(UInt64(0))
    let bits = limbs.count * 32
    quotient.limbs = [UInt32](repeating: 0, count: limbs.count)
    for bit in stride(from: bits - 1, through: 0, by: -1) {
      remainder.shiftLeftOne()
      if limbs[bit / 32] >> (bit % 32) & 1 == 1 {
        if remainder.limbs.isEmpty { remainder.limbs = [1] } else { remainder.limbs[0] |= 1 }
      }
      if remainder.compare(other) >= 0 {
        remainder.subtract(other)
        quotient.limbs[bit / 32] |= 1 << (bit % 32)
      }
    }
    quotient.normalize()
    self = quotient
    return remainder.isZero
  }

  private mutating func shiftLeftOne() {
    var carry: UInt32 = 0
    for i in limbs.indices {
      let next = limbs[i] >> 31
      limbs[i] = limbs[i] << 1 | carry
      carry = next
    }
    if carry > 0 { limbs.append(carry) }
  }

  /// Divides by 10^n rounding half to even; returns whether the dropped part was exactly half.
  @discardableResult
  mutating func divideRoundingHalfEven(byPowerOfTen n: Int) -> Bool {
    guard n > 0 else { return false }
    // Drop n-1 digits keeping a sticky flag, then the last digit decides.
    var sticky = false
    var left = n - 1
    while left >= 9 {
      if divide(bySmall: 1_000_000_000) != 0 { sticky = true }
      left -= 9
    }
    var rest: UInt32 = 1
    for _ in 0..<left { rest *= 10 }
    if rest > 1, divide(bySmall: rest) != 0 { sticky = true }
    let digit = divide(bySmall: 10)
    let odd = (limbs.first ?? 0) & 1 == 1
    if digit > 5 || (digit == 5 && (sticky || odd)) { add(BigUInt(UInt64(1))) }
    return digit == 5 && !sticky
  }

  /// Number of decimal digits (1 for zero).
  var decimalDigitCount: Int {
    var copy = self
    var n = 0
    while copy.limbs.count > 4 {
      copy.divide(bySmall: 1_000_000_000)
      n += 9
    }
    return n + DecimalMath.digitCount(copy.uint128)
  }
}

extension DecimalMath {
  /// Number of decimal digits of `v` (1 for zero).
  package static func digitCount(_ v: UInt128) -> Int {
    var n = 1
    var x = v
    while x >= 10_000_000_000 {
      x /= 10_000_000_000
      n += 10
    }
    while x >= 10 {
      x /= 10
      n += 1
    }
    return n
  }
}
