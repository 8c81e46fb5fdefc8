import RealmModel

/// One object read back from a dump line.
public struct DecodedObject: Sendable, Equatable {
  /// The class (`$class`).
  public var className: String
  /// The object key (`$key`), nil when the line has none.
  public var key: Int64?
  /// Property values in the class's column order. Properties the line does not mention are
  /// `.null` (or their zero value, see ``CanonicalDecoder/MissingProperties``).
  public var values: [RealmValue]
  /// Column positions of the properties the line did not mention (empty with `.reject`).
  public var missing: [Int]

  /// Creates a decoded object.
  public init(className: String, key: Int64?, values: [RealmValue], missing: [Int] = []) {
    self.className = className
    self.key = key
    self.values = values
    self.missing = missing
  }
}

/// Reads canonical dump lines (`docs/dump-format.md`) back into `RealmValue`s, guided by the
/// schema: the property types say how each JSON value is to be read (a number for a float
/// property is a float, an object for an embedded link is the embedded object inline).
public struct CanonicalDecoder: Sendable {
  /// What to do with properties a line does not mention.
  public enum MissingProperties: Sendable {
    /// An error names the first missing property (what `create` wants).
    case reject
    /// Optional properties become null, required ones their zero value (0, "", false, empty
    /// collections, the epoch, the all-zero ObjectId/UUID); ``DecodedObject/missing`` lists them.
    case useDefaults
    /// Missing properties are `.null` and listed in ``DecodedObject/missing`` (partial updates).
    case allow
  }

  /// The schema the lines follow.
  public let schema: Schema
  /// The policy for missing properties.
  public var missingProperties: MissingProperties
  private let classIndex: [String: Int]
  /// Column position of each property name, per class.
  private let propertyPositions: [String: [String: Int]]
  /// What ``decodeSimpleLine(_:lastClass:)`` needs of the schema.
  let simpleLayout: SimpleLineLayout

  /// Creates a decoder for dumps of files with `schema`.
  public init(schema: Schema, missingProperties: MissingProperties = .reject) {
    self.schema = schema
    self.missingProperties = missingProperties
    var index: [String: Int] = [:]
    for (i, c) in schema.classes.enumerated() where index[c.name] == nil { index[c.name] = i }
    classIndex = index
    var positions: [String: [String: Int]] = [:]
    for c in schema.classes {
      var map: [String: Int] = [:]
      for (i, p) in c.properties.enumerated() where map[p.name] == nil { map[p.name] = i }
      positions[c.name] = map
    }
    propertyPositions = positions
    simpleLayout = SimpleLineLayout(schema: schema)
  }

  private func objectSchema(_ name: String) -> ObjectSchema? {
    classIndex[name].map { schema.classes[$0] }
  }

  /// Parses and decodes one line of a dump (without its line break); `line` is its 1-based
  /// number, used in errors.
  public func decodeLine(_ bytes: [UInt8], line: Int) throws(CanonicalDecodingError)
    -> DecodedObject
  {
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw CanonicalDecodingError(
        line: line, path: "", message: "column \(error.column): \(error.message)")
    }
    return try decodeObject(json, line: line)
  }

  /// Decodes one parsed dump line: `{"$class":…,"$key":…,<properties>}`.
  public func decodeObject(_ json: JSONValue, line: Int) throws(CanonicalDecodingError)
    -> DecodedObject
  {
    guard case .object(let members) = json else {
      throw CanonicalDecodingError(
        line: line, path: "", message: "expected an object, found \(describe(json))")
    }
    guard let classValue = json["$class"] else {
      throw CanonicalDecodingError(line: line, path: "", message: "the object has no '$class'")
    }
    guard case .string(let className) = classValue else {
      throw CanonicalDecodingError(
        line: line, path: "$class",
        message: "expected a class name string, found \(describe(classValue))")
    }
    guard let cls = objectSchema(className) else {
      throw CanonicalDecodingError(
        line: line, path: "$class", message: "unknown class '\(className)'")
    }
    if cls.isEmbedded {
      throw CanonicalDecodingError(
        line: line, path: "$class",
        message:
          "'\(className)' is an embedded class; its objects appear inline in their parent, not as lines"
      )
    }
    var key: Int64?
    if let k = json["$key"] {
      guard case .int(let v) = k else {
        throw CanonicalDecodingError(
          line: line, path: "$key", message: "expected an integer key, found \(describe(k))")
      }
      key = v
    }
    let (values, missing) = try decodeProperties(
      members, of: cls, line: line, path: ValuePath(root: className))
    return DecodedObject(className: className, key: key, values: values, missing: missing)
  }

  /// Decodes the property members of an object (top level or embedded) into column order.
  private func decodeProperties(
    _ members: [JSONMember], of cls: ObjectSchema, line: Int, path: ValuePath
  ) throws(CanonicalDecodingError) -> ([RealmValue], [Int]) {
    var values = [RealmValue](repeating: .null, count: cls.properties.count)
    var seen = [Bool](repeating: false, count: cls.properties.count)
    let positions = propertyPositions[cls.name]
    var next = 0  // members usually come in column order: try the next column first
    for member in members where member.key != "$class" && member.key != "$key" {
      let i: Int
      if next < cls.properties.count && cls.properties[next].name == member.key {
        i = next
      } else if let p = positions?[member.key], p < cls.properties.count,
        cls.properties[p].name == member.key
      {
        i = p
      } else if let p = cls.properties.firstIndex(where: { $0.name == member.key }) {
        i = p
      } else {
        throw CanonicalDecodingError(
          line: line, path: path.text,
          message: "class '\(cls.name)' has no property '\(member.key)'")
      }
      next = i + 1
      if seen[i] {
        throw CanonicalDecodingError(
          line: line, path: path.member(member.key).text, message: "the property appears twice")
      }
      seen[i] = true
      values[i] = try decodeValue(
        member.value, of: cls.properties[i], line: line, path: path.member(member.key))
    }
    var missing: [Int] = []
    for i in 0..<seen.count where !seen[i] {
      switch missingProperties {
      case .reject:
        throw CanonicalDecodingError(
          line: line, path: path.text, message: "property '\(cls.properties[i].name)' is missing")
      case .useDefaults:
        values[i] = CanonicalDecoder.defaultValue(for: cls.properties[i])
      case .allow:
        break
      }
      missing.append(i)
    }
    return (values, missing)
  }

  /// The value a missing property gets with `.useDefaults`: null when optional, else the zero
  /// value of its type (an empty collection for collections).
  public static func defaultValue(for property: Property) -> RealmValue {
    RealmValue.zero(for: property)
  }

  /// Decodes the JSON value of one property (a single value or a whole collection); `path`
  /// names it in errors (`Person.age`).
  public func decodeValue(
    _ json: JSONValue, of property: Property, line: Int, path: String
  ) throws(CanonicalDecodingError) -> RealmValue {
    try decodeValue(json, of: property, line: line, path: ValuePath(root: path))
  }

  func decodeValue(
    _ json: JSONValue, of property: Property, line: Int, path: ValuePath
  ) throws(CanonicalDecodingError) -> RealmValue {
    switch property.collection {
    case .single:
      return try decodeElement(json, of: property, line: line, path: path)
    case .list, .set:
      guard case .array(let items) = json else {
        throw CanonicalDecodingError(
          line: line, path: path.text,
          message: "expected an array (\(property.collection.rawValue)), found \(describe(json))")
      }
      var out: [RealmValue] = []
      out.reserveCapacity(items.count)
      for (i, item) in items.enumerated() {
        out.append(try decodeElement(item, of: property, line: line, path: path.index(i)))
      }
      return property.collection == .list ? .list(out) : .set(out)
    case .dictionary:
      guard case .object(let members) = json else {
        throw CanonicalDecodingError(
          line: line, path: path.text,
          message: "expected an object (dictionary), found \(describe(json))")
      }
      return .dictionary(
        try dictionaryEntries(members, line: line, path: path) { (member) throws(CanonicalDecodingError) in
          try decodeElement(member.value, of: property, line: line, path: path.member(member.key))
        })
    }
  }

  /// The entries of a dictionary object (typed, or nested in a mixed value): each key once and
  /// allowed by Realm, each value decoded by `value`.
  func dictionaryEntries(
    _ members: [JSONMember], line: Int, path: ValuePath,
    _ value: (JSONMember) throws(CanonicalDecodingError) -> RealmValue
  ) throws(CanonicalDecodingError) -> [DictionaryEntry] {
    try checkDistinctKeys(members, line: line, path: path)
    var out: [DictionaryEntry] = []
    out.reserveCapacity(members.count)
    for member in members {
      try checkDictionaryKey(member.key, line: line, path: path)
      out.append(DictionaryEntry(member.key, try value(member)))
    }
    return out
  }

  /// Realm's rule for dictionary keys (typed dictionaries and those nested in mixed values).
  func checkDictionaryKey(_ key: String, line: Int, path: ValuePath)
    throws(CanonicalDecodingError)
  {
    if key.utf8.first == UInt8(ascii: "$") || key.utf8.contains(UInt8(ascii: ".")) {
      throw CanonicalDecodingError(
        line: line, path: path.text,
        message: "dictionary key '\(key)' must not start with '$' or contain '.'")
    }
  }

  /// A dictionary holds each key once; JSON allows a member name twice, so such an object is
  /// refused rather than read one way or the other.
  func checkDistinctKeys(_ members: [JSONMember], line: Int, path: ValuePath)
    throws(CanonicalDecodingError)
  {
    guard members.count > 1 else { return }
    var seen = Set<String>(minimumCapacity: members.count)
    for member in members where !seen.insert(member.key).inserted {
      throw CanonicalDecodingError(
        line: line, path: path.member(member.key).text,
        message: "dictionary key '\(member.key)' appears twice")
    }
  }

  /// Decodes one value of the property's element type.
  private func decodeElement(
    _ json: JSONValue, of property: Property, line: Int, path: ValuePath
  ) throws(CanonicalDecodingError) -> RealmValue {
    if case .null = json {
      if property.isOptional || property.type == .mixed
        || property.type == .object && property.collection == .single
      {
        return .null
      }
      throw CanonicalDecodingError(
        line: line, path: path.text,
        message: "expected a \(typeName(property)), found null (the property is required)")
    }
    if property.type == .mixed { return try decodeMixed(json, line: line, path: path, depth: 0) }
    if property.type == .object {
      return try decodeLinkOrEmbedded(json, of: property, line: line, path: path)
    }
    return try decodeScalar(json, type: property.type, line: line, path: path)
  }

  private func typeName(_ property: Property) -> String {
    property.type == .object ? (property.objectType ?? "object") : property.type.rawValue
  }

  /// A link (`{"$ref":C,"$key":k}`) or, for an embedded target class, the object inline.
  private func decodeLinkOrEmbedded(
    _ json: JSONValue, of property: Property, line: Int, path: ValuePath
  ) throws(CanonicalDecodingError) -> RealmValue {
    let target = property.objectType ?? ""
    guard let targetSchema = objectSchema(target) else {
      throw CanonicalDecodingError(
        line: line, path: path.text, message: "the schema has no class '\(target)'")
    }
    guard case .object(let members) = json else {
      let expected =
        targetSchema.isEmbedded
        ? "an embedded '\(target)' object" : "a link {\"$ref\":\"\(target)\",\"$key\":…}"
      throw CanonicalDecodingError(
        line: line, path: path.text, message: "expected \(expected), found \(describe(json))")
    }
    if targetSchema.isEmbedded {
      if let c = json["$class"], c != .string(target) {
        throw CanonicalDecodingError(
          line: line, path: path.text,
          message: "expected an embedded '\(target)' object, found '$class' \(describe(c))")
      }
      if json["$ref"] != nil {
        // An embedded object has exactly one parent: it is written inline, never linked to.
        throw CanonicalDecodingError(
          line: line, path: path.text,
          message: "a link to an embedded '\(target)' object would give it a second parent; write the object inline")
      }
      let (values, _) = try decodeProperties(members, of: targetSchema, line: line, path: path)
      let named = zip(targetSchema.properties, values).map { NamedValue($0.name, $1) }
      return .embedded(EmbeddedObject(className: target, key: 0, properties: named))
    }
    let link = try decodeLink(json, line: line, path: path)
    if link.className != target {
      throw CanonicalDecodingError(
        line: line, path: path.text,
        message: "expected a link to '\(target)', found a link to '\(link.className)'")
    }
    return .link(link)
  }

  func decodeLink(_ json: JSONValue, line: Int, path: ValuePath)
    throws(CanonicalDecodingError) -> ObjectLink
  {
    guard case .string(let cls)? = json["$ref"], case .int(let key)? = json["$key"],
      case .object(let m) = json, m.count == 2
    else {
      throw CanonicalDecodingError(
        line: line, path: path.text,
        message: "expected a link {\"$ref\":\"Class\",\"$key\":integer}, found \(describe(json))")
    }
    guard let cls2 = objectSchema(cls), !cls2.isEmbedded else {
      throw CanonicalDecodingError(
        line: line, path: path.text, message: "link to unknown or embedded class '\(cls)'")
    }
    return ObjectLink(className: cls, key: key)
  }
}
