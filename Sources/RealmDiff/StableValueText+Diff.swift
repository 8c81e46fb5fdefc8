import RealmExport
import RealmModel

extension StableValueText {
  /// Creates the writer for the values of `diff`.
  public init(_ diff: RealmDiff) {
    self.init(oldSchema: diff.oldSchema, newSchema: diff.newSchema, links: diff.links)
  }

  /// The text naming an object: `Person(id: 5)` or `Dog($key: 3)`.
  public func name(of object: DiffObject) throws -> String {
    switch object.identity {
    case .primaryKey(let name, let value):
      return "\(object.objectSchema.name)(\(name): \(try text(value, inMixed: false, isOld: object.isOld)))"
    case .key(let key):
      return "\(object.objectSchema.name)($key: \(key))"
    }
  }

  /// Whether the property at `path` (`age`, `address.city`) of `cls` holds mixed values.
  func isMixed(_ path: String, in cls: ObjectSchema, isOld: Bool) -> Bool {
    let schema = isOld ? oldSchema : newSchema
    var current: ObjectSchema? = cls
    var property: Property?
    for part in path.split(separator: ".") {
      property = current?.property(named: String(part))
      current = property?.objectType.flatMap { schema.objectSchema(named: $0) }
    }
    return property?.type == .mixed
  }
}
