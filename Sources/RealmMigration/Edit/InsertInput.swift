/// One object to insert or upsert, decoded from a line of JSON Lines or a row of CSV.
public struct InsertObject: Sendable, Equatable {
  /// The object: class, `$key` when given, values in column order, the properties not given.
  public var object: DecodedObject
  /// Where it comes from, for errors: `line 3`, `row 3`.
  public var location: String

  /// Creates an input object.
  public init(object: DecodedObject, location: String) {
    self.object = object
    self.location = location
  }
}

extension InsertObject {
  /// The values of a new object of `cls`: the properties the input did not give are null
  /// (optional), empty (collections) or the error naming the first required one.
  public func valuesForNewObject(_ cls: ObjectSchema) throws -> [RealmValue] {
    var values = object.values
    for i in object.missing {
      let p = cls.properties[i]
      if p.collection == .single && !p.isOptional && p.type != .mixed {
        throw MigrationError(.invalidData, path: "\(location): \(cls.name).\(p.name)", "the property is required and has no value")
      }
      values[i] = CanonicalDecoder.defaultValue(for: p)
    }
    return values
  }
}

/// Whether an object whose primary key (or `$key`) exists is an error or an update.
public enum InsertMode: String, Sendable {
  /// Existing objects are an error; nothing is written.
  case insert
  /// Existing objects get the given values; the others are inserted.
  case upsert
}
