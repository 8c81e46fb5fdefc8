import RealmModel

/// The checks Realm makes on an app's schema before it opens any file with it
/// ("Schema validation failed due to the following errors:"), for the rules a schema document
/// or a plan can break: primary keys and indexes on types that cannot have them, embedded
/// classes with a primary key, sets of embedded objects. Messages are Realm's, in its order
/// (classes by name, properties in order).
enum AppSchemaValidation {
  /// Realm's message, nil when the schema is valid.
  static func message(for schema: Schema) -> String? {
    var errors: [String] = []
    for cls in schema.classes.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
      for p in cls.properties {
        let type = SchemaChange.typeString(p)
        if p.name == cls.primaryKey {
          if p.collection != .single || ![.int, .string, .objectId, .uuid].contains(p.type) {
            errors.append("Property '\(cls.name).\(p.name)' of type '\(type)' cannot be made the primary key.")
          }
        } else if p.isIndexed && (p.collection != .single || ![.int, .bool, .string, .objectId, .uuid, .date, .mixed].contains(p.type)) {
          errors.append("Property '\(cls.name).\(p.name)' of type '\(type)' cannot be indexed.")
        }
        if p.collection == .set, p.type == .object, let target = p.objectType,
          schema.objectSchema(named: target)?.isEmbedded == true
        {
          errors.append(
            "Set property '\(cls.name).\(p.name)' cannot contain embedded object type '\(target)'. "
              + "Set semantics are not applicable to embedded objects.")
        }
      }
      if cls.isEmbedded && cls.primaryKey != nil {
        errors.append("Embedded object type '\(cls.name)' cannot have a primary key.")
      }
    }
    guard !errors.isEmpty else { return nil }
    return (["Schema validation failed due to the following errors:"] + errors.map { "- " + $0 }).joined(separator: "\n")
  }
}
