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
      if let s = SpellingSuggestion.closest(to: name, in: candidates) { message += " (did you mean '\(s)'?)" }
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

/// Edit-distance suggestions for misspelled names.
public enum SpellingSuggestion {
  /// The candidate closest to `word`, if it is close enough to be a plausible typo.
  public static func closest(to word: String, in candidates: [String]) -> String? {
    var best: (String, Int)?
    for c in candidates {
      let d = distance(Array(word.lowercased().utf8), Array(c.lowercased().utf8))
      if d <= max(2, word.utf8.count / 3), d < (best?.1 ?? Int.max) { best = (c, d) }
    }
    return best?.0
  }

  /// Levenshtein distance between two byte strings.
  static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count)
    var cur = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      cur[0] = i
      for j in 1...b.count {
        cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&prev, &cur)
    }
    return prev[b.count]
  }
}
