import RealmModel

/// One difference between two Realm files, as `realmctl diff OLD NEW` reports it.
public enum RealmDiffChange: Sendable {
  /// The schema versions differ (nil: the file has none).
  case schemaVersion(old: Int64?, new: Int64?)
  /// The file formats differ.
  case fileFormat(old: Int, new: Int)
  /// A schema difference, in Realm's wording (`SchemaChange.realmMessage`).
  case schema(SchemaChange)
  /// An object only in the new file.
  case added(DiffObject)
  /// An object only in the old file.
  case removed(DiffObject)
  /// An object in both files whose values differ: the new file's object and what changed.
  case changed(DiffObject, [PropertyChange])
}

/// An object named in a diff: its class, its identity and (for added and removed objects)
/// its values, with the schema of the file it comes from.
public struct DiffObject: Sendable {
  /// The object's class in its file.
  public var objectSchema: ObjectSchema
  /// How the object was matched: by primary key or by object key.
  public var identity: Identity
  /// The object's values in column order (empty for a changed object).
  public var values: [RealmValue]
  /// True when the object (and so its values) comes from the old file.
  public var isOld: Bool

  /// How an object is matched across two files.
  public enum Identity: Sendable, Equatable {
    /// By the value of its primary key property.
    case primaryKey(name: String, value: RealmValue)
    /// By its object key (classes without a primary key).
    case key(Int64)
  }
}

extension SchemaChange {
  /// The class the change is about.
  public var className: String {
    switch self {
    case .addClass(let c): return c.name
    case .removeClass(let c), .changeClassType(let c, _), .addProperty(let c, _), .removeProperty(let c, _),
      .changePropertyType(let c, _, _), .makeOptional(let c, _), .makeRequired(let c, _),
      .changePrimaryKey(let c, _, _), .addIndex(let c, _), .removeIndex(let c, _):
      return c
    }
  }
}
