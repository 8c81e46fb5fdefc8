import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

/// The reader's values and schema, encoded with the canonical codec, compared by meaning with
/// Realm's own `dump.jsonl` and `schema.json` for every fixture that has them.
@Suite struct ReaderCanonicalTests {
  /// The canonical JSON Lines dump of every top-level class of `group`.
  static func dump(_ group: Group, _ schema: Schema) throws -> [UInt8] {
    let encoder = CanonicalEncoder(schema: schema)
    var writer = JSONWriter()
    for cls in schema.classes where !cls.isEmbedded {
      try group.forEachObject(ofClass: cls.name) { key, values in
        encoder.appendLine(cls, key: key, values: values, to: &writer)
      }
    }
    return writer.buffer
  }

  @Test(arguments: ReadableFixture.all.filter { $0.dump != nil && $0.schema != nil })
  func dumpAndSchemaMatchRealm(_ fixture: ReadableFixture) throws {
    let file = try fixture.open()
    let schema = try file.group.schema()
    let expectedSchema = try Fixtures.bytes(try #require(fixture.schema))
    let expectedDump = try Fixtures.bytes(try #require(fixture.dump))
    let actualDump = try Self.dump(file.group, schema)
    let dumpProblems = DumpComparison.compareDumps(expected: expectedDump, actual: actualDump, schema: expectedSchema)
    #expect(dumpProblems.isEmpty, "\(dumpProblems.prefix(5).joined(separator: "\n"))")
    let schemaProblems = DumpComparison.compareSchemas(expected: expectedSchema, actual: SchemaJSON.encode(schema))
    #expect(schemaProblems.isEmpty, "\(schemaProblems.prefix(5).joined(separator: "\n"))")
  }
}
