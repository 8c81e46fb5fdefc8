import RealmFormat

/// `schema --format swift`: the Realm Swift model classes an app declares for the file, ready
/// to paste: `Object` / `EmbeddedObject` subclasses with `@Persisted` properties
/// (`primaryKey: true`, `indexed: true`), `List`, `MutableSet`, `Map<String, …>`, optionals and
/// `AnyRealmValue`, in the file's column order.
///
/// Names that are Swift keywords are written in backticks; names that are not Swift
/// identifiers get a Swift-safe name and a `propertiesMapping()` entry back to the stored name.
public enum SwiftModelFormatter {
  /// The Swift source for all classes of `schema`.
  public static func render(_ schema: Schema) -> String {
    var out = "// Realm Swift models for this file"
    if let v = schema.schemaVersion {
      out += " (schema version \(v)).\n// Open it with Realm.Configuration(schemaVersion: \(v)).\n"
    } else {
      out += ".\n"
    }
    out += "import Foundation\nimport RealmSwift\n"
    for cls in schema.classes {
      out += "\n" + render(cls)
    }
    return out
  }

  /// The Swift declaration of one class.
  public static func render(_ cls: ObjectSchema) -> String {
    let (className, classRenamed) = swiftName(cls.name)
    var out = ""
    if classRenamed { out += "// Stored as class '\(cls.name)'.\n" }
    out += "class \(className): \(cls.isEmbedded ? "EmbeddedObject" : "Object") {\n"
    if classRenamed {
      out += "    override class func _realmObjectName() -> String? { \(literal(cls.name)) }\n"
    }
    var mapping: [(String, String)] = []
    for p in cls.properties {
      let (name, renamed) = swiftName(p.name)
      if renamed { mapping.append((name, p.name)) }
      var attributes = ""
      if p.name == cls.primaryKey {
        attributes = "(primaryKey: true)"
      } else if p.isIndexed {
        attributes = "(indexed: true)"
      }
      out += "    @Persisted\(attributes) var \(name): \(swiftType(p))\n"
    }
    if !mapping.isEmpty {
      out += "\n    override class public func propertiesMapping() -> [String: String] {\n        ["
      out += mapping.map { "\(literal($0.0)): \(literal($0.1))" }.joined(separator: ", ")
      out += "]\n    }\n"
    }
    out += "}\n"
    return out
  }

  /// The Swift type of a property: `String?`, `List<Dog>`, `MutableSet<Int?>`,
  /// `Map<String, Person?>`, `AnyRealmValue`, `Address?`.
  public static func swiftType(_ p: Property) -> String {
    let element: String
    switch p.type {
    case .bool: element = "Bool"
    case .int: element = "Int"
    case .float: element = "Float"
    case .double: element = "Double"
    case .decimal128: element = "Decimal128"
    case .objectId: element = "ObjectId"
    case .uuid: element = "UUID"
    case .string: element = "String"
    case .data: element = "Data"
    case .date: element = "Date"
    case .mixed: element = "AnyRealmValue"
    case .object: element = swiftName(p.objectType ?? "Object").name
    }
    // AnyRealmValue holds its own null; links in lists and sets are never null, single links
    // and dictionary values of objects always may be.
    let optional: Bool
    switch p.collection {
    case .single, .dictionary: optional = p.type == .object || (p.isOptional && p.type != .mixed)
    case .list, .set: optional = p.isOptional && p.type != .mixed && p.type != .object
    }
    let value = optional ? element + "?" : element
    switch p.collection {
    case .single: return value
    case .list: return "List<\(value)>"
    case .set: return "MutableSet<\(value)>"
    case .dictionary: return "Map<String, \(value)>"
    }
  }

  /// A Swift identifier for a stored name and whether it differs from it (backticks for
  /// keywords do not count as a difference).
  static func swiftName(_ name: String) -> (name: String, renamed: Bool) {
    var scalars = String.UnicodeScalarView()
    for (i, s) in name.unicodeScalars.enumerated() {
      let ok = s == "_" || s.properties.isAlphabetic || (i > 0 && s.properties.numericType != nil)
      scalars.append(ok ? s : "_")
    }
    var safe = String(scalars)
    if safe.isEmpty { safe = "_" }
    if keywords.contains(safe) { return ("`\(safe)`", safe != name) }
    return (safe, safe != name)
  }

  private static func literal(_ s: String) -> String {
    var out = "\""
    for c in s.unicodeScalars {
      switch c {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(c)
      }
    }
    return out + "\""
  }

  /// Swift keywords that cannot be property or class names without backticks.
  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init",
    "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol",
    "public",
    "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch",
    "continue",
    "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
    "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
    "super", "throws", "true", "try", "Type", "Protocol",
  ]
}
