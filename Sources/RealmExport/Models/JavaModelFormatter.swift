import RealmModel

/// `schema --format java`: the model classes of Realm Java (`io.realm`), one public class per
/// file, each introduced by a `// File: Name.java` line: `RealmObject` subclasses with private
/// fields and their getters and setters, `@PrimaryKey`, `@Index`, `@Required` (non-null
/// strings, dates, data, BSON types, and collection elements), `@RealmClass(embedded = true)`,
/// `RealmList`, `RealmSet`, `RealmDictionary`, `RealmAny`; names that are not Java identifiers
/// map back with `@RealmClass(name = …)` and `@RealmField(name = …)`.
public enum JavaModelFormatter {
  static let keywords: Set<String> = [
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
    "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
    "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native",
    "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
    "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
    "volatile", "while", "true", "false", "null", "_",
  ]

  static let rules = IdentifierRules(
    isStart: { $0 == "$" || IdentifierRules.letterOrUnderscore($0) },
    isContinue: { $0 == "$" || IdentifierRules.letterDigitOrUnderscore($0) },
    keywords: keywords)

  /// Class names are file names (compared without case on some systems), cannot be the
  /// restricted type identifiers, and may not hide the types the models use.
  static let classRules: IdentifierRules = {
    var r = rules
    r.caseInsensitive = true
    r.forbidden = [
      "var", "yield", "record", "sealed", "permits", "Boolean", "Byte", "Date", "Decimal128", "Double",
      "Float", "Index", "Integer", "Long", "Object", "ObjectId", "PrimaryKey", "RealmAny", "RealmClass",
      "RealmDictionary", "RealmField", "RealmList", "RealmObject", "RealmSet", "Required", "String", "UUID",
    ]
    return r
  }()

  /// The Java sources for the classes of `schema` (all, or the one called `only`), one file
  /// after the other.
  public static func render(_ schema: Schema, only className: String? = nil) -> String {
    let context = ModelContext(schema: schema, only: className, rules: rules, classRules: classRules)
    var out = context.openingComment(
      "Realm Java models", note: ": one public class per file",
      openWith: ["new RealmConfiguration.Builder().schemaVersion(\(context.openVersion)).build()"])
    out += "// Add your package line at the top of each file.\n"
    return context.document(header: out) { "// File: \(context.className($0.name).plain).java\n" + render($0, context) }
  }

  private static func render(_ cls: ObjectSchema, _ context: ModelContext) -> String {
    var imports: Set<String> = ["io.realm.RealmObject"]
    let name = context.className(cls.name)
    var classAnnotation: [String] = []
    if name.isRenamed { classAnnotation.append("name = \(literal(cls.name))") }
    if cls.isEmbedded { classAnnotation.append("embedded = true") }
    var body = ""
    var fields = ""
    var accessors = ""
    var accessorNames = Set(["getClass"])
    for (p, field) in zip(cls.properties, context.propertyNames(cls)) {
      var annotations: [String] = []
      if let key = ModelContext.keyAnnotation(p, in: cls, primaryKey: "PrimaryKey", indexed: "Index") {
        annotations.append(key)
      }
      let (type, initial, required) = declaration(p, context, imports: &imports)
      if required { annotations.append("Required") }
      fields += ModelContext.noFullTextComment(p, sdk: "Realm Java", indent: "    ")
      for a in annotations { imports.insert("io.realm.annotations.\(a)") }
      fields += annotations.map { "    @\($0)\n" }.joined()
      if field.isRenamed {
        imports.insert("io.realm.annotations.RealmField")
        fields += "    @RealmField(name = \(literal(p.name)))\n"
      }
      fields += "    private \(type) \(field.plain)\(initial.map { " = \($0)" } ?? "");\n"
      // One suffix for the pair, free for both (getClass is Object's).
      var suffix = upperFirst(field.plain)
      var n = 2
      while accessorNames.contains("get" + suffix) || accessorNames.contains("set" + suffix) {
        suffix = upperFirst(field.plain) + "_\(n)"
        n += 1
      }
      let getter = "get" + suffix
      let setter = "set" + suffix
      accessorNames.formUnion([getter, setter])
      accessors += "\n    public \(type) \(getter)() { return \(field.plain); }\n"
      accessors += "    public void \(setter)(\(type) value) { this.\(field.plain) = value; }\n"
    }
    body += fields + accessors
    if !classAnnotation.isEmpty { imports.insert("io.realm.annotations.RealmClass") }
    var out = imports.sorted().map { "import \($0);\n" }.joined() + "\n"
    if name.isRenamed { out += "// Stored as class '\(comment(cls.name))'.\n" }
    out += context.linkedFromComment(cls, comment: comment)
    if !classAnnotation.isEmpty { out += "@RealmClass(\(classAnnotation.joined(separator: ", ")))\n" }
    out += "public class \(name.plain) extends RealmObject {\n" + body + "}\n"
    return out
  }

  /// The type, initial value and whether `@Required` applies.
  static func declaration(_ p: Property, _ context: ModelContext, imports: inout Set<String>)
    -> (type: String, initial: String?, required: Bool)
  {
    switch p.collection {
    case .single:
      if p.type == .mixed {
        imports.insert("io.realm.RealmAny")
        return ("RealmAny", "RealmAny.nullValue()", false)
      }
      let required = !p.isOptional && p.type != .object
      if required, let primitive = primitiveType(p.type) { return (primitive, nil, false) }
      return (types.name(of: p, context, imports: &imports), nil, required && p.type != .object)
    case .list, .set, .dictionary:
      let kind = p.collection == .list ? "RealmList" : p.collection == .set ? "RealmSet" : "RealmDictionary"
      imports.insert("io.realm.\(kind)")
      let required = !p.isOptional && p.type != .object && p.type != .mixed
      let element = types.name(of: p, context, imports: &imports)
      return ("\(kind)<\(element)>", "new \(kind)<>()", required)
    }
  }

  private static func primitiveType(_ t: PropertyType) -> String? {
    switch t {
    case .bool: return "boolean"
    case .int: return "long"
    case .float: return "float"
    case .double: return "double"
    default: return nil
    }
  }

  /// Boxed types (collection elements, optional values).
  static let types = TypeNames(
    names: [
      .bool: "Boolean", .int: "Long", .float: "Float", .double: "Double", .string: "String", .data: "byte[]",
      .date: "Date", .decimal128: "Decimal128", .objectId: "ObjectId", .uuid: "UUID", .mixed: "RealmAny",
    ],
    imports: [
      .date: "java.util.Date", .decimal128: "org.bson.types.Decimal128", .objectId: "org.bson.types.ObjectId",
      .uuid: "java.util.UUID", .mixed: "io.realm.RealmAny",
    ])

  private static func upperFirst(_ s: String) -> String {
    guard let first = s.first else { return s }
    return first.uppercased() + s.dropFirst()
  }

  /// Comment text: `\` doubled, since Java reads `\u` escapes even in comments.
  private static func comment(_ s: String) -> String {
    var out = ""
    for c in ModelContext.commentText(s) { out += c == "\\" ? "\\\\" : String(c) }
    return out
  }

  private static func literal(_ s: String) -> String { ModelContext.quoted(s, controls: .octal) }
}
