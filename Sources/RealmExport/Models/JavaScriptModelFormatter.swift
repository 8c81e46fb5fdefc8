import RealmModel

/// `schema --format javascript` and `--format typescript`: Realm JS model classes as the
/// current SDK documents them, an ES module of classes that extend `Realm.Object` with a
/// `static schema` (TypeScript adds typed fields and `Realm.Object<T>`): shorthand types
/// (`"string?"`, `"Dog[]"`, `"int<>"`, `"double{}"`) or the object form where a property is
/// indexed or renamed (`mapTo`), `primaryKey`, `embedded: true`. The module also exports the
/// class list and the schema version to open the file with.
public enum JavaScriptModelFormatter {
  static let reservedWords: Set<String> = [
    "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do",
    "else", "export", "extends", "false", "finally", "for", "function", "if", "import", "in",
    "instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true", "try",
    "typeof", "var", "void", "while", "with", "yield", "let", "static", "implements", "interface",
    "package", "private", "protected", "public", "await", "enum", "arguments", "eval",
  ]

  /// Property keys: any identifier name (reserved words too), except members every
  /// `Realm.Object` has and `constructor`.
  static let rules = IdentifierRules(
    isStart: { $0 == "$" || $0 == "_" || $0.properties.isIDStart },
    isContinue: { $0 == "$" || $0 == "_" || $0 == "\u{200C}" || $0 == "\u{200D}" || $0.properties.isIDContinue },
    keywords: [],
    forbidden: [
      "constructor", "__proto__", "keys", "entries", "toJSON", "isValid", "objectSchema", "linkingObjects",
      "linkingObjectsCount", "addListener", "removeListener", "removeAllListeners", "getPropertyType",
      "_objectKey",
    ])

  /// Class names are bindings: no reserved words, no names the module or TypeScript uses.
  static let classRules: IdentifierRules = {
    var r = rules
    r.keywords = reservedWords
    r.forbidden = [
      "Realm", "BSON", "ObjectSchema", "Object", "Date", "ArrayBuffer", "schema", "schemaVersion", "any",
      "number", "string", "boolean", "symbol", "never", "unknown", "object", "bigint", "undefined",
      "String", "Number", "Boolean", "Symbol", "BigInt", "Array", "Map", "Set", "Promise", "Function",
      "Error", "JSON", "Math", "RegExp",
    ]
    return r
  }()

  /// The primitive type names of Realm JS schemas (a class of that name can only be named in
  /// the object form).
  static let typeNames: Set<String> = [
    "bool", "int", "float", "double", "decimal128", "objectId", "string", "data", "date", "mixed", "uuid",
    "list", "set", "dictionary", "object", "linkingObjects",
  ]

  /// The module for the classes of `schema` (all, or the one called `only`).
  public static func render(_ schema: Schema, only className: String? = nil, typeScript: Bool) -> String {
    let context = ModelContext(schema: schema, only: className, rules: rules, classRules: classRules)
    var usesBSON = false
    var body = ""
    for cls in context.classes {
      body += "\n" + render(cls, context, typeScript: typeScript, usesBSON: &usesBSON)
    }
    let classList = context.classes.map { context.className($0.name).plain }.joined(separator: ", ")
    var out = context.openingComment(
      "Realm JS models\(typeScript ? " with TypeScript types" : "")", openWith: ["const realm = await Realm.open({ schema, schemaVersion });"])
    if typeScript {
      out += "import Realm, { \(usesBSON ? "BSON, " : "")ObjectSchema } from \"realm\";\n"
    } else {
      out += "import Realm from \"realm\";\n"
    }
    out += body
    out += "\nexport const schema = [\(classList)];\n"
    out += "export const schemaVersion = \(context.openVersion);\n"
    return out
  }

  private static func render(
    _ cls: ObjectSchema, _ context: ModelContext, typeScript: Bool, usesBSON: inout Bool
  ) -> String {
    let name = context.className(cls.name).plain
    let propertyNames = context.propertyNames(cls)
    var out = context.linkedFromComment(cls)
    out += "export class \(name) extends Realm.Object\(typeScript ? "<\(name)>" : "") {\n"
    if typeScript {
      for (p, key) in zip(cls.properties, propertyNames) {
        let (type, optional) = typeScriptType(p, context, usesBSON: &usesBSON)
        out += "  \(key.plain)\(optional ? "?" : "!"): \(type);\n"
      }
      out += "\n"
    }
    out += "  static schema\(typeScript ? ": ObjectSchema" : "") = {\n"
    out += "    name: \(literal(cls.name)),\n"
    if cls.isEmbedded { out += "    embedded: true,\n" }
    if let pk = cls.primaryKey, let i = cls.properties.firstIndex(where: { $0.name == pk }) {
      out += "    primaryKey: \(literal(propertyNames[i].plain)),\n"
    }
    out += "    properties: {\n"
    for (p, key) in zip(cls.properties, propertyNames) {
      out += "      \(key.plain): \(schemaValue(p, key, isPrimaryKey: p.name == cls.primaryKey)),\n"
    }
    out += "    },\n  };\n}\n"
    return out
  }

  /// `"string?"`, `"Dog[]"`, or `{ type: "list", objectType: "int", optional: true, … }`.
  static func schemaValue(_ p: Property, _ key: MappedName, isPrimaryKey: Bool) -> String {
    let element = p.type == .object ? (p.objectType ?? "") : p.type.rawValue
    let elementIsShorthand =
      p.type != .object || (rules.accepts(element) && !typeNames.contains(element))
    let primitiveOptional = p.isOptional && p.type != .object && p.type != .mixed
    let indexed = p.isIndexed && !isPrimaryKey
    if elementIsShorthand && !indexed && !p.isFullTextIndexed && !key.isRenamed {
      var text = element
      if primitiveOptional || (p.type == .object && p.collection == .single) { text += "?" }
      switch p.collection {
      case .single: break
      case .list: text += "[]"
      case .set: text += "<>"
      case .dictionary: text += "{}"
      }
      return literal(text)
    }
    var fields: [String] = []
    if p.collection == .single {
      fields.append("type: \(literal(element))")
      if p.type == .object { fields = ["type: \"object\"", "objectType: \(literal(element))"] }
    } else {
      let kind = p.collection == .list ? "list" : p.collection == .set ? "set" : "dictionary"
      fields.append("type: \"\(kind)\"")
      fields.append("objectType: \(literal(element))")
    }
    if primitiveOptional { fields.append("optional: true") }
    if indexed { fields.append("indexed: true") }
    if p.isFullTextIndexed { fields.append("indexed: \"full-text\"") }
    if key.isRenamed { fields.append("mapTo: \(literal(p.name))") }
    return "{ " + fields.joined(separator: ", ") + " }"
  }

  /// The TypeScript type of a field and whether it is declared optional (`?`).
  static let typeScriptTypes = TypeNames(names: [
    .bool: "boolean", .int: "number", .float: "number", .double: "number", .string: "string", .data: "ArrayBuffer",
    .date: "Date", .decimal128: "BSON.Decimal128", .objectId: "BSON.ObjectId", .uuid: "BSON.UUID",
    .mixed: "Realm.Types.Mixed",
  ])

  static func typeScriptType(_ p: Property, _ context: ModelContext, usesBSON: inout Bool) -> (String, Bool) {
    var element = typeScriptTypes.name(of: p, context)
    if [.decimal128, .objectId, .uuid].contains(p.type) { usesBSON = true }
    switch p.collection {
    case .single:
      return (element, p.type != .mixed && (p.isOptional || p.type == .object))
    case .list, .set, .dictionary:
      if ModelContext.elementIsNullable(p) { element += " | null" }
      let kind = p.collection == .list ? "List" : p.collection == .set ? "Set" : "Dictionary"
      return ("Realm.\(kind)<\(element)>", false)
    }
  }

  private static func literal(_ s: String) -> String { ModelContext.quoted(s) }
}
