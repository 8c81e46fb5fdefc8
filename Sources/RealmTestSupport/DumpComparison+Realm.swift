import RealmStorage
import RealmTestBytes

extension DumpComparison {
  /// The differences, by meaning, between the realm file at `path` and a fixture's answer:
  /// `prefix.schema.json` and `prefix.dump.jsonl` (e.g. `person-add-email/after`, what Realm
  /// made of a migration). Schema differences come first, prefixed `schema: `; empty when the
  /// file is what Realm made.
  public static func compareRealm(
    at path: String, key: EncryptionKey? = nil, withFixture prefix: String, anyPropertyOrder: Bool = true
  ) throws -> [String] {
    let schema = try Fixtures.bytes("\(prefix).schema.json")
    let schemaDiff = compareSchemas(
      expected: schema, actual: try RealmDumper.schemaJSON(path, key: key), anyPropertyOrder: anyPropertyOrder)
    let dumpDiff = compareDumps(
      expected: try Fixtures.bytes("\(prefix).dump.jsonl"), actual: try RealmDumper.dumpJSONL(path, key: key),
      schema: schema)
    return schemaDiff.map { "schema: " + $0 } + dumpDiff
  }
}
