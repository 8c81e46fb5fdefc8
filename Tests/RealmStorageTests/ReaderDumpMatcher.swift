import RealmFormat
import RealmModel
import RealmJSON

/// Compares values read from a file with Realm's own canonical dump (`dump.jsonl`, the
/// format of specs/dump-format.md) by meaning. Returns a description of the first difference.
enum ReaderDumpMatcher {
  /// Compares one object (a dump line) with the key and values read for it.
  static func mismatch(line: JSONValue, key: Int64, columns: [Column], values: [RealmValue]) -> String? {
    guard case .int(let k)? = line["$key"], k == key else {
      return "key \(key) vs \(String(describing: line["$key"]))"
    }
    guard case .object(let members) = line else { return "line is not an object" }
    let expectedNames = members.map(\.key).filter { !$0.hasPrefix("$") }
    let names = columns.map(\.name)
    guard Set(expectedNames) == Set(names) else { return "properties \(names) vs \(expectedNames)" }
    for (column, value) in zip(columns, values) {
      guard let expected = line[column.name] else { return "no '\(column.name)' in the dump" }
      if let m = mismatch(value, expected, path: column.name) { return m }
    }
    return nil
  }

  /// Compares a value with its JSON encoding.
  static func mismatch(_ v: RealmValue, _ j: JSONValue, path: String) -> String? {
    // The message is built only for a mismatch: describing every value read was most of
    // what the reader tests cost.
    var fail: String { "\(path): read \(v) but the dump has \(j)" }
    switch v {
    case .null: return j == .null ? nil : fail
    case .bool(let b): return j == .bool(b) ? nil : fail
    case .int(let i): return j == .int(i) ? nil : fail
    case .string(let s): return j == .string(s) ? nil : fail
    case .float(let f):
      let x = unwrap(j, "$float")
      guard let d = number(x) else { return fail }
      return same(Double(f), Double(Float(d))) ? nil : fail
    case .double(let d):
      let x = unwrap(j, "$double")
      guard let e = number(x) else { return fail }
      return same(d, e) ? nil : fail
    case .data(let bytes):
      guard case .string(let s)? = j["$binary"], let decoded = base64(s) else { return fail }
      return decoded == bytes ? nil : fail
    case .objectId(let id):
      guard case .string(let s)? = j["$oid"] else { return fail }
      return hex(id.bytes) == s ? nil : fail
    case .uuid(let id):
      guard case .string(let s)? = j["$uuid"] else { return fail }
      return hex(id.bytes) == s.filter { $0 != "-" } ? nil : fail
    case .date(let t):
      guard let nanos = dateNanos(j["$date"]) else { return fail }
      return Int128(t.seconds) * 1_000_000_000 + Int128(t.nanoseconds) == nanos ? nil : fail
    case .decimal128(let d):
      guard case .string(let s)? = j["$decimal"] else { return fail }
      return DecimalText.equal(d, s) ? nil : fail
    case .link(let l):
      guard j["$ref"] == .string(l.className), j["$key"] == .int(l.key) else { return fail }
      return nil
    case .embedded(let e):
      guard j["$class"] == .string(e.className), case .object(let members) = j else { return fail }
      guard members.count == e.properties.count + 1 else { return "\(path): embedded property count differs: \(e.properties.map(\.name)) vs \(members.map(\.key))" }
      for p in e.properties {
        guard let x = j[p.name] else { return "\(path).\(p.name) missing in the dump" }
        if let m = mismatch(p.value, x, path: path + "." + p.name) { return m }
      }
      return nil
    case .list(let items), .set(let items):
      guard case .array(let xs) = j, xs.count == items.count else { return "\(path): \(items.count) elements vs \(j)" }
      for (i, (a, b)) in zip(items, xs).enumerated() {
        if let m = mismatch(a, b, path: "\(path)[\(i)]") { return m }
      }
      return nil
    case .dictionary(let entries):
      guard case .object(let members) = j, members.count == entries.count else { return "\(path): \(entries.count) entries vs \(j)" }
      for (e, m) in zip(entries, members) {
        guard e.key == m.key else { return "\(path): key '\(e.key)' vs '\(m.key)'" }
        if let x = mismatch(e.value, m.value, path: "\(path)[\(e.key)]") { return x }
      }
      return nil
    }
  }

  private static func unwrap(_ j: JSONValue, _ tag: String) -> JSONValue { j[tag] ?? j }

  private static func number(_ j: JSONValue) -> Double? {
    switch j {
    case .int(let i): return Double(i)
    case .double(let d): return d
    case .string("NaN"): return .nan
    case .string("Infinity"): return .infinity
    case .string("-Infinity"): return -.infinity
    default: return nil
    }
  }

  private static func same(_ a: Double, _ b: Double) -> Bool {
    if a.isNaN { return b.isNaN }
    return a == b && a.sign == b.sign
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
  }

  static func base64(_ s: String) -> [UInt8]? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var table = [Int](repeating: -1, count: 256)
    for (i, c) in alphabet.enumerated() { table[Int(c)] = i }
    var out: [UInt8] = []
    var acc = 0
    var bits = 0
    for c in s.utf8 where c != UInt8(ascii: "=") {
      let v = table[Int(c)]
      guard v >= 0 else { return nil }
      acc = (acc << 6) | v
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8((acc >> bits) & 0xFF))
      }
    }
    return out
  }

  /// Total nanoseconds since the epoch of a `$date` value (ISO text or seconds form).
  static func dateNanos(_ j: JSONValue?) -> Int128? {
    if case .int(let s)? = j?["seconds"], case .int(let n)? = j?["nanoseconds"] {
      return Int128(s) * 1_000_000_000 + Int128(n)
    }
    guard case .string(let text)? = j else { return nil }
    let u = Array(text.utf8)
    // YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ
    guard u.count == 30 else { return nil }
    func num(_ a: Int, _ b: Int) -> Int? {
      var v = 0
      for c in u[a..<b] {
        guard c >= 48, c <= 57 else { return nil }
        v = v * 10 + Int(c - 48)
      }
      return v
    }
    guard let y = num(0, 4), let mo = num(5, 7), let d = num(8, 10), let h = num(11, 13),
      let mi = num(14, 16), let s = num(17, 19), let ns = num(20, 29)
    else { return nil }
    let days = daysFromCivil(y, mo, d)
    let secs = Int128(days) * 86400 + Int128(h * 3600 + mi * 60 + s)
    return secs * 1_000_000_000 + Int128(ns)
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date.
  static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }
}

/// Numeric comparison of BID128 words with decimal text, for tests only.
enum DecimalText {
  struct Value: Equatable {
    var negative: Bool
    var coefficient: UInt128
    var exponent: Int
    var special: String?  // "NaN", "Inf"
  }

  static func decode(_ d: Decimal128) -> Value {
    let hi = d.high
    let negative = hi >> 63 == 1
    if hi & 0x7C00_0000_0000_0000 == 0x7C00_0000_0000_0000 { return Value(negative: false, coefficient: 0, exponent: 0, special: "NaN") }
    if hi & 0x7800_0000_0000_0000 == 0x7800_0000_0000_0000 { return Value(negative: negative, coefficient: 0, exponent: 0, special: "Inf") }
    if (hi >> 61) & 3 == 3 {
      // Non-canonical: value 0.
      let exp = Int((hi >> 47) & 0x3FFF) - 6176
      return normalized(Value(negative: negative, coefficient: 0, exponent: exp))
    }
    let exp = Int((hi >> 49) & 0x3FFF) - 6176
    var coeff = (UInt128(hi & 0x1_FFFF_FFFF_FFFF) << 64) | UInt128(d.low)
    if coeff >= UInt128(10).power(34) { coeff = 0 }
    return normalized(Value(negative: negative, coefficient: coeff, exponent: exp))
  }

  static func parse(_ s: String) -> Value? {
    var t = Substring(s)
    var negative = false
    if t.first == "-" { negative = true; t = t.dropFirst() } else if t.first == "+" { t = t.dropFirst() }
    if t == "NaN" { return Value(negative: false, coefficient: 0, exponent: 0, special: "NaN") }
    if t == "Inf" || t == "Infinity" { return Value(negative: negative, coefficient: 0, exponent: 0, special: "Inf") }
    var exponent = 0
    if let e = t.firstIndex(where: { $0 == "E" || $0 == "e" }) {
      guard let x = Int(t[t.index(after: e)...]) else { return nil }
      exponent = x
      t = t[..<e]
    }
    var coeff: UInt128 = 0
    var seenPoint = false
    for c in t {
      if c == "." { seenPoint = true; continue }
      guard let digit = c.wholeNumberValue else { return nil }
      let (m, o1) = coeff.multipliedReportingOverflow(by: 10)
      let (a, o2) = m.addingReportingOverflow(UInt128(digit))
      guard !o1, !o2 else { return nil }
      coeff = a
      if seenPoint { exponent -= 1 }
    }
    return normalized(Value(negative: negative, coefficient: coeff, exponent: exponent))
  }

  static func normalized(_ v: Value) -> Value {
    var v = v
    if v.coefficient == 0 { return Value(negative: false, coefficient: 0, exponent: 0) }
    while v.coefficient % 10 == 0 {
      v.coefficient /= 10
      v.exponent += 1
    }
    return v
  }

  static func equal(_ d: Decimal128, _ s: String) -> Bool {
    guard let p = parse(s) else { return false }
    return decode(d) == p
  }
}

extension UInt128 {
  fileprivate func power(_ n: Int) -> UInt128 {
    var r: UInt128 = 1
    for _ in 0..<n { r *= self }
    return r
  }
}
