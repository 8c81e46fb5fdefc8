import RealmModel

/// `schema --format kotlin`: the model classes of the Realm Kotlin SDK (`io.realm.kotlin`):
/// `RealmObject` / `EmbeddedRealmObject` classes whose properties are `var`s with default values
/// (`RealmList`, `RealmSet`, `RealmDictionary`, `RealmInstant`, `RealmUUID`, `RealmAny`,
/// `ObjectId` and `Decimal128` from `org.mongodb.kbson`), `@PrimaryKey`, `@Index`, `@FullText`, and
/// `@PersistedName` for names that are not Kotlin identifiers (keywords are written in
/// backticks).
public enum KotlinModelFormatter {
  static let rules: IdentifierRules = {
    var r = IdentifierRules(
      isStart: IdentifierRules.letterOrUnderscore, isContinue: IdentifierRules.letterDigitOrUnderscore,
      keywords: [
        "as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in",
        "interface", "is", "null", "object", "package", "return", "super", "this", "throw", "true",
        "try", "typealias", "typeof", "val", "var", "when", "while",
      ],
      forbidden: ["_"], escape: { "`\($0)`" })
    r.accessorsCollide = true  // found by compiling the models with kotlinc
    return r
  }()

  /// Class names may not hide the types the models use.
  static let classRules: IdentifierRules = {
    var r = rules
    r.forbidden.formUnion([
      "Any", "Boolean", "ByteArray", "Decimal128", "Double", "EmbeddedRealmObject", "Float", "FullText", "Index",
      "Long", "ObjectId", "PersistedName", "PrimaryKey", "RealmAny", "RealmDictionary", "RealmInstant",
      "RealmList", "RealmObject", "RealmSet", "RealmUUID", "String",
    ])
    r.escape = nil
    r.accessorsCollide = false
    r.caseInsensitive = true  // class files are files
    return r
  }()

  /// The Kotlin source for the classes of `schema` (all, or the one called `only`).
  public static func render(_ schema: Schema, only className: String? = nil) -> String {
    let context = ModelContext(schema: schema, only: className, rules: rules, classRules: classRules)
    var imports = Set<String>()
    var body = ""
    for cls in context.classes {
      body += "\n" + render(cls, context, imports: &imports)
    }
    let classList = context.classes.map { context.className($0.name).code + "::class" }.joined(separator: ", ")
    var out = context.openingComment(
      "Realm Kotlin models",
      openWith: ["RealmConfiguration.Builder(schema = setOf(\(classList)))", "    .schemaVersion(\(context.openVersion))", "    .build()"])
    out += imports.sorted().map { "import \($0)\n" }.joined()
    return out + body
  }

  private static func render(_ cls: ObjectSchema, _ context: ModelContext, imports: inout Set<String>) -> String {
    let name = context.className(cls.name)
    var out = context.linkedFromComment(cls)
    if name.isRenamed {
      imports.insert("io.realm.kotlin.types.annotations.PersistedName")
      out += "@PersistedName(\(literal(cls.name)))\n"
    }
    let base = cls.isEmbedded ? "EmbeddedRealmObject" : "RealmObject"
    imports.insert("io.realm.kotlin.types.\(base)")
    out += "class \(name.code) : \(base) {\n"
    for (p, property) in zip(cls.properties, context.propertyNames(cls)) {
      if let key = ModelContext.keyAnnotation(p, in: cls, primaryKey: "PrimaryKey", indexed: "Index", fullText: "FullText") {
        imports.insert("io.realm.kotlin.types.annotations.\(key)")
        out += "    @\(key)\n"
      }
      if property.isRenamed {
        imports.insert("io.realm.kotlin.types.annotations.PersistedName")
        out += "    @PersistedName(\(literal(p.name)))\n"
      }
      let (type, initial) = declaration(p, context, imports: &imports)
      out += "    var \(property.code): \(type) = \(initial)\n"
    }
    return out + "}\n"
  }

  /// The type and default value of a property.
  static func declaration(_ p: Property, _ context: ModelContext, imports: inout Set<String>) -> (String, String) {
    switch p.collection {
    case .single:
      if p.isOptional || p.type == .object || p.type == .mixed {
        return (types.name(of: p, context, imports: &imports) + "?", "null")
      }
      return (types.name(of: p, context, imports: &imports), defaultValue(p.type, imports: &imports))
    case .list, .set, .dictionary:
      // Objects in lists and sets are never null; in dictionaries they may be.
      let nullable = p.type == .mixed || ModelContext.elementIsNullable(p)  // RealmAny? always
      let element = types.name(of: p, context, imports: &imports) + (nullable ? "?" : "")
      let (kind, factory) =
        switch p.collection {
        case .list: ("RealmList", "realmListOf")
        case .set: ("RealmSet", "realmSetOf")
        default: ("RealmDictionary", "realmDictionaryOf")
        }
      imports.insert("io.realm.kotlin.types.\(kind)")
      imports.insert("io.realm.kotlin.ext.\(factory)")
      return ("\(kind)<\(element)>", "\(factory)()")
    }
  }

  static let types = TypeNames(
    names: [
      .bool: "Boolean", .int: "Long", .float: "Float", .double: "Double", .string: "String", .data: "ByteArray",
      .date: "RealmInstant", .decimal128: "Decimal128", .objectId: "ObjectId", .uuid: "RealmUUID", .mixed: "RealmAny",
    ],
    imports: [
      .date: "io.realm.kotlin.types.RealmInstant", .decimal128: "org.mongodb.kbson.Decimal128",
      .objectId: "org.mongodb.kbson.ObjectId", .uuid: "io.realm.kotlin.types.RealmUUID",
      .mixed: "io.realm.kotlin.types.RealmAny",
    ])

  private static func defaultValue(_ type: PropertyType, imports: inout Set<String>) -> String {
    switch type {
    case .bool: return "false"
    case .int: return "0"
    case .float: return "0.0f"
    case .double: return "0.0"
    case .string: return "\"\""
    case .data: return "byteArrayOf()"
    case .date: return "RealmInstant.from(0, 0)"
    case .decimal128: return "Decimal128(\"0\")"
    case .objectId: return "ObjectId()"
    case .uuid: return "RealmUUID.random()"
    case .mixed, .object: return "null"
    }
  }

  private static func literal(_ s: String) -> String { ModelContext.quoted(s, escapeDollar: true) }
}
