import RealmFormat
import RealmModel
import RealmQuery
import RealmMigration

/// The checks Realm makes on the data when it migrates a file with no migration block: a new
/// primary key must have unique values, and a class made embedded must have exactly one parent
/// per object. Run by ``AppSchemaCheck/checkingData(in:)`` when Realm would migrate on open.
enum AppSchemaDataCheck {
  /// Realm's message for the first change whose data Realm would refuse, nil when none.
  static func firstFailure(_ changes: [SchemaChange], fileSchema: Schema, group: Group) throws -> String? {
    for change in changes {
      switch change {
      case .changePrimaryKey(let c, _, let new?):
        if try hasDuplicates(className: c, property: new, fileSchema: fileSchema, group: group) {
          return "Primary key property '\(c).\(new)' has duplicate values after migration."
        }
      case .changeClassType(let c, toEmbedded: true):
        if let message = try parentProblem(className: c, fileSchema: fileSchema, group: group) { return message }
      default: break
      }
    }
    return nil
  }

  /// True when the file's values of `property` repeat (memory: one entry per distinct value).
  private static func hasDuplicates(className: String, property: String, fileSchema: Schema, group: Group) throws -> Bool {
    guard let cls = fileSchema.objectSchema(named: className), let table = group.table(forClass: className),
      let index = cls.properties.firstIndex(where: { $0.name == property })
    else { return false }
    var seen = Set<PrimaryKeyValue>()
    var duplicate = false
    struct Found: Error {}
    do {
      try group.forEachObject(in: table, columns: [index]) { _, values in
        guard index < values.count else { return }
        if !seen.insert(PrimaryKeyValue(values[index])).inserted {
          duplicate = true
          throw Found()
        }
      }
    } catch is Found {}
    return duplicate
  }

  /// Realm's message for the first object (in key order) without exactly one incoming link.
  private static func parentProblem(className: String, fileSchema: Schema, group: Group) throws -> String? {
    guard let table = group.table(forClass: className) else { return nil }
    let source = GroupQuerySource(group: group, schema: fileSchema)
    var message: String?
    struct Found: Error {}
    do {
      try group.forEachObject(in: table, columns: []) { key, _ in
        let count = try source.backlinkCount(to: className, key: key)
        if count == 0 {
          message = "Cannot convert '\(className)' to embedded: at least one object has no incoming links and would be deleted."
        } else if count > 1 {
          message = "Cannot convert '\(className)' to embedded: at least one object has more than one incoming link."
        }
        if message != nil { throw Found() }
      }
    } catch is Found {}
    return message
  }
}
