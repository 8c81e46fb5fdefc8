import RealmModel
/// Writes one leaf of a primitive element type from model values: the leaf of a cluster
/// column or of a list/set B+-tree (§6.1-6.8, §6.13 element leaf classes).
///
/// Numeric values are converted to the property's type when exact enough (an int for a
/// double property, a double for a float one); any other mismatch is an error naming the
/// expected and the found type.
public enum TypedLeafEncoder {
  /// Writes the leaf for `values` of element type `type` (not `.object`).
  ///
  /// `nullable` selects `ArrayIntNull` over `ArrayInteger` for ints (the only type whose
  /// leaf layout depends on it) and allows nulls. `tableKeys` maps class names to table
  /// keys, for links inside Mixed values.
  public static func leaf<S: NodeSink>(
    type: PropertyType, nullable: Bool, values: ArraySlice<RealmValue>,
    tableKeys: [String: Int64] = [:], format: WritableFileFormat = .current, into sink: inout S
  ) throws(FormatError) -> Ref {
    if !nullable && type != .mixed {
      for v in values where v.isNull { throw mismatch(type.rawValue, v) }
    }
    switch type {
    case .int: return try intLeaf(values, nullable: nullable, into: &sink)
    case .bool: return ScalarLeafEncoder.bools(try values.map(bool), into: &sink)
    case .float: return ScalarLeafEncoder.floats(try values.map(float), into: &sink)
    case .double: return ScalarLeafEncoder.doubles(try values.map(double), into: &sink)
    case .decimal128: return ScalarLeafEncoder.decimals(try values.map(decimal), into: &sink)
    case .objectId: return ScalarLeafEncoder.objectIds(try values.map(objectId), into: &sink)
    case .uuid: return ScalarLeafEncoder.uuids(try values.map(uuid), into: &sink)
    case .string: return try StringLeafEncoder.strings(try values.map(string), into: &sink)
    case .data: return try StringLeafEncoder.binaries(try values.map(data), into: &sink)
    case .date: return ScalarLeafEncoder.timestamps(try values.map(date), into: &sink)
    case .mixed: return try MixedLeafEncoder.leaf(values, tableKeys: tableKeys, format: format, into: &sink)
    case .object:
      throw FormatError.corrupt("links are encoded by the table writer, not as a typed leaf")
    }
  }

  /// Writes an int leaf in the form the column's nullability requires (§6.1).
  public static func intLeaf<S: NodeSink>(
    _ values: ArraySlice<RealmValue>, nullable: Bool, into sink: inout S
  ) throws(FormatError) -> Ref {
    let ints = try values.map(int)
    if nullable { return ScalarLeafEncoder.nullableIntegers(ints, into: &sink) }
    var plain = [Int64]()
    plain.reserveCapacity(ints.count)
    for i in ints {
      guard let i else { throw mismatch("int", .null) }
      plain.append(i)
    }
    return ScalarLeafEncoder.integers(plain, into: &sink)
  }

  // MARK: - Conversions (nil = null)

  static func mismatch(_ expected: String, _ found: RealmValue) -> FormatError {
    FormatError.corrupt("expected a value of type '\(expected)' but found \(describe(found))")
  }

  /// A short name of a value's kind for messages.
  static func describe(_ v: RealmValue) -> String {
    switch v {
    case .null: return "null"
    case .bool: return "a bool"
    case .int: return "an int"
    case .float: return "a float"
    case .double: return "a double"
    case .decimal128: return "a decimal128"
    case .objectId: return "an objectId"
    case .uuid: return "a uuid"
    case .string: return "a string"
    case .data: return "binary data"
    case .date: return "a date"
    case .link: return "a link"
    case .embedded: return "an embedded object"
    case .list: return "a list"
    case .set: return "a set"
    case .dictionary: return "a dictionary"
    }
  }

  static func int(_ v: RealmValue) throws(FormatError) -> Int64? {
    switch v {
    case .null: return nil
    case .int(let i): return i
    case .double(let d) where d > -9.2e18 && d < 9.2e18 && Double(Int64(d)) == d: return Int64(d)
    default: throw mismatch("int", v)
    }
  }

  static func bool(_ v: RealmValue) throws(FormatError) -> Bool? {
    switch v {
    case .null: return nil
    case .bool(let b): return b
    default: throw mismatch("bool", v)
    }
  }

  static func float(_ v: RealmValue) throws(FormatError) -> Float? {
    switch v {
    case .null: return nil
    case .float(let f): return f
    case .double(let d): return Float(d)
    case .int(let i): return Float(i)
    default: throw mismatch("float", v)
    }
  }

  static func double(_ v: RealmValue) throws(FormatError) -> Double? {
    switch v {
    case .null: return nil
    case .double(let d): return d
    case .float(let f): return Double(f)
    case .int(let i): return Double(i)
    default: throw mismatch("double", v)
    }
  }

  static func decimal(_ v: RealmValue) throws(FormatError) -> Decimal128? {
    switch v {
    case .null: return nil
    case .decimal128(let d): return d
    default: throw mismatch("decimal128", v)
    }
  }

  static func objectId(_ v: RealmValue) throws(FormatError) -> ObjectId? {
    switch v {
    case .null: return nil
    case .objectId(let o): return o
    default: throw mismatch("objectId", v)
    }
  }

  static func uuid(_ v: RealmValue) throws(FormatError) -> RealmUUID? {
    switch v {
    case .null: return nil
    case .uuid(let u): return u
    default: throw mismatch("uuid", v)
    }
  }

  static func string(_ v: RealmValue) throws(FormatError) -> String? {
    switch v {
    case .null: return nil
    case .string(let s): return s
    default: throw mismatch("string", v)
    }
  }

  static func data(_ v: RealmValue) throws(FormatError) -> [UInt8]? {
    switch v {
    case .null: return nil
    case .data(let d): return d
    default: throw mismatch("data", v)
    }
  }

  static func date(_ v: RealmValue) throws(FormatError) -> Timestamp? {
    switch v {
    case .null: return nil
    case .date(let t): return t
    default: throw mismatch("date", v)
    }
  }

  /// `value` converted to the element type `type` (numbers between int/float/double), or
  /// unchanged for mixed; used where a typed value is stored as Mixed (dictionaries).
  public static func coerced(_ value: RealmValue, to type: PropertyType) throws(FormatError) -> RealmValue {
    if case .null = value { return .null }
    switch type {
    case .int: return try int(value).map(RealmValue.int) ?? .null
    case .float: return try float(value).map(RealmValue.float) ?? .null
    case .double: return try double(value).map(RealmValue.double) ?? .null
    case .bool: return try bool(value).map(RealmValue.bool) ?? .null
    case .decimal128: return try decimal(value).map(RealmValue.decimal128) ?? .null
    case .objectId: return try objectId(value).map(RealmValue.objectId) ?? .null
    case .uuid: return try uuid(value).map(RealmValue.uuid) ?? .null
    case .string: return try string(value).map(RealmValue.string) ?? .null
    case .data: return try data(value).map(RealmValue.data) ?? .null
    case .date: return try date(value).map(RealmValue.date) ?? .null
    case .mixed, .object: return value
    }
  }
}
