import RealmJSON
import RealmMigration

/// Objects of a CSV file for `insert` and `create`.
enum CSVInput {
  /// Largest CSV file read (it is read whole).
  static let limit = 4 << 30

  /// The rows of the CSV file at `path` as objects of `className`.
  static func objects(path: String, className: String, schema: Schema) throws -> [InsertObject] {
    let bytes = try InputFiles.contents(of: path, limit: limit)
    return try CSVObjectDecoder(schema: schema, className: className).objects(bytes, source: "'\(path)'")
  }
}
