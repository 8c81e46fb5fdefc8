/// Conversion between ``Timestamp`` and the dump format's text form
/// `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` (UTC, proleptic Gregorian calendar, 9 fraction digits).
extension Timestamp {
  /// First second of 0001-01-01T00:00:00Z.
  public static let firstTextSecond: Int64 = -62_135_596_800
  /// Last second of 9999-12-31T23:59:59Z.
  public static let lastTextSecond: Int64 = 253_402_300_799

  /// The instant as whole seconds rounded down and a non-negative nanosecond part (< 10^9);
  /// nil when it does not fit (seconds at the very bottom of the Int64 range).
  ///
  /// Realm's nanoseconds carry the sign of the seconds (§6.5): -1.5 s is (-1, -500000000),
  /// which is floor second -2 plus 500000000 ns.
  public var flooredSecondsAndNanoseconds: (seconds: Int64, nanoseconds: Int32)? {
    guard nanoseconds < 0 else { return (seconds, nanoseconds) }
    let (s, overflow) = seconds.subtractingReportingOverflow(1)
    if overflow { return nil }
    return (s, nanoseconds + 1_000_000_000)
  }

  /// Whether the instant lies in years 0001-9999, the range of the text form.
  public var hasTextForm: Bool {
    guard let (s, _) = flooredSecondsAndNanoseconds else { return false }
    return s >= Timestamp.firstTextSecond && s <= Timestamp.lastTextSecond
  }

  /// Appends `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` (without quotes) and returns true, or appends
  /// nothing and returns false when the year is outside 0001-9999.
  public func appendText(to out: inout [UInt8]) -> Bool {
    var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &text) { b in
      let p = b.baseAddress!.assumingMemoryBound(to: UInt8.self)
      guard writeText(to: p) else { return false }
      // A typed buffer: appending it is one copy.
      out.append(contentsOf: UnsafeBufferPointer(start: p, count: Timestamp.textLength))
      return true
    }
  }

  /// The length of the text form: `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`.
  public static let textLength = 30

  /// Writes the ``textLength`` bytes of `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ` at `b` and returns
  /// true, or writes nothing and returns false when the year is outside 0001-9999.
  @inlinable
  public func writeText(to b: UnsafeMutablePointer<UInt8>) -> Bool {
    guard let (s, ns) = flooredSecondsAndNanoseconds,
      s >= Timestamp.firstTextSecond && s <= Timestamp.lastTextSecond
    else { return false }
    // Range-checked above, so plain arithmetic cannot overflow.
    var days = s / 86_400
    var secondOfDay = s % 86_400
    if secondOfDay < 0 {
      secondOfDay += 86_400
      days -= 1
    }
    let (y, m, d) = Timestamp.civilDate(daysSinceEpoch: days)
    do {
      @inline(__always) func two(_ v: Int64, _ at: Int) {
        b[at] = 0x30 &+ UInt8(truncatingIfNeeded: v / 10)
        b[at + 1] = 0x30 &+ UInt8(truncatingIfNeeded: v % 10)
      }
      two(y / 100, 0)
      two(y % 100, 2)
      b[4] = UInt8(ascii: "-")
      two(m, 5)
      b[7] = UInt8(ascii: "-")
      two(d, 8)
      b[10] = UInt8(ascii: "T")
      two(secondOfDay / 3600, 11)
      b[13] = UInt8(ascii: ":")
      two(secondOfDay / 60 % 60, 14)
      b[16] = UInt8(ascii: ":")
      two(secondOfDay % 60, 17)
      b[19] = UInt8(ascii: ".")
      var rest = UInt32(ns)
      for i in stride(from: 28, through: 20, by: -1) {
        b[i] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      }
      b[29] = UInt8(ascii: "Z")
    }
    return true
  }

  /// The text form, or nil when the year is outside 0001-9999.
  public var text: String? {
    var out: [UInt8] = []
    out.reserveCapacity(30)
    guard appendText(to: &out) else { return nil }
    return String(decoding: out, as: UTF8.self)
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z`; nil when the text is not of that form or names a
  /// date or time that does not exist. Nanoseconds get the sign of the seconds, as Realm keeps them.
  public init?(text: String) {
    var text = text
    guard let t = text.withUTF8({ Timestamp(utf8: $0) }) else { return nil }
    self = t
  }

  /// Parses the text form given as UTF-8 bytes (see ``init(text:)``).
  public init?(utf8 b: UnsafeBufferPointer<UInt8>) {
    func number(_ from: Int, _ count: Int) -> Int64? {
      guard from + count <= b.count else { return nil }
      var v: Int64 = 0
      for i in from..<(from + count) {
        let c = b[i]
        guard c >= 0x30 && c <= 0x39 else { return nil }
        v = v * 10 + Int64(c - 0x30)
      }
      return v
    }
    guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
      b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
      b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
      let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2),
      let h = number(11, 2), let mi = number(14, 2), let s = number(17, 2),
      y >= 1, (1...12).contains(mo), d >= 1, d <= Timestamp.daysInMonth(year: y, month: mo),
      h < 24, mi < 60, s < 60
    else { return nil }
    var i = 19
    var nanos: Int64 = 0
    if b[i] == UInt8(ascii: ".") {
      i += 1
      var digits = 0
      while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
        guard digits < 9 else { return nil }
        nanos = nanos * 10 + Int64(b[i] - 0x30)
        digits += 1
        i += 1
      }
      guard digits > 0 else { return nil }
      for _ in digits..<9 { nanos *= 10 }
    }
    guard i == b.count - 1, b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") else {
      return nil
    }
    let days = Timestamp.daysSinceEpoch(year: y, month: mo, day: d)
    var secs = days * 86_400 + h * 3600 + mi * 60 + s
    if secs < 0 && nanos > 0 {
      secs += 1
      nanos -= 1_000_000_000
    }
    self.init(seconds: secs, nanoseconds: Int32(nanos))
  }

  /// Days in a month of the proleptic Gregorian calendar.
  public static func daysInMonth(year: Int64, month: Int64) -> Int64 {
    switch month {
    case 2: return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 1970-01-01 to a date (proleptic Gregorian), for years 1-9999.
  public static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
    // Shift the year to start in March so the leap day is the last day of the year.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let monthFromMarch = (month + 9) % 12
    let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date (proleptic Gregorian) of a day counted from 1970-01-01.
  public static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
