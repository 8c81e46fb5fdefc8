import RealmFormat
import RealmModel

/// A value as Realm's query engine compares it: Realm's `Mixed` plus the `@type` attribute set.
///
/// Links come in two kinds, as in Realm: an object key read from a link property (whose
/// target class is known from the schema) and a typed link read from a `mixed` value; the two
/// never compare equal.
enum QueryValue: Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case float(Float)
  case double(Double)
  case decimal(Decimal128)
  case string(String)
  case binary([UInt8])
  case timestamp(Timestamp)
  case objectId(ObjectId)
  case uuid(RealmUUID)
  /// An object key of a link property (class known from the property).
  case objectKey(ObjectLink)
  /// A link held by a `mixed` value.
  case typedLink(ObjectLink)
  /// `@type` attributes (``TypeOfValue``).
  case typeOf(Int64)
  /// A list or dictionary nested in a `mixed` value (compares by kind only, as in Realm).
  case collection(RealmValue)

  var isNull: Bool { if case .null = self { return true } else { return false } }

  /// The value's Realm data type.
  var dataType: QueryType {
    switch self {
    case .null: return .null
    case .bool: return .bool
    case .int: return .int
    case .float: return .float
    case .double: return .double
    case .decimal: return .decimal
    case .string: return .string
    case .binary: return .binary
    case .timestamp: return .timestamp
    case .objectId: return .objectId
    case .uuid: return .uuid
    case .objectKey: return .link
    case .typedLink: return .typedLink
    case .typeOf: return .typeOfValue
    case .collection(let v):
      if case .dictionary = v { return .dictionary }
      return .list
    }
  }

  /// A value read from a `mixed` property or a collection of `mixed` (links are typed links,
  /// nested collections stay collections).
  static func mixed(_ v: RealmValue) -> QueryValue {
    switch v {
    case .link(let l): return .typedLink(l)
    case .embedded(let e): return .typedLink(ObjectLink(className: e.className, key: e.key))
    case .list, .set, .dictionary: return .collection(v)
    default: return scalar(v)
    }
  }

  /// A value read from a typed property (links are object keys of the property's target).
  static func scalar(_ v: RealmValue) -> QueryValue {
    switch v {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .int(let i): return .int(i)
    case .float(let f): return .float(f)
    case .double(let d): return .double(d)
    case .decimal128(let d): return d.isRealmNull ? .null : .decimal(d)
    case .string(let s): return .string(s)
    case .data(let d): return .binary(d)
    case .date(let t): return .timestamp(t)
    case .objectId(let o): return .objectId(o)
    case .uuid(let u): return .uuid(u)
    case .link(let l): return .objectKey(l)
    case .embedded(let e): return .objectKey(ObjectLink(className: e.className, key: e.key))
    case .list, .set, .dictionary: return .collection(v)
    }
  }
}

/// Realm's data types as its query parser reasons with them (`DataType`). Its raw value is the
/// case's name: a stored scalar type has the name of its `ValueKind`.
enum QueryType: String, Sendable, Equatable, CustomStringConvertible {
  case int, bool, string, binary, timestamp, float, double, decimal, objectId, uuid, mixed
  case link, typedLink, typeOfValue, list, dictionary
  /// The type of the `null` literal (Realm's invalid type).
  case null

  /// True for the types stored in a column leaf of their own (`ValueKind`'s scalar kinds).
  var isStoredScalar: Bool {
    switch self {
    case .int, .bool, .string, .binary, .timestamp, .float, .double, .decimal, .objectId, .uuid, .mixed: return true
    case .link, .typedLink, .typeOfValue, .list, .dictionary, .null: return false
    }
  }

  var isNumeric: Bool {
    switch self {
    case .int, .float, .double, .decimal, .mixed: return true
    default: return false
    }
  }

  /// Realm's name of the type in messages.
  var description: String {
    switch self {
    case .int: return "int"
    case .bool: return "bool"
    case .string: return "string"
    case .binary: return "binary"
    case .timestamp: return "timestamp"
    case .float: return "float"
    case .double: return "double"
    case .decimal: return "decimal128"
    case .objectId: return "objectId"
    case .uuid: return "uuid"
    case .mixed: return "mixed"
    case .link: return "link"
    case .typedLink: return "typedLink"
    case .typeOfValue: return "@type"
    case .list: return "list"
    case .dictionary: return "dictionary"
    case .null: return "null"
    }
  }

  /// `Mixed::data_types_are_comparable`.
  static func areComparable(_ a: QueryType, _ b: QueryType) -> Bool {
    if a == b { return true }
    if a.isNumeric && b.isNumeric { return true }
    return a == .mixed || b == .mixed
  }
}

/// Realm's ordering and equality of values (`Mixed::compare`).
enum ValueOrder {
  /// Realm's rank of each type when values of unrelated types are ordered.
  private static func rank(_ v: QueryValue) -> Int {
    switch v {
    case .null: return -1
    case .bool: return 0
    case .int, .float, .double, .decimal: return 1
    case .string: return 2
    case .binary: return 3
    case .timestamp: return 4
    case .objectId: return 5
    case .uuid: return 6
    case .typedLink: return 7
    case .objectKey, .typeOf: return 8
    case .collection(let c):
      switch c {
      case .dictionary: return 11
      case .set: return 10
      default: return 9
      }
    }
  }

  /// -1, 0 or 1. Null is below everything; numbers compare by value across int, float,
  /// double and decimal128 (NaN below every number); unrelated types by a fixed rank.
  static func compare(_ a: QueryValue, _ b: QueryValue) -> Int {
    switch (a, b) {
    case (.null, .null): return 0
    case (.null, _): return -1
    case (_, .null): return 1
    case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
    case (.int(let x), .int(let y)): return x == y ? 0 : (x < y ? -1 : 1)
    case (.int(let x), .float(let y)): return longToDouble(x, Double(y))
    case (.int(let x), .double(let y)): return longToDouble(x, y)
    case (.int(let x), .decimal(let y)): return DecimalMath.from(x).compareNumerically(to: y)
    case (.float(let x), .int(let y)): return -longToDouble(y, Double(x))
    case (.float(let x), .float(let y)): return floats(x, y)
    case (.float(let x), .double(let y)): return doubles(Double(x), y)
    case (.float(let x), .decimal(let y)): return DecimalMath.from(x).compareNumerically(to: y)
    case (.double(let x), .int(let y)): return -longToDouble(y, x)
    case (.double(let x), .float(let y)): return doubles(x, Double(y))
    case (.double(let x), .double(let y)): return doubles(x, y)
    case (.double(let x), .decimal(let y)): return DecimalMath.from(x).compareNumerically(to: y)
    case (.decimal(let x), .int(let y)): return x.compareNumerically(to: DecimalMath.from(y))
    case (.decimal(let x), .float(let y)): return x.compareNumerically(to: DecimalMath.from(y))
    case (.decimal(let x), .double(let y)): return x.compareNumerically(to: DecimalMath.from(y))
    case (.decimal(let x), .decimal(let y)): return x.compareNumerically(to: y)
    case (.string(let x), .string(let y)): return ByteOrder.compare(x.utf8, y.utf8)
    case (.binary(let x), .binary(let y)): return ByteOrder.compare(x, y)
    case (.timestamp(let x), .timestamp(let y)): return timestamps(x, y)
    case (.objectId(let x), .objectId(let y)): return x == y ? 0 : (x < y ? -1 : 1)
    case (.uuid(let x), .uuid(let y)): return x == y ? 0 : (x < y ? -1 : 1)
    case (.objectKey(let x), .objectKey(let y)): return x.key == y.key ? 0 : (x.key < y.key ? -1 : 1)
    case (.typedLink(let x), .typedLink(let y)):
      if x.className != y.className { return ByteOrder.compare(x.className.utf8, y.className.utf8) }
      return x.key == y.key ? 0 : (x.key < y.key ? -1 : 1)
    case (.typeOf(let x), .typeOf(let y)):
      if x & y != 0 { return 0 }
      return x < y ? -1 : 1
    case (.collection, .collection):
      let ra = rank(a)
      let rb = rank(b)
      return ra == rb ? 0 : (ra < rb ? -1 : 1)
    default:
      let ra = rank(a)
      let rb = rank(b)
      if ra == rb { return 0 }
      return ra < rb ? -1 : 1
    }
  }

  /// `Mixed::types_are_comparable` of two values.
  static func comparable(_ a: QueryValue, _ b: QueryValue) -> Bool {
    let ta = a.dataType
    let tb = b.dataType
    if ta == .null || tb == .null { return false }
    if ta == tb { return true }
    return QueryType.areComparable(ta, tb)
  }

  /// Timestamps order by seconds, then nanoseconds.
  static func timestamps(_ x: Timestamp, _ y: Timestamp) -> Int {
    if x.seconds != y.seconds { return x.seconds < y.seconds ? -1 : 1 }
    if x.nanoseconds != y.nanoseconds { return x.nanoseconds < y.nanoseconds ? -1 : 1 }
    return 0
  }

  /// Floats: IEEE order, NaN below every number, NaNs among themselves by their bits.
  static func floats(_ x: Float, _ y: Float) -> Int { floatingPoint(x, y, bits: \.bitPattern) }

  /// Doubles, as ``floats(_:_:)``.
  static func doubles(_ x: Double, _ y: Double) -> Int { floatingPoint(x, y, bits: \.bitPattern) }

  /// IEEE order, NaN below every number, NaNs among themselves by their `bits`.
  @inline(__always)
  private static func floatingPoint<F: FloatingPoint, Bits: Comparable>(_ x: F, _ y: F, bits: (F) -> Bits) -> Int {
    if !x.isNaN && !y.isNaN { return x == y ? 0 : (x < y ? -1 : 1) }
    if x.isNaN && y.isNaN {
      let a = bits(x)
      let b = bits(y)
      return a == b ? 0 : (a < b ? -1 : 1)
    }
    return x.isNaN ? -1 : 1
  }

  /// An integer with a double, exactly (no rounding of large integers); NaN is below all.
  static func longToDouble(_ x: Int64, _ y: Double) -> Int {
    if y.isNaN { return 1 }
    let precise: Int64 = 1 << 53
    if x <= precise && x >= -precise { return doubles(Double(x), y) }
    if y >= 9_223_372_036_854_775_808.0 { return -1 }
    if y < -9_223_372_036_854_775_808.0 { return 1 }
    let t = Int64(y)
    return x == t ? 0 : (x < t ? -1 : 1)
  }
}

/// The `@type` attribute sets of Realm (`TypeOfValue`): names, and the set of a value.
enum TypeOfValue {
  static let null: Int64 = 0x0001
  static let int: Int64 = 0x0002
  static let double: Int64 = 0x0004
  static let float: Int64 = 0x0008
  static let bool: Int64 = 0x0010
  static let timestamp: Int64 = 0x0020
  static let string: Int64 = 0x0040
  static let binary: Int64 = 0x0080
  static let uuid: Int64 = 0x0100
  static let objectId: Int64 = 0x0200
  static let decimal: Int64 = 0x0400
  static let objectLink: Int64 = 0x0800
  static let object: Int64 = 0x1000
  static let array: Int64 = 0x2000

  /// The names Realm accepts (case-insensitively) after `@type ==`.
  static let names: [(String, Int64)] = [
    ("null", null), ("int", int), ("integer", int), ("int16", int), ("int32", int), ("int64", int),
    ("short", int), ("long", int), ("byte", int), ("char", int), ("bool", bool), ("boolean", bool),
    ("string", string), ("binary", binary), ("data", binary), ("bytearray", binary), ("byte[]", binary),
    ("date", timestamp), ("datetimeoffset", timestamp), ("timestamp", timestamp), ("float", float),
    ("double", double), ("decimal128", decimal), ("decimal", decimal), ("objectlink", objectLink),
    ("link", objectLink), ("objectid", objectId), ("uuid", uuid), ("guid", uuid),
    ("numeric", int | double | float | decimal), ("bindata", binary), ("object", object),
    ("dictionary", object), ("array", array), ("list", array), ("collection", array | object),
  ]

  /// The attributes named by `text` (any case), nil for an unknown name.
  static func parse(_ text: String) -> Int64? {
    let lower = String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    return names.first { $0.0 == lower }?.1
  }

  /// The attributes of a value's type.
  static func of(_ v: QueryValue) -> Int64 {
    switch v {
    case .null: return null
    case .bool: return bool
    case .int: return int
    case .float: return float
    case .double: return double
    case .decimal: return decimal
    case .string: return string
    case .binary: return binary
    case .timestamp: return timestamp
    case .objectId: return objectId
    case .uuid: return uuid
    case .objectKey, .typedLink: return objectLink
    case .typeOf(let t): return t
    case .collection(let c):
      if case .dictionary = c { return object }
      return array
    }
  }

  /// The attributes of a typed property's values.
  static func of(_ type: QueryType) -> Int64? {
    switch type {
    case .int: return int
    case .bool: return bool
    case .string: return string
    case .binary: return binary
    case .timestamp: return timestamp
    case .float: return float
    case .double: return double
    case .decimal: return decimal
    case .link, .typedLink: return objectLink
    case .objectId: return objectId
    case .uuid: return uuid
    case .dictionary: return object
    case .list: return array
    default: return nil
    }
  }
}
