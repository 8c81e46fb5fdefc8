import RealmFormat
import RealmModel
import RealmStorage
extension Migrator {
  /// Renames a property, keeping its values, and sets the schema version: `file's version + 1`
  /// unless `schemaVersion` is given. The same change as a plan's `renameProperty` step, done
  /// in place (only names and the version are written).
  public static func renameProperty(
    path: String, className: String, from: String, to: String, schemaVersion: Int64? = nil,
    options: MigrationOptions = MigrationOptions()
  ) throws -> MigrationResult {
    let schema: Schema
    do { schema = try RealmFile.open(path: path, key: options.encryptionKey).group.schema() } catch let e as StorageError { throw e }
    guard var cls = schema.objectSchema(named: className) else {
      var message = "class '\(className)' not found in '\(path)'"
      if let s = Suggestion.closest(to: className, among: schema.classes.map(\.name)) { message += " (did you mean '\(s)'?)" }
      throw MigrationError(.invalidPlan, message)
    }
    guard let index = cls.properties.firstIndex(where: { $0.name == from }) else {
      var message = "'\(className)' has no property '\(from)'"
      if let s = Suggestion.closest(to: from, among: cls.properties.map(\.name)) { message += " (did you mean '\(s)'?)" }
      throw MigrationError(.invalidPlan, message)
    }
    guard cls.property(named: to) == nil else {
      throw MigrationError(.invalidPlan, "'\(className)' already has a property '\(to)'")
    }
    guard !to.isEmpty, to.utf8.count <= 63 else {
      throw MigrationError(.invalidPlan, "property names must have 1 to 63 bytes, found '\(to)'")
    }
    let current = schema.schemaVersion
    let target = schemaVersion ?? ((current ?? -1) + 1)
    if let current, target <= current {
      throw MigrationError(
        .versionLower, "the new schema version must be above the file's version \(current) (an app needs a new version to see the change), found \(target)")
    }
    cls.properties[index].name = to
    if cls.primaryKey == from { cls.primaryKey = to }
    var classes = schema.classes.map { PlanClass(objectSchema: $0, defaults: [:], path: "schema") }
    if let i = classes.firstIndex(where: { $0.objectSchema.name == className }) { classes[i].objectSchema = cls }
    let plan = MigrationPlan(
      schemaVersion: target, mode: .automatic, allowDataLoss: false, classes: classes,
      migrations: [
        VersionGroup(
          version: target,
          steps: [PlanStep(operation: .renameProperty(className: className, from: from, to: to), path: "rename-property")],
          path: "rename-property")
      ])
    return try migrate(path: path, plan: plan, options: options)
  }
}
