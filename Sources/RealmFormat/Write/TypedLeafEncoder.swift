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
    case .bool: return ScalarLeafEncoder.bools(try payloads(values, type), into: &sink)
    case .float: return ScalarLeafEncoder.floats(try values.map { v throws(FormatError) in try floatingPoint(v, type) }, into: &sink)
    case .double: return ScalarLeafEncoder.doubles(try values.map { v throws(FormatError) in try floatingPoint(v, type) }, into: &sink)
    case .decimal128: return ScalarLeafEncoder.decimals(try payloads(values, type), into: &sink)
    case .objectId: return ScalarLeafEncoder.objectIds(try payloads(values, type), into: &sink)
    case .uuid: return ScalarLeafEncoder.uuids(try payloads(values, type), into: &sink)
    case .string: return try StringLeafEncoder.strings(try payloads(values, type), into: &sink)
    case .data: return try StringLeafEncoder.binaries(try payloads(values, type), into: &sink)
    case .date: return ScalarLeafEncoder.timestamps(try payloads(values, type), into: &sink)
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

  /// A float or double property's value: a float, a double or an int, converted to `F`.
  @inline(__always)
  static func floatingPoint<F: BinaryFloatingPoint>(_ v: RealmValue, _ type: PropertyType) throws(FormatError) -> F? {
    switch v {
    case .null: return nil
    case .float(let f): return F(f)
    case .double(let d): return F(d)
    case .int(let i): return F(i)
    default: throw mismatch(type.rawValue, v)
    }
  }

  /// The payload of `v` when it holds a `T` (`Bool`, `Decimal128`, `ObjectId`, `RealmUUID`,
  /// `String`, `[UInt8]` or `Timestamp`: the types stored without conversion), nil for null;
  /// any other value is a mismatch with `type`.
  @inline(__always)
  static func payload<T>(_ v: RealmValue, _ type: PropertyType) throws(FormatError) -> T? {
    switch v {
    case .null: return nil
    case .bool(let p as T), .decimal128(let p as T), .objectId(let p as T), .uuid(let p as T),
      .string(let p as T), .data(let p as T), .date(let p as T):
      return p
    default: throw mismatch(type.rawValue, v)
    }
  }

  /// ``payload(_:_:)`` of each value.
  @inline(__always)
  static func payloads<T>(_ values: ArraySlice<RealmValue>, _ type: PropertyType) throws(FormatError) -> [T?] {
    try values.map { v throws(FormatError) in try payload(v, type) }
  }

  /// `value` converted to the element type `type` (numbers between int/float/double), or
  /// unchanged for mixed; used where a typed value is stored as Mixed (dictionaries).
  public static func coerced(_ value: RealmValue, to type: PropertyType) throws(FormatError) -> RealmValue {
    if case .null = value { return .null }
    switch type {
    case .int: return try int(value).map(RealmValue.int) ?? .null
    case .float: return try floatingPoint(value, type).map(RealmValue.float) ?? .null
    case .double: return try floatingPoint(value, type).map(RealmValue.double) ?? .null
    case .bool: return try payload(value, type).map(RealmValue.bool) ?? .null
    case .decimal128: return try payload(value, type).map(RealmValue.decimal128) ?? .null
    case .objectId: return try payload(value, type).map(RealmValue.objectId) ?? .null
    case .uuid: return try payload(value, type).map(RealmValue.uuid) ?? .null
    case .string: return try payload(value, type).map(RealmValue.string) ?? .null
    case .data: return try payload(value, type).map(RealmValue.data) ?? .null
    case .date: return try payload(value, type).map(RealmValue.date) ?? .null
    case .mixed, .object: return value
    }
  }
}
