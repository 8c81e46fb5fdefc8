import RealmFormat
import RealmJSON
import RealmModel
import RealmStorage

/// Produces the canonical schema JSON and JSON Lines dump of a file through the library, for
/// comparing with Realm's own answers in tests.
public enum RealmDumper {
  /// `schema --format json` of the file at `path`.
  public static func schemaJSON(_ path: String, key: EncryptionKey? = nil) throws -> [UInt8] {
    SchemaJSON.encode(try RealmFile.open(path: path, key: key).group.schema())
  }

  /// `dump --format jsonl` of the file at `path`.
  public static func dumpJSONL(_ path: String, key: EncryptionKey? = nil) throws -> [UInt8] {
    let group = try RealmFile.open(path: path, key: key).group
    let schema = try group.schema()
    let encoder = CanonicalEncoder(schema: schema)
    var writer = JSONWriter()
    for c in schema.classes where !c.isEmbedded {
      guard let table = group.table(forClass: c.name) else { continue }
      try group.forEachObject(in: table) { key, values in
        encoder.appendLine(c, key: key, values: values, to: &writer)
      }
    }
    return writer.buffer
  }
}
