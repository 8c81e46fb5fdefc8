import RealmModel

/// The schema document of `realmctl schema --format json` (`docs/dump-format.md`), written in
/// exactly the layout of Realm's reference files, and read back (`create --schema`).
public enum SchemaJSON {
  /// The document for `schema`, ending with a line break. Classes are written in the order
  /// given (the reader already sorts them by name); properties in column order.
  public static func encode(_ schema: Schema) -> [UInt8] {
    var w = JSONWriter(indent: 0, capacity: 4096)
    w.writeRaw("{\"schemaVersion\": ")
    if let v = schema.schemaVersion { w.writeInt(v) } else { w.writeRaw("null") }
    w.writeRaw(", \"fileFormat\": ")
    w.writeInt(Int64(schema.fileFormat))
    w.writeRaw(",\n \"classes\": [")
    for (ci, cls) in schema.classes.enumerated() {
      w.writeRaw(ci == 0 ? "\n  {\"name\": " : ",\n  {\"name\": ")
      w.writeString(cls.name)
      w.writeRaw(", \"embedded\": ")
      w.writeRaw(cls.isEmbedded ? "true" : "false")
      w.writeRaw(", \"primaryKey\": ")
      if let pk = cls.primaryKey { w.writeString(pk) } else { w.writeRaw("null") }
      w.writeRaw(",\n   \"properties\": [")
      for (pi, p) in cls.properties.enumerated() {
        w.writeRaw(pi == 0 ? "\n     " : ",\n     ")
        encodeProperty(p, to: &w)
      }
      w.writeRaw(cls.properties.isEmpty ? "]}" : "\n   ]}")
    }
    w.writeRaw(schema.classes.isEmpty ? "]}\n" : "\n ]}\n")
    return w.buffer
  }

  /// The JS-vocabulary type and `objectType` of a property: `("list", "Dog")`,
  /// `("set", "string")`, `("object", "Person")`, `("int", nil)`.
  public static func typeAndObjectType(of p: Property) -> (type: String, objectType: String?) {
    let element = p.type == .object ? (p.objectType ?? "") : p.type.rawValue
    switch p.collection {
    case .single: return p.type == .object ? ("object", element) : (p.type.rawValue, nil)
    case .list: return ("list", element)
    case .set: return ("set", element)
    case .dictionary: return ("dictionary", element)
    }
  }

  private static func encodeProperty(_ p: Property, to w: inout JSONWriter) {
    let (type, objectType) = typeAndObjectType(of: p)
    w.writeRaw("{\"name\": ")
    w.writeString(p.name)
    w.writeRaw(", \"type\": ")
    w.writeString(type)
    if let o = objectType {
      w.writeRaw(", \"objectType\": ")
      w.writeString(o)
    }
    w.writeRaw(", \"optional\": ")
    w.writeRaw(p.isOptional ? "true" : "false")
    w.writeRaw(", \"indexed\": ")
    w.writeRaw(p.isFullTextIndexed ? "\"full-text\"" : p.isIndexed ? "true" : "false")
    w.buffer.append(UInt8(ascii: "}"))
  }

  /// Reads a schema document. Errors name the JSON path (`classes[1].properties[0].type`).
  /// Checks: known types, `objectType` present where needed and naming a class of the document
  /// (for `object` and collections of objects), unique class and property names, the primary
  /// key naming a property.
  public static func decode(_ bytes: [UInt8]) throws(CanonicalDecodingError) -> Schema {
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw CanonicalDecodingError(
        line: error.line, path: "", message: "column \(error.column): \(error.message)")
    }
    return try decode(json)
  }

  /// Reads a parsed schema document (see ``decode(_:)-([UInt8])``).
  public static func decode(_ json: JSONValue) throws(CanonicalDecodingError) -> Schema {
    func fail(_ path: String, _ message: String) -> CanonicalDecodingError {
      CanonicalDecodingError(line: 0, path: path, message: message)
    }
    guard case .object = json else {
      throw fail("", "expected a schema object, found \(describe(json))")
    }
    let version = try optionalMember("schemaVersion", of: json, at: "", expected: "an integer or null", int64Value)
    var fileFormat = 24
    switch json["fileFormat"] {
    case .int(let v)?:
      guard let f = Int(exactly: v), f >= 0, f < 1000 else {
        throw fail("fileFormat", "\(v) is not a file format version")
      }
      fileFormat = f
    case nil: break
    case let other?: throw fail("fileFormat", "expected an integer, found \(describe(other))")
    }
    guard case .array(let classItems)? = json["classes"] else {
      throw fail(
        "classes",
        "expected an array of classes, found \(json["classes"].map(describe) ?? "nothing")")
    }
    var classes: [ObjectSchema] = []
    for (ci, item) in classItems.enumerated() {
      classes.append(try decodeClass(item, path: "classes[\(ci)]"))
    }
    // Cross-checks.
    var names = Set<String>()
    for (ci, c) in classes.enumerated() where !names.insert(c.name).inserted {
      throw fail("classes[\(ci)].name", "class '\(c.name)' appears twice")
    }
    for (ci, c) in classes.enumerated() {
      for (pi, p) in c.properties.enumerated() where p.type == .object {
        let target = p.objectType ?? ""
        if !names.contains(target) {
          throw fail("classes[\(ci)].properties[\(pi)].objectType", "unknown class '\(target)'")
        }
      }
    }
    classes.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    return Schema(schemaVersion: version, fileFormat: fileFormat, classes: classes)
  }

  private static func decodeClass(_ json: JSONValue, path: String) throws(CanonicalDecodingError)
    -> ObjectSchema
  {
    func fail(_ sub: String, _ message: String) -> CanonicalDecodingError {
      CanonicalDecodingError(line: 0, path: sub.isEmpty ? path : "\(path).\(sub)", message: message)
    }
    guard case .object = json else {
      throw fail("", "expected a class object, found \(describe(json))")
    }
    guard case .string(let name)? = json["name"], !name.isEmpty else {
      throw fail("name", "expected a non-empty class name")
    }
    let embedded = try optionalMember("embedded", of: json, at: path, expected: "true or false", boolValue) ?? false
    let primaryKey = try optionalMember("primaryKey", of: json, at: path, expected: "a property name or null", stringValue)
    guard case .array(let items)? = json["properties"] else {
      throw fail("properties", "expected an array of properties")
    }
    var properties: [Property] = []
    var seen = Set<String>()
    for (pi, item) in items.enumerated() {
      let p = try decodeProperty(item, path: "\(path).properties[\(pi)]")
      if !seen.insert(p.name).inserted {
        throw fail(
          "properties[\(pi)].name", "property '\(p.name)' appears twice in class '\(name)'")
      }
      properties.append(p)
    }
    if let pk = primaryKey, !seen.contains(pk) {
      throw fail("primaryKey", "class '\(name)' has no property '\(pk)'")
    }
    if let pk = primaryKey, let p = properties.first(where: { $0.name == pk }),
      p.collection != .single || ![.int, .string, .objectId, .uuid].contains(p.type)
    {
      throw fail(
        "primaryKey",
        "primary key '\(pk)' of class '\(name)' must be an int, string, objectId or uuid property, not \(typeAndObjectType(of: p).type)"
      )
    }
    if embedded && primaryKey != nil {
      throw fail("primaryKey", "embedded class '\(name)' cannot have a primary key")
    }
    return ObjectSchema(
      name: name, isEmbedded: embedded, primaryKey: primaryKey, properties: properties)
  }

  private static func decodeProperty(_ json: JSONValue, path: String) throws(CanonicalDecodingError)
    -> Property
  {
    func fail(_ sub: String, _ message: String) -> CanonicalDecodingError {
      CanonicalDecodingError(line: 0, path: "\(path).\(sub)", message: message)
    }
    guard case .object = json else {
      throw CanonicalDecodingError(
        line: 0, path: path, message: "expected a property object, found \(describe(json))")
    }
    guard case .string(let name)? = json["name"], !name.isEmpty else {
      throw fail("name", "expected a non-empty property name")
    }
    guard case .string(let typeName)? = json["type"] else {
      throw fail("type", "expected a type name")
    }
    let optional = try optionalMember("optional", of: json, at: path, expected: "true or false", boolValue) ?? false
    let index = try optionalMember("indexed", of: json, at: path, expected: "true, false or \"full-text\"", indexKind) ?? IndexKind.none
    let objectType = try optionalMember("objectType", of: json, at: path, expected: "a type or class name", stringValue)
    let collection: CollectionKind
    switch typeName {
    case "list": collection = .list
    case "set": collection = .set
    case "dictionary": collection = .dictionary
    default: collection = .single
    }
    let elementType: PropertyType
    var target: String?
    if collection != .single {
      guard let o = objectType else {
        throw fail("objectType", "a \(typeName) needs an objectType")
      }
      if let primitive = PropertyType(rawValue: o), primitive != .object {
        elementType = primitive
      } else {
        elementType = .object
        target = o
      }
    } else if typeName == "object" {
      guard let o = objectType else {
        throw fail("objectType", "an object property needs an objectType (the target class)")
      }
      elementType = .object
      target = o
    } else {
      guard let primitive = PropertyType(rawValue: typeName) else {
        throw fail(
          "type",
          "unknown type '\(typeName)' (expected one of bool int float double decimal128 objectId uuid string data date mixed object list set dictionary)"
        )
      }
      elementType = primitive
    }
    if index == .fullText && (elementType != .string || collection != .single) {
      throw fail("indexed", "only a string property can have a full-text index, not a property of type '\(typeName)'")
    }
    var property = Property(
      name: name, type: elementType, collection: collection, objectType: target, isOptional: optional)
    property.indexKind = index
    return property
  }

  /// The index kind of an `indexed` member: `true`, `false` or `"full-text"` (the Realm JS
  /// SDK's values).
  public static func indexKind(_ json: JSONValue) -> IndexKind? {
    switch json {
    case .bool(let b): return b ? .general : IndexKind.none
    case .string(IndexKind.fullText.rawValue): return .fullText
    default: return nil
    }
  }

  /// The member `key` of the object `json` (at `path` in the document): nil when it is absent or
  /// null, else what `accept` makes of it. A value `accept` refuses is an error saying what
  /// was `expected`.
  private static func optionalMember<T>(
    _ key: String, of json: JSONValue, at path: String, expected: String, _ accept: (JSONValue) -> T?
  ) throws(CanonicalDecodingError) -> T? {
    guard let value = json[key], value != .null else { return nil }
    guard let accepted = accept(value) else {
      throw CanonicalDecodingError(
        line: 0, path: path.isEmpty ? key : "\(path).\(key)", message: "expected \(expected), found \(describe(value))")
    }
    return accepted
  }

  private static func int64Value(_ json: JSONValue) -> Int64? { if case .int(let v) = json { v } else { nil } }

  private static func boolValue(_ json: JSONValue) -> Bool? { if case .bool(let b) = json { b } else { nil } }

  private static func stringValue(_ json: JSONValue) -> String? { if case .string(let s) = json { s } else { nil } }
}
