import RealmModel
import RealmJSON

/// SQL literals of Realm's scalar values, appended as UTF-8 to a byte buffer.
///
/// The forms are those of docs/sql-export.md: integers in decimal, booleans as 0 and 1, text in
/// single quotes (a string containing NUL or CR is `CAST(X'…' AS TEXT)`, which keeps every byte:
/// SQL text cannot hold NUL, and the sqlite3 shell drops a CR that ends a line of its input),
/// data as `X'…'`, dates as ISO 8601 text, decimal128, ObjectId and UUID as their canonical text.
enum SQLLiteral {
  /// Appends `NULL`.
  static func appendNull(to out: inout [UInt8]) { out.append(contentsOf: "NULL".utf8) }

  /// Appends an integer in decimal (the whole 64-bit range; SQLite reads -9223372036854775808).
  static func append(_ v: Int64, to out: inout [UInt8]) {
    if v < 0 { out.append(UInt8(ascii: "-")) }
    var m = v.magnitude
    if m < 10 {
      out.append(UInt8(ascii: "0") + UInt8(m))
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { raw in
      while m > 0 {
        raw[23 - count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: m % 10)
        m /= 10
        count += 1
      }
      out.append(contentsOf: raw[(24 - count)...])
    }
  }

  /// Appends `'text'` with quotes doubled, or `CAST(X'…' AS TEXT)` when the text holds NUL
  /// (SQL text literals cannot) or CR (the sqlite3 shell reads `\r\n` as a line end).
  static func append(_ s: String, to out: inout [UInt8]) {
    var s = s
    s.withUTF8 { appendText($0, to: &out) }
  }

  /// Appends UTF-8 text as a literal (see ``append(_:to:)-(String,_)``).
  static func appendText(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    if utf8.contains(where: { $0 == 0 || $0 == 0x0D }) {
      out.append(contentsOf: "CAST(".utf8)
      appendBlob(utf8, to: &out)
      out.append(contentsOf: " AS TEXT)".utf8)
      return
    }
    out.append(UInt8(ascii: "'"))
    var runStart = 0
    for i in 0..<utf8.count where utf8[i] == UInt8(ascii: "'") {
      out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...i]))
      out.append(UInt8(ascii: "'"))
      runStart = i + 1
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    out.append(UInt8(ascii: "'"))
  }

  /// Appends text that is known to need no escaping (hex digits, ISO dates, decimals).
  static func appendPlainText(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "'"))
    out.append(contentsOf: bytes)
    out.append(UInt8(ascii: "'"))
  }

  /// Appends a blob literal `X'0a1b…'`.
  static func appendBlob(_ bytes: [UInt8], to out: inout [UInt8]) {
    bytes.withUnsafeBufferPointer { appendBlob($0, to: &out) }
  }

  /// The two hex digits of each byte value, as they lie in memory.
  private static let hexPairs: [UInt16] = (0..<256).map { b in
    UInt16(hexDigit(UInt8(b) >> 4)) | UInt16(hexDigit(UInt8(b) & 0xF)) << 8
  }

  /// Appends a blob literal `X'0a1b…'`.
  static func appendBlob(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    let start = out.count
    out.append(contentsOf: repeatElement(UInt8(ascii: "'"), count: 3 + 2 * bytes.count))
    out.withUnsafeMutableBufferPointer { o in
      o[start] = UInt8(ascii: "X")
      guard let base = o.baseAddress, !bytes.isEmpty else { return }
      let digits = UnsafeMutableRawPointer(base + start + 2)
      hexPairs.withUnsafeBufferPointer { pairs in
        for (i, b) in bytes.enumerated() {
          digits.storeBytes(of: pairs[Int(b)].littleEndian, toByteOffset: 2 * i, as: UInt16.self)
        }
      }
    }
  }

  /// Appends a decimal128 as quoted text (`'1.5'`, `'-0'`, `'NaN'`, `'Inf'`, `'1E+400'`).
  static func append(_ d: Decimal128, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "'"))
    d.appendText(to: &out)
    out.append(UInt8(ascii: "'"))
  }

  /// Appends an ObjectId as quoted lowercase hex.
  static func append(_ id: ObjectId, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "'"))
    HexText.append(id, to: &out)
    out.append(UInt8(ascii: "'"))
  }

  /// Appends a UUID as quoted lowercase `8-4-4-4-12`.
  static func append(_ id: RealmUUID, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "'"))
    HexText.append(id, to: &out)
    out.append(UInt8(ascii: "'"))
  }

  /// Appends a date as quoted ISO 8601 text (see ``SQLDateText``).
  static func append(_ t: Timestamp, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "'"))
    SQLDateText.append(t, to: &out)
    out.append(UInt8(ascii: "'"))
  }
}

/// Dates as SQLite's date and time functions read them: `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`, UTC,
/// proleptic Gregorian calendar, always nine fraction digits (SQLite's functions use the first
/// three; the text keeps Realm's nanoseconds, and sorts in time order).
///
/// SQLite's functions cover years 0000-9999. Realm dates outside them are written in ISO 8601's
/// expanded form, a sign and at least four year digits (`-0001-12-31T23:59:59.000000000Z`,
/// `+10000-01-01T00:00:00.000000000Z`): exact, but SQLite's functions return NULL for them and
/// they do not sort with the others.
enum SQLDateText {
  /// Appends the text form of `t`, without quotes.
  static func append(_ t: Timestamp, to out: inout [UInt8]) {
    // Floor the instant to a whole second and a non-negative nanosecond part. Realm's
    // nanoseconds carry the sign of the seconds; Int128 keeps Int64.min - 1 exact.
    var second = Int128(t.seconds)
    var nanos = Int64(t.nanoseconds)
    if nanos < 0 {
      second -= 1
      nanos += 1_000_000_000
    }
    var days = second / 86_400
    var secondOfDay = second % 86_400
    if secondOfDay < 0 {
      secondOfDay += 86_400
      days -= 1
    }
    let (year, month, day) = Timestamp.civilDate(daysSinceEpoch: Int64(days))
    if year < 0 {
      out.append(UInt8(ascii: "-"))
    } else if year > 9999 {
      out.append(UInt8(ascii: "+"))
    }
    put(year.magnitude, width: 4, to: &out)
    out.append(UInt8(ascii: "-"))
    put(UInt64(month), width: 2, to: &out)
    out.append(UInt8(ascii: "-"))
    put(UInt64(day), width: 2, to: &out)
    out.append(UInt8(ascii: "T"))
    let s = UInt64(secondOfDay)
    put(s / 3600, width: 2, to: &out)
    out.append(UInt8(ascii: ":"))
    put(s / 60 % 60, width: 2, to: &out)
    out.append(UInt8(ascii: ":"))
    put(s % 60, width: 2, to: &out)
    out.append(UInt8(ascii: "."))
    put(UInt64(nanos), width: 9, to: &out)
    out.append(UInt8(ascii: "Z"))
  }

  /// Appends `v` (below 10^18) in decimal with at least `width` digits.
  private static func put(_ v: UInt64, width: Int, to out: inout [UInt8]) {
    var divisor: UInt64 = 1
    var digits = 1
    while digits < width || v / divisor >= 10 {
      divisor *= 10
      digits += 1
    }
    while divisor > 0 {
      out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: v / divisor % 10))
      divisor /= 10
    }
  }
}
