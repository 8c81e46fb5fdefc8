import RealmModel

/// `schema --format dart`: the models of Realm Flutter/Dart (`package:realm`), as the SDK's
/// generator expects them: private classes `_Name` annotated `@RealmModel()` (the generator
/// writes the public `Name` into the `part` file), `late` required fields, nullable optional ones,
/// `List`, `Set`, `Map<String, …>`, `RealmValue`, `@PrimaryKey()`, `@Indexed()`, `@Indexed(RealmIndexType.fullText)`, and `@MapTo` for
/// names that are not public Dart identifiers (a leading `_` makes a Dart name private, so
/// `_id` is declared `id` with `@MapTo('_id')`).
///
/// Realm Flutter has no 32-bit float type: float properties are declared `double`, with a
/// comment, and the app needs a migration to open such a file.
public enum DartModelFormatter {
  /// Reserved words and the built-in identifiers that cannot name a type.
  static let reservedWords: Set<String> = [
    "assert", "break", "case", "catch", "class", "const", "continue", "default", "do", "else", "enum",
    "extends", "false", "final", "finally", "for", "if", "in", "is", "new", "null", "rethrow", "return",
    "super", "switch", "this", "throw", "true", "try", "var", "void", "while", "with", "await", "yield",
  ]

  /// Dart identifiers are ASCII (`$` is left out too: the generator copies names into string
  /// literals, where it would start an interpolation). Fields may not take the names of the
  /// members every Realm object has, nor of the types the models use (a field hides a type
  /// of the same name inside its class).
  static let rules = IdentifierRules(
    isStart: IdentifierRules.asciiLetterOrUnderscore, isContinue: IdentifierRules.asciiLetterDigitOrUnderscore,
    keywords: reservedWords,
    forbidden: [
      "realm", "isValid", "isManaged", "isFrozen", "changes", "changesFor", "objectSchema", "freeze",
      "hashCode", "runtimeType", "toString", "noSuchMethod", "toEJson", "schema", "dynamic", "bool", "int",
      "double", "num", "String", "DateTime", "Decimal128", "ObjectId", "Uuid", "RealmValue", "Uint8List",
      "List", "Set", "Map", "Object",
    ],
    dropsLeadingUnderscores: true, startPrefix: "x", transliterates: true)

  /// Class names become the generated public class `Name` (declared `_Name`).
  static let classRules: IdentifierRules = {
    var r = rules
    r.forbidden = [
      "abstract", "as", "covariant", "deferred", "dynamic", "export", "extension", "external", "factory",
      "Function", "get", "implements", "import", "interface", "late", "library", "mixin", "operator",
      "part", "required", "set", "static", "typedef", "Decimal128", "DateTime", "List", "Map", "Object",
      "ObjectId", "RealmIndexType", "RealmValue", "Set", "String", "Uint8List", "Uuid", "bool", "double", "int", "num",
    ]
    return r
  }()

  /// The Dart library for the classes of `schema` (all, or the one called `only`).
  public static func render(_ schema: Schema, only className: String? = nil) -> String {
    let context = ModelContext(schema: schema, only: className, rules: rules, classRules: classRules)
    let usesData = context.classes.contains { $0.properties.contains { $0.type == .data } }
    let schemas = context.classes.map { context.className($0.name).plain + ".schema" }.joined(separator: ", ")
    var out = "// Realm Flutter/Dart models for this file (\(context.versionText)).\n"
    out += "// Save as models.dart and run `dart run realm generate` (it writes models.realm.dart),\n"
    out += "// then open the file with:\n"
    out += "//   Realm(Configuration.local([\(schemas)], schemaVersion: \(context.openVersion)))\n"
    if usesData { out += "import 'dart:typed_data';\n\n" }
    out += "import 'package:realm/realm.dart';\n\npart 'models.realm.dart';\n"
    return context.document(header: out) { render($0, context) }
  }

  private static func render(_ cls: ObjectSchema, _ context: ModelContext) -> String {
    let name = context.className(cls.name)
    var out = context.linkedFromComment(cls)
    out += cls.isEmbedded ? "@RealmModel(ObjectType.embeddedObject)\n" : "@RealmModel()\n"
    if name.isRenamed { out += "@MapTo(\(literal(cls.name)))\n" }
    out += "class _\(name.plain) {\n"
    for (p, field) in zip(cls.properties, context.propertyNames(cls)) {
      if let key = ModelContext.keyAnnotation(p, in: cls, primaryKey: "@PrimaryKey()", indexed: "@Indexed()", fullText: "@Indexed(RealmIndexType.fullText)") {
        out += "  \(key)\n"
      }
      if field.isRenamed { out += "  @MapTo(\(literal(p.name)))\n" }
      let (type, isLate) = dartType(p, context)
      let note = p.type == .float ? " // float in the file: Realm Flutter has no 32-bit float type" : ""
      out += "  \(isLate ? "late " : "")\(type) \(field.plain);\(note)\n"
    }
    return out + "}\n"
  }

  /// The declared type of a field and whether it is `late` (required values, collections,
  /// `RealmValue`).
  static let types = TypeNames(names: [
    .bool: "bool", .int: "int", .float: "double", .double: "double", .string: "String", .data: "Uint8List",
    .date: "DateTime", .decimal128: "Decimal128", .objectId: "ObjectId", .uuid: "Uuid", .mixed: "RealmValue",
  ])

  static func dartType(_ p: Property, _ context: ModelContext) -> (String, Bool) {
    // Models name the private model class of a link's target (`_Dog`).
    var element = (p.type == .object ? "_" : "") + types.name(of: p, context)
    switch p.collection {
    case .single:
      if p.type == .mixed { return (element, true) }
      if p.isOptional || p.type == .object { return (element + "?", false) }
      return (element, true)
    case .list, .set, .dictionary:
      // Objects in lists and sets are never null; in maps they are nullable; RealmValue holds
      // its own null.
      if ModelContext.elementIsNullable(p) { element += "?" }
      switch p.collection {
      case .list: return ("List<\(element)>", true)
      case .set: return ("Set<\(element)>", true)
      default: return ("Map<String, \(element)>", true)
      }
    }
  }

  private static func literal(_ s: String) -> String {
    ModelContext.quoted(s, quote: "'", escapeDollar: true)
  }
}
