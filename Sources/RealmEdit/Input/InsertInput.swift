import RealmModel
import RealmJSON
import RealmMigration

/// One object to insert or upsert, decoded from a line of JSON Lines or a row of CSV.
public struct InsertObject: Sendable, Equatable {
  /// The object: class, `$key` when given, values in column order, the properties not given.
  public var object: DecodedObject
  /// Where it comes from, for errors, without its number: `'people.jsonl' line` (one string
  /// shared by every object of the input).
  public var source: String
  /// Its line or row number in the source (0: none).
  public var number: Int

  /// Creates an input object.
  public init(object: DecodedObject, source: String, number: Int) {
    self.object = object
    self.source = source
    self.number = number
  }

  /// `'people.jsonl' line 3`.
  public var location: String { number == 0 ? source : "\(source) \(number)" }
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

extension InsertObject {
  /// Every object of a JSON Lines file in the dump's shape, decoded on every core; the
  /// properties a line leaves out are listed as missing.
  public static func jsonLines(path: String, schema: Schema) throws -> [InsertObject] {
    var out: [InsertObject] = []
    let source = "'\(path)' line"
    let lines = ParallelLineDecoder(decoder: CanonicalDecoder(schema: schema, missingProperties: .allow), path: path)
    try lines.forEachObject { object, line in out.append(InsertObject(object: object, source: source, number: line)) }
    return out
  }
}
