/// Text forms of values: `string(x)` and the quoted values in error messages.
enum ValueText {
  /// The text `string(x)` gives; nil for values with no text form (links, objects,
  /// collections, data that is not UTF-8).
  static func string(_ v: RealmValue) -> String? {
    switch v {
    case .null: return nil
    case .bool(let b): return b ? "true" : "false"
    case .int(let i): return String(i)
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
  static func describe(_ v: RealmValue) -> String {
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

  /// The dynamic type name of a value, for messages.
  static func typeName(_ v: RealmValue) -> String {
    switch v {
    case .null: return "null"
    case .bool: return "bool"
    case .int: return "int"
    case .float: return "float"
    case .double: return "double"
    case .decimal128: return "decimal128"
    case .objectId: return "objectId"
    case .uuid: return "uuid"
    case .string: return "string"
    case .data: return "data"
    case .date: return "date"
    case .link(let l): return l.className
    case .embedded(let e): return e.className
    case .list: return "list"
    case .set: return "set"
    case .dictionary: return "dictionary"
    }
  }
}
