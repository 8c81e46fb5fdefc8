import RealmModel

/// `schema --format text`: the schema for people.
///
/// ```
/// schema version 2, file format 24, 2 classes
///
/// Address (embedded, 12 objects)
///   street  string
///   zip     string?
///
/// Person (primary key _id, 3 objects)
///   _id   objectId   primary key
///   name  string     indexed
///   bio   string     full-text index
///   dogs  Dog[]
///   tags  string?<>
/// ```
///
/// Types: the element type, `?` when it (or each element) may be null, then `[]` for a list,
/// `<>` for a set, `{}` for a dictionary; links show their class (`Person?`); mixed is `mixed`.
public enum SchemaTextFormatter {
  /// The text, one block per class; `objectCounts` (by class name) adds counts to the titles.
  public static func render(_ schema: Schema, objectCounts: [String: Int]? = nil) -> String {
    var out = schema.schemaVersion.map { "schema version \($0)" } ?? "no schema version"
    out += ", file format \(schema.fileFormat), "
    out += schema.classes.count == 1 ? "1 class\n" : "\(schema.classes.count) classes\n"
    for cls in schema.classes {
      out += "\n" + title(cls, count: objectCounts?[cls.name]) + "\n"
      let rows = cls.properties.map { p in (p.name, typeLabel(p), flags(p, in: cls)) }
      let nameWidth = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
      let typeWidth = rows.map { DisplayWidth.of($0.1) }.max() ?? 0
      for (name, type, flags) in rows {
        var line = "  " + pad(name, nameWidth) + "  "
        line += flags.isEmpty ? type : pad(type, typeWidth) + "  " + flags
        out += line + "\n"
      }
      if rows.isEmpty { out += "  (no properties)\n" }
    }
    return out
  }

  /// The title line of a class: name, then embedded / primary key / object count in brackets.
  static func title(_ cls: ObjectSchema, count: Int?) -> String {
    var notes: [String] = []
    if cls.isEmbedded { notes.append("embedded") }
    if let pk = cls.primaryKey { notes.append("primary key \(pk)") }
    if let n = count { notes.append(n == 1 ? "1 object" : "\(n) objects") }
    return notes.isEmpty ? cls.name : "\(cls.name) (\(notes.joined(separator: ", ")))"
  }

  /// `string?`, `Dog[]`, `int<>`, `int?{}`, `Person?`, `mixed`.
  public static func typeLabel(_ p: Property) -> String {
    var base = p.type == .object ? (p.objectType ?? "object") : p.type.rawValue
    let optional: Bool
    switch p.collection {
    case .single: optional = p.type == .object || (p.isOptional && p.type != .mixed)
    case .list, .set: optional = p.isOptional && p.type != .mixed && p.type != .object
    case .dictionary: optional = p.type == .object || (p.isOptional && p.type != .mixed)
    }
    if optional { base += "?" }
    switch p.collection {
    case .single: return base
    case .list: return base + "[]"
    case .set: return base + "<>"
    case .dictionary: return base + "{}"
    }
  }

  private static func flags(_ p: Property, in cls: ObjectSchema) -> String {
    if p.name == cls.primaryKey { return "primary key" }
    if p.isFullTextIndexed { return "full-text index" }
    return p.isIndexed ? "indexed" : ""
  }

  private static func pad(_ s: String, _ width: Int) -> String {
    s + String(repeating: " ", count: max(0, width - DisplayWidth.of(s)))
  }
}
