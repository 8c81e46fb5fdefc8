import RealmModel

/// `schema --format csharp`: the model classes of Realm .NET with its source generator and
/// nullability annotations (`#nullable enable`): `partial class Name : IRealmObject` (or
/// `IEmbeddedObject`) with auto-properties, `IList`/`ISet`/`IDictionary<string, …>` collections
/// (get-only), `RealmValue`, BSON `ObjectId` and `Decimal128`, `Guid`, `DateTimeOffset`,
/// `[PrimaryKey]`, `[Indexed]`, `[Indexed(IndexType.FullText)]`, and `[MapTo]` for names that are not C# identifiers (keywords
/// included) or that a model class already uses.
public enum CSharpModelFormatter {
  static let keywords: Set<String> = [
    "abstract", "as", "base", "bool", "break", "byte", "case", "catch", "char", "checked", "class",
    "const", "continue", "decimal", "default", "delegate", "do", "double", "else", "enum", "event",
    "explicit", "extern", "false", "finally", "fixed", "float", "for", "foreach", "goto", "if",
    "implicit", "in", "int", "interface", "internal", "is", "lock", "long", "namespace", "new", "null",
    "object", "operator", "out", "override", "params", "private", "protected", "public", "readonly",
    "ref", "return", "sbyte", "sealed", "short", "sizeof", "stackalloc", "static", "string", "struct",
    "switch", "this", "throw", "true", "try", "typeof", "uint", "ulong", "unchecked", "unsafe",
    "ushort", "using", "virtual", "void", "volatile", "while",
  ]

  static let rules = IdentifierRules(
    isStart: IdentifierRules.letterOrUnderscore, isContinue: IdentifierRules.letterDigitOrUnderscore,
    keywords: keywords,
    forbidden: [
      "Realm", "ObjectSchema", "IsManaged", "IsValid", "IsFrozen", "BacklinksCount", "DynamicApi",
      "Accessor", "ObjectMetadata", "PropertyChanged", "Equals", "GetHashCode", "GetType", "ToString",
      "OnManaged", "OnPropertyChanged", "RaisePropertyChanged", "SetManagedAccessor", "GetBacklinks",
    ])

  /// Class names may not hide the types the models use.
  static let classRules: IdentifierRules = {
    var r = rules
    r.forbidden = [
      "DateTimeOffset", "Decimal128", "Guid", "IDictionary", "IEmbeddedObject", "IList", "IRealmObject",
      "ISet", "IndexType", "Indexed", "MapTo", "ObjectId", "PrimaryKey", "Realm", "RealmValue", "String", "System",
      "MongoDB", "Realms",
    ]
    return r
  }()

  /// The C# source for the classes of `schema` (all, or the one called `only`).
  public static func render(_ schema: Schema, only className: String? = nil) -> String {
    let context = ModelContext(schema: schema, only: className, rules: rules, classRules: classRules)
    var out = context.openingComment(
      "Realm .NET models", openWith: ["var config = new RealmConfiguration(path) { SchemaVersion = \(context.openVersion) };"])
    out += "#nullable enable\nusing System;\nusing System.Collections.Generic;\nusing MongoDB.Bson;\nusing Realms;\n"
    return context.document(header: out) { render($0, context) }
  }

  private static func render(_ cls: ObjectSchema, _ context: ModelContext) -> String {
    let name = context.className(cls.name)
    var out = context.linkedFromComment(cls)
    if name.isRenamed { out += "[MapTo(\(literal(cls.name)))]\n" }
    out += "public partial class \(name.plain) : \(cls.isEmbedded ? "IEmbeddedObject" : "IRealmObject")\n{\n"
    // A member may not have the name of its class.
    let fields = context.propertyNames(cls, taken: [name.plain])
    var first = true
    for (p, field) in zip(cls.properties, fields) {
      if !first { out += "\n" }
      first = false
      if let key = ModelContext.keyAnnotation(p, in: cls, primaryKey: "[PrimaryKey]", indexed: "[Indexed]", fullText: "[Indexed(IndexType.FullText)]") {
        out += "    \(key)\n"
      }
      if field.isRenamed { out += "    [MapTo(\(literal(p.name)))]\n" }
      out += "    public \(declaration(p, context)) \(field.plain) \(accessors(p))\n"
    }
    return out + "}\n"
  }

  /// `{ get; set; }`, get-only for collections, with `= null!;` where a non-null reference
  /// type has no value before the object is managed.
  private static func accessors(_ p: Property) -> String {
    if p.collection != .single { return "{ get; } = null!;" }
    if !p.isOptional && (p.type == .string || p.type == .data) { return "{ get; set; } = null!;" }
    return "{ get; set; }"
  }

  /// The C# type of a property.
  static let types = TypeNames(names: [
    .bool: "bool", .int: "long", .float: "float", .double: "double", .string: "string", .data: "byte[]",
    .date: "DateTimeOffset", .decimal128: "Decimal128", .objectId: "ObjectId", .uuid: "Guid", .mixed: "RealmValue",
  ])

  static func declaration(_ p: Property, _ context: ModelContext) -> String {
    var element = types.name(of: p, context)
    switch p.collection {
    case .single:
      if p.type != .mixed && (p.isOptional || p.type == .object) { element += "?" }
      return element
    case .list, .set, .dictionary:
      if ModelContext.elementIsNullable(p) { element += "?" }
      switch p.collection {
      case .list: return "IList<\(element)>"
      case .set: return "ISet<\(element)>"
      default: return "IDictionary<string, \(element)>"
      }
    }
  }

  private static func literal(_ s: String) -> String { ModelContext.quoted(s) }
}
