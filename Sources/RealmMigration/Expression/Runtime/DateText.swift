import RealmModel

/// ISO-8601 text for timestamps without Foundation, in the dump format's form
/// (`2024-01-02T03:04:05.000000000Z`), and parsing of the forms `date()` accepts.
enum DateText {
  /// `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`, UTC, always nine fraction digits (as the dump).
  static func format(_ t: Timestamp) -> String {
    // Normalise to a non-negative nanosecond part for the calendar computation.
    var seconds = t.seconds
    var nanos = Int64(t.nanoseconds)
    if nanos < 0 {
      seconds = seconds &- 1
      nanos += 1_000_000_000
    }
    let (days, secondOfDay) = floorDivide(seconds, 86_400)
    let (year, month, day) = civil(fromDays: days)
    let yearText = year >= 0 && year <= 9999 ? pad(year, 4) : String(year)
    return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
      + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(nanos, 9))Z"
  }

  /// Parses `YYYY-MM-DD`, optionally `THH:MM[:SS[.fraction]]` (or a space for `T`), then
  /// `Z`, `+HH:MM`, `-HH:MM` or nothing (UTC). Nil when the text is not such a date.
  static func parse(_ text: String) -> Timestamp? {
    var s = Scanner(Array(text.utf8))
    let negativeYear = s.take("-")
    guard let y = s.digits(min: 4, max: 6), s.take("-"), let mo = s.digits(min: 2, max: 2), s.take("-"),
      let d = s.digits(min: 2, max: 2)
    else { return nil }
    let year = negativeYear ? -y : y
    guard (1...12).contains(mo), (1...daysIn(month: mo, year: year)).contains(d) else { return nil }
    var secondOfDay: Int64 = 0
    var nanos: Int64 = 0
    var offset: Int64 = 0
    if s.take("T") || s.take("t") || s.take(" ") {
      guard let h = s.digits(min: 2, max: 2), s.take(":"), let mi = s.digits(min: 2, max: 2) else { return nil }
      var sec: Int64 = 0
      if s.take(":") {
        guard let v = s.digits(min: 2, max: 2) else { return nil }
        sec = v
        if s.take(".") || s.take(",") {
          guard let (fraction, count) = s.fraction() else { return nil }
          var f = fraction
          for _ in count..<9 { f *= 10 }
          nanos = f
        }
      }
      guard h < 24, mi < 60, sec < 60 else { return nil }
      secondOfDay = h * 3600 + mi * 60 + sec
      if s.take("Z") || s.take("z") {
      } else if let sign = s.sign() {
        guard let oh = s.digits(min: 2, max: 2) else { return nil }
        _ = s.take(":")
        guard let om = s.digits(min: 2, max: 2), oh < 24, om < 60 else { return nil }
        offset = sign * (oh * 3600 + om * 60)
      }
    }
    guard s.atEnd else { return nil }
    let days = daysFromCivil(year: year, month: mo, day: d)
    // Before 1970 the fraction is carried into the seconds: Realm's nanoseconds have their sign.
    return Timestamp(seconds: days * 86_400 + secondOfDay - offset, addingNanoseconds: nanos)
  }

  // MARK: - Calendar (the model's proleptic Gregorian arithmetic)

  static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    Timestamp.daysSinceEpoch(year: year, month: month, day: day)
  }

  static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let d = Timestamp.civilDate(daysSinceEpoch: days)
    return (d.year, d.month, d.day)
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    Timestamp.daysInMonth(year: year, month: month)
  }

  private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
    let q = a / b
    let r = a % b
    return r < 0 ? (q - 1, r + b) : (q, r)
  }

  private static func pad(_ v: Int64, _ width: Int) -> String {
    let s = String(v)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }

  private struct Scanner {
    let bytes: [UInt8]
    var i = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var atEnd: Bool { i == bytes.count }
    mutating func take(_ c: Unicode.Scalar) -> Bool {
      guard i < bytes.count, bytes[i] == UInt8(ascii: c) else { return false }
      i += 1
      return true
    }
    mutating func sign() -> Int64? {
      if take("+") { return 1 }
      if take("-") { return -1 }
      return nil
    }
    mutating func digits(min: Int, max: Int) -> Int64? {
      var v: Int64 = 0
      var n = 0
      while n < max, i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
        v = v * 10 + Int64(bytes[i] - 0x30)
        i += 1
        n += 1
      }
      return n >= min ? v : nil
    }
    /// Up to nine digits are kept; more are accepted and truncated.
    mutating func fraction() -> (Int64, Int)? {
      var v: Int64 = 0
      var n = 0
      while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
        if n < 9 {
          v = v * 10 + Int64(bytes[i] - 0x30)
          n += 1
        }
        i += 1
      }
      return n > 0 ? (v, n) : nil
    }
  }
}
