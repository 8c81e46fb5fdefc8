/// Short human descriptions of values for error messages and reports.
public enum ValueText {
  /// A short description: strings quoted, numbers as written, other types by kind.
  public static func describe(_ v: RealmValue) -> String {
    switch v {
    case .null: return "null"
    case .bool(let b): return String(b)
    case .int(let i): return String(i)
    case .float(let f): return String(f)
    case .double(let d): return String(d)
    case .string(let s): return "'" + (s.count > 60 ? String(s.prefix(57)) + "..." : s) + "'"
    case .objectId(let o): return "ObjectId('\(o.bytes.map { hex($0) }.joined())')"
    case .uuid(let u): return "UUID('\(u.bytes.map { hex($0) }.joined())')"
    case .decimal128: return "a decimal128"
    case .data(let d): return "\(d.count) bytes of data"
    case .date(let t): return "a date (\(t.seconds) s)"
    case .link(let l): return "\(l.className)(key \(l.key))"
    case .embedded(let e): return "an embedded \(e.className)"
    case .list(let l): return "a list of \(l.count)"
    case .set(let s): return "a set of \(s.count)"
    case .dictionary(let d): return "a dictionary of \(d.count)"
    }
  }

  /// The kind of a value, in the plan's type vocabulary.
  public static func kind(_ v: RealmValue) -> String {
    switch v {
    case .null: return "null"
    case .bool: return "bool"
    case .int: return "int"
    case .float: return "float"
    case .double: return "double"
    case .string: return "string"
    case .objectId: return "objectId"
    case .uuid: return "uuid"
    case .decimal128: return "decimal128"
    case .data: return "data"
    case .date: return "date"
    case .link(let l): return l.className
    case .embedded(let e): return e.className
    case .list: return "list"
    case .set: return "set"
    case .dictionary: return "dictionary"
    }
  }

  static func hex(_ b: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
  }
}
