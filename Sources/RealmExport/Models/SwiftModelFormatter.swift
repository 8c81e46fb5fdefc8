import RealmModel

/// `schema --format swift`: the Realm Swift model classes an app declares for the file, ready
/// to paste: `Object` / `EmbeddedObject` subclasses with `@Persisted` properties
/// (`primaryKey: true`, `indexed: true`), `List`, `MutableSet`, `Map<String, …>`, optionals and
/// `AnyRealmValue`, in the file's column order.
///
/// Names that are Swift keywords are written in backticks; names that are not Swift
/// identifiers (or that `Object` already uses, like `description`) get a Swift-safe name that
/// collides with no other, and a `propertiesMapping()` entry back to the stored name; classes
/// are renamed with `_realmObjectName()`.
public enum SwiftModelFormatter {
  static let rules = IdentifierRules(
    isStart: IdentifierRules.letterOrUnderscore, isContinue: IdentifierRules.letterDigitOrUnderscore,
    keywords: keywords,
    forbidden: [
      "description", "debugDescription", "hash", "hashValue", "realm", "objectSchema", "isInvalidated",
      "isFrozen", "freeze", "thaw", "observe",
    ],
    escape: { "`\($0)`" })

  /// Class names may not hide the types the models use.
  static let classRules: IdentifierRules = {
    var r = rules
    r.forbidden = [
      "AnyRealmValue", "Bool", "Data", "Date", "Decimal128", "Double", "EmbeddedObject", "Float", "Int",
      "List", "Map", "MutableSet", "Object", "ObjectId", "Persisted", "String", "UUID",
    ]
    r.escape = nil
    return r
  }()

  /// The Swift source for the classes of `schema` (all, or the one called `only`).
  public static func render(_ schema: Schema, only className: String? = nil) -> String {
    var out = "// Realm Swift models for this file"
    if let v = schema.schemaVersion {
      out += " (schema version \(v)).\n// Open it with Realm.Configuration(schemaVersion: \(v)).\n"
    } else {
      out += ".\n"
    }
    out += "import Foundation\nimport RealmSwift\n"
    let context = ModelContext(schema: schema, only: className, rules: rules, classRules: classRules)
    return context.document(header: out) { render($0, context) }
  }

  /// The Swift declaration of one class on its own (links name their targets as they are).
  public static func render(_ cls: ObjectSchema) -> String {
    let schema = Schema(schemaVersion: nil, fileFormat: 0, classes: [cls])
    return render(cls, ModelContext(schema: schema, only: cls.name, rules: rules, classRules: classRules))
  }

  private static func render(_ cls: ObjectSchema, _ context: ModelContext) -> String {
    let className = context.className(cls.name)
    var out = ""
    if className.isRenamed { out += "// Stored as class '\(ModelContext.commentText(cls.name))'.\n" }
    out += context.linkedFromComment(cls)
    out += "class \(className.code): \(cls.isEmbedded ? "EmbeddedObject" : "Object") {\n"
    if className.isRenamed {
      out += "    override class func _realmObjectName() -> String? { \(literal(cls.name)) }\n"
    }
    var mapping: [(String, String)] = []
    for (p, name) in zip(cls.properties, context.propertyNames(cls)) {
      if name.isRenamed { mapping.append((name.plain, p.name)) }
      let attributes = ModelContext.keyAnnotation(p, in: cls, primaryKey: "(primaryKey: true)", indexed: "(indexed: true)") ?? ""
      out += ModelContext.noFullTextComment(p, sdk: "Realm Swift", indent: "    ")
      out += "    @Persisted\(attributes) var \(name.code): \(swiftType(p, context))\n"
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
  static let types = TypeNames(names: [
    .bool: "Bool", .int: "Int", .float: "Float", .double: "Double", .decimal128: "Decimal128",
    .objectId: "ObjectId", .uuid: "UUID", .string: "String", .data: "Data", .date: "Date", .mixed: "AnyRealmValue",
  ])

  static func swiftType(_ p: Property, _ context: ModelContext) -> String {
    let element = types.name(of: p, context)
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

  private static func literal(_ s: String) -> String { ModelContext.quoted(s, controls: .swift) }

  /// Swift keywords that cannot be property or class names without backticks.
  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
    "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break",
    "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard",
    "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
    "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol",
  ]
}
