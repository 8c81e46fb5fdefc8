import RealmModel

/// Parses the Realm JS property type notation used in plans: `int`, `string?`, `Dog`, `Dog[]`,
/// `int?[]`, `string<>`, `int{}`, `mixed`, ...
enum PropertyNotation {
  /// The primitive type names of the notation (Realm JS vocabulary).
  static let primitives: [String: PropertyType] = [
    "bool": .bool, "int": .int, "float": .float, "double": .double, "decimal128": .decimal128,
    "objectId": .objectId, "uuid": .uuid, "string": .string, "data": .data, "date": .date,
    "mixed": .mixed,
  ]

  /// The result of parsing: everything but the name and the index flag.
  struct Parsed: Equatable {
    var type: PropertyType
    var collection: CollectionKind
    var objectType: String?
    var isOptional: Bool
  }

  /// Parses `text`; `isClass` tells whether a name is a class of the target schema.
  /// Returns an error message for unknown names.
  static func parse(_ text: String, isClass: (String) -> Bool) -> Result<Parsed, MigrationError> {
    var base = Substring(text)
    var collection = CollectionKind.single
    if base.hasSuffix("[]") {
      collection = .list
      base = base.dropLast(2)
    } else if base.hasSuffix("<>") {
      collection = .set
      base = base.dropLast(2)
    } else if base.hasSuffix("{}") {
      collection = .dictionary
      base = base.dropLast(2)
    }
    var optional = false
    if base.hasSuffix("?") {
      optional = true
      base = base.dropLast()
    }
    let name = String(base)
    if let p = primitives[name] {
      // Mixed always holds null.
      return .success(Parsed(type: p, collection: collection, objectType: nil, isOptional: optional || p == .mixed))
    }
    guard isClass(name) else {
      let candidates = Array(primitives.keys) + []
      var message = "unknown type '\(text)'"
      if let s = Suggestion.closest(to: name, among: candidates) { message += " (did you mean '\(s)'?)" }
      return .failure(MigrationError(.invalidPlan, message))
    }
    // Links: single links and dictionary values are always optional; list and set elements never.
    let linkOptional = collection == .single || collection == .dictionary
    return .success(Parsed(type: .object, collection: collection, objectType: name, isOptional: linkOptional))
  }

  /// The notation for a property (inverse of ``parse(_:isClass:)``).
  static func notation(of p: Property) -> String {
    let base = p.type == .object ? (p.objectType ?? "?") : p.type.rawValue
    let opt = p.isOptional && p.type != .mixed && !(p.type == .object && p.collection != .list && p.collection != .set) ? "?" : ""
    switch p.collection {
    case .single: return base + opt
    case .list: return base + opt + "[]"
    case .set: return base + opt + "<>"
    case .dictionary: return base + opt + "{}"
    }
  }
}
