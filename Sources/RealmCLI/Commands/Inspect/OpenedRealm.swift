import RealmMigration
import RealmStorage

/// A file opened read-only for the inspection commands, with its schema.
struct OpenedRealm {
  let file: RealmFile
  let schema: Schema

  /// Opens `path` (never writes, never takes the lock).
  init(_ path: String) throws {
    file = try RealmFile.open(path: path)
    do {
      schema = try file.group.schema()
    } catch {
      throw StorageError.from(error, path: path)
    }
  }

  /// The class called `name`, or a data error naming the closest class.
  func requireClass(_ name: String) throws -> ObjectSchema {
    guard let c = schema.objectSchema(named: name) else {
      throw RealmCtlError(
        .invalidInput, path: file.path,
        "class '\(name)' not found in '\(file.path)'"
          + (RealmMigration.Suggestion.closest(to: name, among: schema.classes.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""))
    }
    return c
  }

  /// Object counts of every class.
  var objectCounts: [String: Int] {
    var out: [String: Int] = [:]
    for c in schema.classes { out[c.name] = file.group.table(forClass: c.name)?.objectCount ?? 0 }
    return out
  }
}
