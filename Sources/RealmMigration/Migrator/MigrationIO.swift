import RealmModel

/// Where the migrator reads the file's objects from.
public protocol MigrationSource {
  /// Calls `body` with every object of `className` (top-level or embedded table) in ascending
  /// key order, values in the class's column order as the file has them.
  func forEachObject(ofClass className: String, _ body: (Int64, [RealmValue]) throws -> Void) throws
  /// The number of objects of a class.
  func objectCount(ofClass className: String) throws -> Int
}

/// Where the migrator writes the migrated objects to.
public protocol MigrationSink {
  /// Starts the class's objects (called once per top-level class of the final schema, in
  /// schema order; embedded classes receive their objects inline through their parents).
  func beginClass(_ objectSchema: ObjectSchema) throws
  /// One object, in ascending key order within its class.
  func add(key: Int64, values: [RealmValue]) throws
  /// Ends the class.
  func endClass() throws
}
