import RealmFormat
import RealmModel
import RealmStorage

/// Reads the objects of a file for the migrator.
struct GroupSource: MigrationSource {
  let group: Group
  /// The file's path, which a damaged table's error names.
  let path: String

  func table(_ className: String) throws -> Table {
    guard let t = group.table(forClass: className) else {
      throw MigrationError(.invalidPlan, "class '\(className)' is not in the file")
    }
    return t
  }

  /// The objects the class's cluster leaves hold; throws after the walk when they are not as
  /// many as the table's count says (a damaged or hostile count is not carried into a file
  /// the migrator writes).
  func forEachObject(ofClass className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws {
    let table = try table(className)
    var walked = 0
    try group.forEachObject(in: table) { key, values in
      walked += 1
      try body(key, values)
    }
    do { try table.requireObjectCount(walked) } catch { throw StorageError.corrupt(path: path, error) }
  }

  func objectCount(ofClass className: String) throws -> Int { try table(className).objectCount }
}

/// Follows links in expressions over a file's objects (for migrations: as they were before).
public struct GroupResolver: ObjectResolver, Sendable {
  let group: Group

  /// A resolver over `group`.
  public init(group: Group) { self.group = group }

  /// The values of the linked object, nil when it does not exist.
  public func values(of link: ObjectLink) throws -> [RealmValue]? {
    guard let t = group.table(forClass: link.className) else { return nil }
    return try group.object(in: t, key: link.key)
  }
}

/// Writes the migrated objects into a new file.
final class BuilderSink<S: SequentialNodeSink>: MigrationSink {
  let builder: RealmFileBuilder<S>
  var className = ""

  init(_ builder: RealmFileBuilder<S>) { self.builder = builder }

  func beginClass(_ objectSchema: ObjectSchema) throws { className = objectSchema.name }
  func add(key: Int64, values: [RealmValue]) throws {
    try builder.append(className: className, key: key, values: values)
  }
  func endClass() throws {}
}
