import RealmModel

/// Text forms of values: `string(x)` and the quoted values in error messages.
package enum ValueText {
  /// The text `string(x)` gives; nil for values with no text form (links, objects,
  /// collections, data that is not UTF-8).
  static func string(_ v: RealmValue) -> String? {
    switch v {
    case .null: return nil
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return decimal(i)
    case .float(let f): return f.description
    case .double(let d): return d.description
    case .decimal128(let d): return DecimalValue(d).text
    case .objectId(let o): return hex(o.bytes)
    case .uuid(let u):
      let h = Array(hex(u.bytes))
      return String(h[0..<8]) + "-" + String(h[8..<12]) + "-" + String(h[12..<16]) + "-"
        + String(h[16..<20]) + "-" + String(h[20..<32])
    case .string(let s): return s
    case .data(let bytes): return String(validating: bytes, as: UTF8.self)
    case .date(let t): return DateText.format(t)
    case .link, .embedded, .list, .set, .dictionary: return nil
    }
  }

  /// The decimal text of an integer, written straight into the string's storage (the
  /// generic `String(_:)` goes through string interpolation).
  static func decimal(_ i: Int64) -> String {
    String(unsafeUninitializedCapacity: 20) { buffer in
      var n = i.magnitude
      var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
      var count = 0
      withUnsafeMutableBytes(of: &digits) { raw in
        repeat {
          raw[23 - count] = 0x30 &+ UInt8(truncatingIfNeeded: n % 10)
          n /= 10
          count += 1
        } while n > 0
        var at = 0
        if i < 0 {
          buffer[0] = UInt8(ascii: "-")
          at = 1
        }
        for k in 0..<count { buffer[at + k] = raw[24 - count + k] }
      }
      return count + (i < 0 ? 1 : 0)
    }
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for b in bytes {
      out.append(digits[Int(b >> 4)])
      out.append(digits[Int(b & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A short rendering for messages: strings quoted and cut at 40 characters.
  package static func describe(_ v: RealmValue) -> String {
    switch v {
    case .null: return "null"
    case .string(let s):
      let cut = s.count > 40 ? String(s.prefix(40)) + "..." : s
      return "'\(cut)'"
    case .data(let b): return "data of \(b.count) bytes"
    case .link(let l): return "link to \(l.className) \(l.key)"
    case .embedded(let e): return "embedded \(e.className)"
    case .list(let l): return "list of \(l.count)"
    case .set(let s): return "set of \(s.count)"
    case .dictionary(let d): return "dictionary of \(d.count)"
    default: return "'\(string(v) ?? "")'"
    }
  }

  /// The dynamic type name of a value, for messages (`RealmValue.typeName`).
  static func typeName(_ v: RealmValue) -> String { v.typeName }
}
