import RealmModel
import RealmJSON

/// The skeleton of a migration plan (`docs/migration-plans.md`) that takes a file to an app's
/// schema: `realmctl diff FILE --schema S --plan-skeleton`.
///
/// The skeleton is a valid plan: the app's schema, a schema version above the file's, and one
/// version group with a step for each change that loses data without one (a type change gets
/// a `transform` that converts the old value; a property removed and one of the same type added
/// in the same class (and as optional) get a `renameProperty`, to be checked). Every other change is done by the
/// plan's automatic reconciliation. Each step says why it is there in its `description`.
public enum PlanSkeleton {
  /// The plan's JSON text, pretty-printed, ending with a line break.
  public static func json(for check: AppSchemaCheck, appSchema: Schema) -> [UInt8] {
    let version = targetVersion(check)
    var w = JSONWriter(indent: 2, capacity: 4096)
    w.beginObject()
    w.key("description")
    w.value(
      "Skeleton written by realmctl diff --plan-skeleton: review every step, then run realmctl migrate --plan."
        + (version != check.appVersion ? " The app must declare schema version \(version)." : ""))
    w.member("schemaVersion", version)
    w.member("schema", schemaClasses(appSchema))
    w.key("migrations")
    w.beginArray()
    w.beginObject()
    w.member("version", version)
    w.key("steps")
    w.beginArray()
    for step in steps(check.changes) { w.value(step) }
    w.endArray()
    w.endObject()
    w.endArray()
    w.endObject()
    w.buffer.append(0x0A)
    return w.buffer
  }

  /// The version the plan leads to: the app's when it is above the file's, else the next one.
  public static func targetVersion(_ check: AppSchemaCheck) -> Int64 {
    guard let file = check.fileVersion else { return check.appVersion }
    return check.appVersion > file ? check.appVersion : file + 1
  }

  /// The steps for `changes`, as plan JSON objects.
  static func steps(_ changes: [SchemaChange]) -> [JSONValue] {
    var out: [JSONValue] = []
    var removed: [(String, Property)] = []
    var added: [(String, Property)] = []
    for change in changes {
      switch change {
      case .removeProperty(let c, let p): removed.append((c, p))
      case .addProperty(let c, let p): added.append((c, p))
      case .changePropertyType(let c, let old, let new):
        out.append(
          step(
            "transform", ["class": .string(c), "set": .object([JSONMember(new.name, .string(conversion(old, to: new)))])],
            "'\(c).\(new.name)' changes from \(SchemaChange.typeString(old)) to \(SchemaChange.typeString(new)): "
              + "convert the old value (without a step its values are lost)"))
      default: break
      }
    }
    for (c, old) in removed {
      guard let i = added.firstIndex(where: { $0.0 == c && sameType($0.1, old) }) else { continue }
      let new = added.remove(at: i).1
      out.append(
        step(
          "renameProperty", ["class": .string(c), "from": .string(old.name), "to": .string(new.name)],
          "'\(c).\(old.name)' is removed and '\(c).\(new.name)' of the same type is added: "
            + "keep this step if it is a rename, delete it if not"))
    }
    return out
  }

  private static func step(_ op: String, _ fields: [String: JSONValue], _ description: String) -> JSONValue {
    var members = [JSONMember("op", .string(op))]
    for name in ["class", "from", "to", "set"] {
      if let v = fields[name] { members.append(JSONMember(name, v)) }
    }
    members.append(JSONMember("description", .string(description)))
    return .object(members)
  }

  private static func sameType(_ a: Property, _ b: Property) -> Bool {
    a.type == b.type && a.collection == b.collection && a.objectType == b.objectType && a.isOptional == b.isOptional
  }

  /// The expression that converts `old`'s value to `new`'s type, where the expression
  /// language has a conversion; else the old value as it is, to be edited.
  static func conversion(_ old: Property, to new: Property) -> String {
    let value = "old.\(old.name)"
    guard new.collection == .single, old.collection == .single else { return value }
    switch new.type {
    case .string: return "string(\(value))"
    case .int: return "int(\(value))"
    case .double, .float: return "double(\(value))"
    case .bool: return "bool(\(value))"
    case .date: return "date(\(value))"
    default: return value
    }
  }

  /// The plan's `schema`: the classes of the schema document, which plans read as they are.
  static func schemaClasses(_ schema: Schema) -> JSONValue {
    let document = try? JSONParser.parse(SchemaJSON.encode(schema))
    return document?["classes"] ?? .array([])
  }
}
