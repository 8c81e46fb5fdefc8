import RealmFormat
import RealmModel

/// Realm's literals: their values, and the conversions Realm applies to a literal compared
/// with a property of another type (`int_prop == '42'` compares with 42, `float_prop == 1.1`
/// with the float nearest to 1.1, `decimal_prop == 0.1` with the decimal 0.1 exactly).
enum QueryConstants {
  typealias Located = QueryError.Located

  /// Looks up objects by primary key and table keys for `obj(...)` and `L1:2` literals.
  struct Lookup {
    var classOfTableKey: (Int64) -> String?
    var objectKey: (String, RealmValue) throws -> Int64?
  }

  /// The value a literal denotes, before any conversion.
  static func value(of c: QuerySyntax.Constant, schema: QuerySchema, lookup: Lookup?) throws(Located) -> QueryValue {
    let text = c.text
    var v: QueryValue
    switch c.kind {
    case .number: v = .int(CNumber.strtoll(text))
    case .float:
      if text.hasSuffix("f") {
        v = .float(Float(String(text.dropLast())) ?? 0)
      } else {
        v = .double(Double(text) ?? 0)
      }
    case .infinity: v = .double(text.hasPrefix("-") ? -.infinity : .infinity)
    case .nan: v = .double(Double(bitPattern: 0x7FF8_0000_0000_0000))
    case .string: v = .string(String(text.dropFirst().dropLast()))
    case .base64String:
      guard let bytes = base64(String(text.dropFirst(4).dropLast())) else { throw .init(c.offset, "invalid base64 value \(text)") }
      v = .string(String(decoding: bytes, as: UTF8.self))
    case .binaryString: v = .binary(Array(text.utf8.dropFirst().dropLast()))
    case .binaryBase64:
      guard let bytes = base64(String(text.dropFirst(4).dropLast())) else { throw .init(c.offset, "invalid base64 value \(text)") }
      v = .binary(bytes)
    case .timestamp: v = .timestamp(try timestamp(text, offset: c.offset))
    case .uuid:
      guard let u = uuid(String(text.dropFirst(5).dropLast())) else { throw .init(c.offset, "invalid UUID \(text)") }
      v = .uuid(u)
    case .objectId:
      guard let bytes = hexBytes(String(text.dropFirst(4).dropLast())), let o = ObjectId(bytes: bytes) else {
        throw .init(c.offset, "invalid ObjectId \(text)")
      }
      v = .objectId(o)
    case .link: v = .objectKey(ObjectLink(className: "", key: CNumber.strtoll(String(text.dropFirst()))))
    case .typedLink:
      let parts = text.dropFirst().split(separator: ":", maxSplits: 1).map(String.init)
      let table = Int64(UInt32(truncatingIfNeeded: CNumber.strtoll(parts[0])))
      let key = CNumber.strtoll(parts.count > 1 ? parts[1] : "0")
      guard let name = lookup?.classOfTableKey(table) else {
        throw .init(c.offset, "the typed link \(text) names table key \(table), which this file does not have")
      }
      v = .typedLink(ObjectLink(className: name, key: key))
    case .null: v = .null
    case .trueValue: v = .bool(true)
    case .falseValue: v = .bool(false)
    case .argument: throw argumentError(text, c.offset)
    }
    if let cls = c.objectClass {
      guard let ci = schema.classIndex(cls) ?? schema.classIndex(cls.hasPrefix("class_") ? String(cls.dropFirst(6)) : "") else {
        throw .init(c.offset, "unknown object type '\(cls)' in obj(...)")
      }
      let name = schema.classes[ci].name
      guard let lookup else { throw .init(c.offset, "obj('\(name)', ...) needs the file to find the object") }
      let key: Int64?
      do {
        key = try lookup.objectKey(name, realmValue(v))
      } catch {
        throw .init(c.offset, "looking up obj('\(name)', ...) failed: \(error)")
      }
      v = key.map { .typedLink(ObjectLink(className: name, key: $0)) } ?? .null
    }
    return v
  }

  static func argumentError(_ text: String, _ offset: Int) -> Located {
    let digits = text.drop { !$0.isNumber }
    return .init(offset, "Request for argument at index \(digits) but no arguments are provided (write the value itself instead of \(text))")
  }

  /// A literal as Realm converts it for a comparison with a value of type `hint`.
  static func convert(_ value: QueryValue, hint: QueryType, constant c: QuerySyntax.Constant) throws(Located) -> QueryValue {
    switch value {
    case .int(let i):
      if hint == .decimal { return .decimal(DecimalMath.from(i)) }
    case .double(let d):
      if d.isInfinite && (!hint.isNumeric || hint == .int) {
        throw .init(c.offset, "Infinity not supported for \(hint)")
      }
      switch hint {
      case .float: return .float(Float(d))
      case .decimal: return .decimal(DecimalMath.parse(c.text))
      case .int: if let i = Int64(exactly: d) { return .int(i) }
      default: break
      }
    case .float(let f):
      if hint == .int {
        if f.isInfinite { throw .init(c.offset, "Infinity not supported for int") }
        if f.isNaN { throw .init(c.offset, "NaN not supported for int") }
        if let i = Int64(exactly: f) { return .int(i) }
      }
    case .string(let s):
      switch hint {
      case .int: if let i = CNumber.streamInteger(s) { return .int(i) }
      case .float: if let f = CNumber.streamFloat(s) { return .float(f) }
      case .double: if let d = CNumber.streamDouble(s) { return .double(d) }
      case .decimal: if let d = Decimal128(text: s), !d.isNaN { return .decimal(d) }
      default: break
      }
    default: break
    }
    return value
  }

  /// The stored form of a literal (for primary key lookups).
  static func realmValue(_ v: QueryValue) -> RealmValue {
    switch v {
    case .int(let i): return .int(i)
    case .string(let s): return .string(s)
    case .uuid(let u): return .uuid(u)
    case .objectId(let o): return .objectId(o)
    default: return .null
    }
  }

  // MARK: - Literal forms

  /// `T<seconds>:<nanoseconds>` (numbers read as `strtol` does, a leading 0 meaning octal)
  /// or `YYYY-MM-DD@HH:MM:SS[:NANOS]` (also with `T`; decimal fields, as `sscanf`'s `%d`), UTC. As Realm (on 64-bit Linux and macOS),
  /// the readable form is computed as 32-bit seconds: dates after 2038-01-19 and before
  /// 1901-12-13 wrap around; years before 1900 are refused.
  static func timestamp(_ text: String, offset: Int) throws(Located) -> Timestamp {
    var seconds: Int64
    var nanoseconds: Int32
    if text.hasPrefix("T") {
      let parts = text.dropFirst().split(separator: ":", maxSplits: 1).map(String.init)
      seconds = CNumber.strtoll(parts[0])
      nanoseconds = Int32(truncatingIfNeeded: CNumber.strtoll(parts.count > 1 ? parts[1] : "0"))
    } else {
      let separator: Character = text.contains("@") ? "@" : "T"
      var fields: [Int32] = []
      var current = ""
      for ch in text {
        if ch == "-" || ch == ":" || ch == separator {
          // sscanf's %d: decimal, a leading 0 is no octal prefix (08 is 8).
          fields.append(Int32(truncatingIfNeeded: CNumber.strtoll(current, base: 10)))
          current = ""
        } else {
          current.append(ch)
        }
      }
      fields.append(Int32(truncatingIfNeeded: CNumber.strtoll(current, base: 10)))
      guard fields.count >= 6 else { throw .init(offset, "invalid date \(text)") }
      let year = Int64(fields[0]) - 1900
      if year < 0 {
        throw .init(offset, "Conversion of dates before 1900 is not supported (\(text)); write T<seconds>:<nanoseconds>")
      }
      seconds = Int64(Int32(truncatingIfNeeded: timegm(
        year: year, month: Int64(fields[1]) - 1, day: Int64(fields[2]), hour: Int64(fields[3]),
        minute: Int64(fields[4]), second: Int64(fields[5]))))
      nanoseconds = fields.count > 6 ? fields[6] : 0
      if nanoseconds < 0 { throw .init(offset, "The nanoseconds of a Timestamp cannot be negative (\(text))") }
      if seconds < 0 { nanoseconds = -nanoseconds }
    }
    guard (seconds >= 0 && nanoseconds >= 0) || (seconds <= 0 && nanoseconds <= 0) else {
      throw .init(offset, "Invalid timestamp format \(text): seconds and nanoseconds must have the same sign")
    }
    return Timestamp(seconds: seconds, nanoseconds: nanoseconds)
  }

  /// Seconds since 1970 of a broken-down UTC time whose fields may be out of range (they
  /// carry over, as `timegm` does); `year` counts from 1900, `month` from 0.
  static func timegm(year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64) -> Int64 {
    let monthFloor = month >= 0 ? month / 12 : (month - 11) / 12
    let y = 1900 + year + monthFloor
    let m = month - monthFloor * 12 + 1
    // Days from 1970-01-01 to y-m-01 (proleptic Gregorian).
    let yy = m <= 2 ? y - 1 : y
    let era = (yy >= 0 ? yy : yy - 399) / 400
    let yoe = yy - era * 400
    let mp = (m + 9) % 12
    let doy = (153 * mp + 2) / 5
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146_097 + doe - 719_468 + (day - 1)
    return days &* 86_400 &+ hour &* 3_600 &+ minute &* 60 &+ second
  }

  /// Realm's base64 decoding (padding optional, `=` only at the end); nil when invalid.
  static func base64(_ text: String) -> [UInt8]? {
    var out: [UInt8] = []
    var buffer: UInt32 = 0
    var bufferSize = 0
    var trailingEquals = 0
    let input = Array(text.utf8)
    for c in input {
      let x: UInt32
      switch c {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): x = UInt32(c - 0x41)
      case UInt8(ascii: "a")...UInt8(ascii: "z"): x = UInt32(c - 0x61 + 26)
      case UInt8(ascii: "0")...UInt8(ascii: "9"): x = UInt32(c - 0x30 + 52)
      case UInt8(ascii: "+"): x = 62
      case UInt8(ascii: "/"): x = 63
      case UInt8(ascii: "="):
        trailingEquals += 1
        continue
      default: return nil
      }
      if trailingEquals > 0 { return nil }
      buffer = buffer << 6 | x
      bufferSize += 1
      if bufferSize == 4 {
        out.append(UInt8(truncatingIfNeeded: buffer >> 16))
        out.append(UInt8(truncatingIfNeeded: buffer >> 8))
        out.append(UInt8(truncatingIfNeeded: buffer))
        buffer = 0
        bufferSize = 0
      }
    }
    let extra = input.count % 4
    if trailingEquals == 0 && extra > 1 { trailingEquals = 4 - extra }
    switch trailingEquals {
    case 0: if bufferSize != 0 { return nil }
    case 1:
      out.append(UInt8(truncatingIfNeeded: buffer >> 10))
      out.append(UInt8(truncatingIfNeeded: buffer >> 2))
    case 2:
      out.append(UInt8(truncatingIfNeeded: buffer >> 4))
    default: return nil
    }
    return out
  }

  static func hexBytes(_ text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var out: [UInt8] = []
    var i = 0
    while i < digits.count {
      guard let hi = HexDigit.value(digits[i]), let lo = HexDigit.value(digits[i + 1]) else { return nil }
      out.append(hi << 4 | lo)
      i += 2
    }
    return out
  }

  static func uuid(_ text: String) -> RealmUUID? {
    guard let bytes = hexBytes(String(text.filter { $0 != "-" })), bytes.count == 16 else { return nil }
    return RealmUUID(bytes: bytes)
  }
}

extension CNumber {
  /// What `std::istringstream >> float` reads (see ``streamDouble(_:)``).
  static func streamFloat(_ text: String) -> Float? {
    guard let d = streamDouble(text) else { return nil }
    if d.isNaN || d.isInfinite { return Float(d) }
    return Float(numberPrefix(text) ?? "") ?? Float(d)
  }

  /// The decimal number at the start of `text` (after white space), as text.
  static func numberPrefix(_ text: String) -> String? {
    let b = Array(text.utf8)
    var i = 0
    while i < b.count, b[i] == 0x20 || (b[i] >= 0x09 && b[i] <= 0x0D) { i += 1 }
    let start = i
    if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
    var digits = 0
    while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1; digits += 1 }
    if i < b.count, b[i] == UInt8(ascii: ".") {
      i += 1
      while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1; digits += 1 }
    }
    guard digits > 0 else { return nil }
    var end = i
    if i < b.count, b[i] | 0x20 == UInt8(ascii: "e") {
      var j = i + 1
      if j < b.count, b[j] == UInt8(ascii: "+") || b[j] == UInt8(ascii: "-") { j += 1 }
      var e = 0
      while j < b.count, b[j] >= 0x30, b[j] <= 0x39 { j += 1; e += 1 }
      if e > 0 { end = j }
    }
    return String(decoding: b[start..<end], as: UTF8.self)
  }
}
