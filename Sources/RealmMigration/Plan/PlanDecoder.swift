import RealmModel
import RealmJSON

/// Builds a ``MigrationPlan`` from its JSON, checking everything that does not need the file.
///
/// Errors name the JSON path of the fault (`migrations[1].steps[0].from`). Checks done here:
/// JSON syntax, shape and types of every field, unknown keys and ops, property type names,
/// link targets that are not classes of the schema, primary keys that are not properties,
/// duplicate or out-of-range versions. Checks that need the file's schema (unknown classes
/// and properties in steps) are done by the migrator before anything is written.
public struct PlanDecoder {
  /// Largest plan file accepted (bytes).
  public static let maxPlanSize = 16 << 20

  /// Decodes a plan from the bytes of a JSON file.
  public static func decode(_ bytes: [UInt8]) throws(MigrationError) -> MigrationPlan {
    guard bytes.count <= maxPlanSize else {
      throw MigrationError.plan("", "the plan is larger than \(maxPlanSize >> 20) MiB")
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes)
    } catch {
      throw MigrationError(.invalidPlan, "the plan is not valid JSON: \(error)")
    }
    return try decode(json)
  }

  /// Decodes a plan from parsed JSON.
  public static func decode(_ json: JSONValue) throws(MigrationError) -> MigrationPlan {
    let root = try Obj(json, "")
    try root.allowOnly(["schemaVersion", "mode", "schema", "migrations", "allowDataLoss", "$schema", "description"])
    let version = try root.requiredInt("schemaVersion")
    guard version >= 0 else { throw MigrationError.plan("schemaVersion", "must be an integer >= 0, found \(version)") }
    let modeText = try root.optionalString("mode") ?? "automatic"
    guard let mode = MigrationPlan.Mode(rawValue: modeText) else {
      throw MigrationError.plan("mode", "unknown mode '\(modeText)'; expected 'automatic' or 'additive'")
    }
    let allowDataLoss = try root.optionalBool("allowDataLoss") ?? false
    let classes = try decodeSchema(try root.required("schema"), path: "schema")
    let classNames = Set(classes.map(\.objectSchema.name))
    var groups: [VersionGroup] = []
    if let m = root["migrations"] {
      guard case .array(let items) = m else { throw MigrationError.plan("migrations", "must be an array of version groups") }
      for (i, item) in items.enumerated() {
        groups.append(try decodeGroup(item, path: "migrations[\(i)]", classNames: classNames))
      }
    }
    var seen: [Int64: String] = [:]
    for g in groups {
      if let other = seen[g.version] {
        throw MigrationError.plan("\(g.path).version", "version \(g.version) appears twice (also at \(other))")
      }
      seen[g.version] = g.path
      if g.version > version {
        throw MigrationError.plan(
          "\(g.path).version", "version \(g.version) is above the plan's schemaVersion \(version)")
      }
    }
    groups.sort { $0.version < $1.version }
    return MigrationPlan(
      schemaVersion: version, mode: mode, allowDataLoss: allowDataLoss, classes: classes, migrations: groups)
  }

  // MARK: - Schema

  static func decodeSchema(_ json: JSONValue, path: String) throws(MigrationError) -> [PlanClass] {
    guard case .array(let items) = json else { throw MigrationError.plan(path, "must be an array of classes") }
    // First pass: names, so that link targets can be resolved in any order.
    var names: [String] = []
    for (i, item) in items.enumerated() {
      let o = try Obj(item, "\(path)[\(i)]")
      let name = try o.requiredString("name")
      guard !name.isEmpty, name.utf8.count <= 57 else {
        throw MigrationError.plan("\(path)[\(i)].name", "class names must have 1 to 57 bytes, found '\(name)'")
      }
      if names.contains(name) { throw MigrationError.plan("\(path)[\(i)].name", "class '\(name)' is defined twice") }
      names.append(name)
    }
    let isClass: (String) -> Bool = { names.contains($0) }
    var classes: [PlanClass] = []
    for (i, item) in items.enumerated() {
      classes.append(try decodeClass(item, path: "\(path)[\(i)]", isClass: isClass))
    }
    return classes
  }

  static func decodeClass(_ json: JSONValue, path: String, isClass: (String) -> Bool) throws(MigrationError) -> PlanClass {
    let o = try Obj(json, path)
    try o.allowOnly(["name", "primaryKey", "embedded", "asymmetric", "properties"])
    let name = try o.requiredString("name")
    let embedded = try o.optionalBool("embedded") ?? false
    let primaryKey = try o.optionalString("primaryKey")
    var properties: [Property] = []
    var defaults: [String: JSONValue] = [:]
    let propsPath = "\(path).properties"
    switch try o.required("properties") {
    case .object(let members):
      for m in members {
        let (p, d) = try decodeProperty(name: m.key, m.value, path: "\(propsPath).\(m.key)", isClass: isClass)
        if properties.contains(where: { $0.name == p.name }) {
          throw MigrationError.plan("\(propsPath).\(m.key)", "property '\(p.name)' is defined twice")
        }
        properties.append(p)
        if let d { defaults[p.name] = d }
      }
    case .array(let items):
      for (i, item) in items.enumerated() {
        let po = try Obj(item, "\(propsPath)[\(i)]")
        let pname = try po.requiredString("name")
        let (p, d) = try decodeProperty(name: pname, item, path: "\(propsPath)[\(i)]", isClass: isClass)
        if properties.contains(where: { $0.name == p.name }) {
          throw MigrationError.plan("\(propsPath)[\(i)]", "property '\(p.name)' is defined twice")
        }
        properties.append(p)
        if let d { defaults[p.name] = d }
      }
    default:
      throw MigrationError.plan(propsPath, "must be an object (name: type) or an array of properties")
    }
    if let pk = primaryKey {
      guard let i = properties.firstIndex(where: { $0.name == pk }) else {
        throw MigrationError.plan("\(path).primaryKey", "'\(pk)' is not a property of '\(name)'")
      }
      let p = properties[i]
      guard p.collection == .single, [.int, .string, .objectId, .uuid].contains(p.type) else {
        throw MigrationError.plan(
          "\(path).primaryKey", "'\(name).\(pk)' cannot be a primary key: only int, string, objectId and uuid properties can")
      }
      if embedded { throw MigrationError.plan("\(path).primaryKey", "embedded class '\(name)' cannot have a primary key") }
      properties[i].isIndexed = true
    }
    return PlanClass(
      objectSchema: ObjectSchema(name: name, isEmbedded: embedded, primaryKey: primaryKey, properties: properties),
      defaults: defaults, path: path)
  }

  /// Decodes one property from its notation string or object form.
  static func decodeProperty(
    name: String, _ json: JSONValue, path: String, isClass: (String) -> Bool
  ) throws(MigrationError) -> (Property, JSONValue?) {
    guard !name.isEmpty, name.utf8.count <= 63 else {
      throw MigrationError.plan(path, "property names must have 1 to 63 bytes, found '\(name)'")
    }
    if case .string(let text) = json {
      let parsed = try notation(text, path: path, isClass: isClass)
      return (Property(name: name, type: parsed.type, collection: parsed.collection, objectType: parsed.objectType, isOptional: parsed.isOptional), nil)
    }
    let o = try Obj(json, path)
    try o.allowOnly(["name", "type", "objectType", "optional", "indexed", "default", "mapTo"])
    let typeText = try o.requiredString("type")
    var parsed: PropertyNotation.Parsed
    let collectionWords: [String: CollectionKind] = ["list": .list, "set": .set, "dictionary": .dictionary]
    if let kind = collectionWords[typeText] {
      let element = try o.requiredString("objectType")
      parsed = try notation(element, path: "\(path).objectType", isClass: isClass)
      guard parsed.collection == .single else {
        throw MigrationError.plan("\(path).objectType", "nested collections are not allowed here: '\(element)'")
      }
      parsed.collection = kind
      if parsed.type == .object { parsed.isOptional = kind == .dictionary }
    } else if typeText == "object" {
      let target = try o.requiredString("objectType")
      parsed = try notation(target, path: "\(path).objectType", isClass: isClass)
      guard parsed.type == .object, parsed.collection == .single else {
        throw MigrationError.plan("\(path).objectType", "'\(target)' is not a class of the schema")
      }
    } else {
      parsed = try notation(typeText, path: "\(path).type", isClass: isClass)
    }
    if let opt = try o.optionalBool("optional"), parsed.type != .mixed, parsed.type != .object {
      parsed.isOptional = opt
    }
    let indexed = try o.optionalBool("indexed") ?? false
    if indexed {
      guard parsed.collection == .single, [.int, .bool, .string, .date, .objectId, .uuid, .mixed].contains(parsed.type) else {
        throw MigrationError.plan("\(path).indexed", "properties of type '\(typeText)' cannot be indexed")
      }
    }
    let property = Property(
      name: name, type: parsed.type, collection: parsed.collection, objectType: parsed.objectType,
      isOptional: parsed.isOptional, isIndexed: indexed)
    return (property, o["default"])
  }

  static func notation(_ text: String, path: String, isClass: (String) -> Bool) throws(MigrationError) -> PropertyNotation.Parsed {
    switch PropertyNotation.parse(text, isClass: isClass) {
    case .success(let p): return p
    case .failure(var e):
      e.path = path
      if e.message.hasPrefix("unknown type") && !text.isEmpty && text.first?.isUppercase == true {
        e.message = "'\(text)' is neither a property type nor a class of the schema"
      }
      throw e
    }
  }

  // MARK: - Steps

  static func decodeGroup(_ json: JSONValue, path: String, classNames: Set<String>) throws(MigrationError) -> VersionGroup {
    let o = try Obj(json, path)
    try o.allowOnly(["version", "steps", "description"])
    let version = try o.requiredInt("version")
    guard version >= 0 else { throw MigrationError.plan("\(path).version", "must be >= 0, found \(version)") }
    guard case .array(let items) = try o.required("steps") else {
      throw MigrationError.plan("\(path).steps", "must be an array of steps")
    }
    var steps: [PlanStep] = []
    for (i, item) in items.enumerated() {
      let sp = "\(path).steps[\(i)]"
      steps.append(PlanStep(operation: try decodeStep(item, path: sp, classNames: classNames), path: sp))
    }
    return VersionGroup(version: version, steps: steps, path: path)
  }

  static let stepKeys: [String: [String]] = [
    "renameProperty": ["class", "from", "to"],
    "renameClass": ["from", "to"],
    "addProperty": ["class", "name", "type", "default"],
    "removeProperty": ["class", "name"],
    "transform": ["class", "set", "where"],
    "deleteObjects": ["class", "where"],
    "deleteClass": ["class"],
    "exec": ["class", "command", "where"],
  ]

  static func decodeStep(_ json: JSONValue, path: String, classNames: Set<String>) throws(MigrationError) -> StepOperation {
    let o = try Obj(json, path)
    let op = try o.requiredString("op")
    guard let keys = stepKeys[op] else {
      var message = "unknown op '\(op)'"
      if let s = Suggestion.closest(to: op, among: Array(stepKeys.keys)) { message += " (did you mean '\(s)'?)" }
      throw MigrationError.plan("\(path).op", message)
    }
    try o.allowOnly(keys + ["op", "description"])
    switch op {
    case "renameProperty":
      return .renameProperty(className: try o.requiredString("class"), from: try o.requiredString("from"), to: try o.requiredString("to"))
    case "renameClass":
      return .renameClass(from: try o.requiredString("from"), to: try o.requiredString("to"))
    case "addProperty":
      let name = try o.requiredString("name")
      let (p, d) = try decodeProperty(name: name, try o.required("type"), path: "\(path).type") { classNames.contains($0) }
      return .addProperty(className: try o.requiredString("class"), property: p, defaultValue: o["default"] ?? d)
    case "removeProperty":
      return .removeProperty(className: try o.requiredString("class"), name: try o.requiredString("name"))
    case "transform":
      guard case .object(let members) = try o.required("set"), !members.isEmpty else {
        throw MigrationError.plan("\(path).set", "must be a non-empty object of property: expression")
      }
      var assignments: [Assignment] = []
      for m in members {
        guard case .string(let source) = m.value else {
          throw MigrationError.plan("\(path).set.\(m.key)", "must be an expression string")
        }
        assignments.append(Assignment(property: m.key, expression: source, path: "\(path).set.\(m.key)"))
      }
      return .transform(className: try o.requiredString("class"), assignments: assignments, filter: try o.optionalString("where"))
    case "deleteObjects":
      return .deleteObjects(className: try o.requiredString("class"), filter: try o.optionalString("where"))
    case "deleteClass":
      return .deleteClass(className: try o.requiredString("class"))
    default:  // exec
      guard case .array(let argv) = try o.required("command"), !argv.isEmpty else {
        throw MigrationError.plan("\(path).command", "must be a non-empty array of strings (program and arguments)")
      }
      var command: [String] = []
      for (i, a) in argv.enumerated() {
        guard case .string(let s) = a else { throw MigrationError.plan("\(path).command[\(i)]", "must be a string") }
        command.append(s)
      }
      return .exec(className: try o.requiredString("class"), command: command, filter: try o.optionalString("where"))
    }
  }
}

/// A JSON object with path-aware accessors for decoding.
struct Obj {
  let members: [JSONMember]
  let path: String

  init(_ json: JSONValue, _ path: String) throws(MigrationError) {
    guard case .object(let m) = json else {
      throw MigrationError.plan(path.isEmpty ? "(root)" : path, "must be a JSON object")
    }
    members = m
    self.path = path
  }

  subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

  func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

  func allowOnly(_ keys: [String]) throws(MigrationError) {
    for m in members where !keys.contains(m.key) {
      var message = "unknown field '\(m.key)'"
      if let s = Suggestion.closest(to: m.key, among: keys) { message += " (did you mean '\(s)'?)" }
      throw MigrationError.plan(at(m.key), message)
    }
  }

  func required(_ key: String) throws(MigrationError) -> JSONValue {
    guard let v = self[key] else { throw MigrationError.plan(at(key), "is required") }
    return v
  }

  func requiredString(_ key: String) throws(MigrationError) -> String {
    guard case .string(let s) = try required(key) else { throw MigrationError.plan(at(key), "must be a string") }
    return s
  }

  func optionalString(_ key: String) throws(MigrationError) -> String? {
    isAbsent(key) ? nil : try requiredString(key)
  }

  func requiredInt(_ key: String) throws(MigrationError) -> Int64 {
    guard case .int(let i) = try required(key) else { throw MigrationError.plan(at(key), "must be an integer") }
    return i
  }

  func optionalBool(_ key: String) throws(MigrationError) -> Bool? {
    if isAbsent(key) { return nil }
    guard case .bool(let b) = self[key] else { throw MigrationError.plan(at(key), "must be true or false") }
    return b
  }

  /// Whether the member `key` is missing or null (what the optional fields allow).
  private func isAbsent(_ key: String) -> Bool { (self[key] ?? .null) == .null }
}
