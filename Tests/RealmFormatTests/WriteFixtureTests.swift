import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

/// Files built from each fixture's `schema.json` and `dump.jsonl` (Realm's own answers).
@Suite struct WriteFixtureTests {
  /// Every schema + dump pair in the fixtures, as `dir/prefix` (`schema.json`/`dump.jsonl`
  /// of the reading and migration cases, and their `after.`/`copy.` results).
  static let cases: [String] = {
    var out = [String]()
    let fm = FileManager.default
    let dirs = ((try? fm.contentsOfDirectory(atPath: Fixtures.root.path)) ?? []).sorted()
    for dir in dirs {
      for prefix in ["", "after.", "copy."] {
        let schema = Fixtures.url("\(dir)/\(prefix)schema.json").path
        let dump = Fixtures.url("\(dir)/\(prefix)dump.jsonl").path
        if fm.fileExists(atPath: schema) && fm.fileExists(atPath: dump) { out.append("\(dir)/\(prefix)") }
      }
    }
    return out
  }()

  /// Builds the file for a fixture case; returns its bytes, the schema and the decoded
  /// objects' keys per class.
  static func build(_ name: String) throws -> (bytes: [UInt8], schema: Schema, keys: [String: [Int64]]) {
    let schema = try SchemaJSON.decode(try Fixtures.bytes("\(name)schema.json"))
    let decoder = CanonicalDecoder(schema: schema)
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    var keys = [String: [Int64]]()
    var line = 0
    for chunk in try Fixtures.bytes("\(name)dump.jsonl").split(separator: 10) {
      line += 1
      let object = try decoder.decodeLine(Array(chunk), line: line)
      let key = try builder.append(className: object.className, key: object.key, values: object.values)
      keys[object.className, default: []].append(key)
    }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    return (builder.sink.bytes, schema, keys)
  }

  /// The canonical dump of every top-level class of `group`, as `realmctl dump` writes it.
  static func dump(_ group: Group, _ schema: Schema) throws -> [UInt8] {
    let encoder = CanonicalEncoder(schema: schema)
    var writer = JSONWriter()
    for cls in schema.classes where !cls.isEmbedded {
      let table = try #require(group.table(forClass: cls.name))
      try group.forEachObject(in: table) { key, values in
        encoder.appendLine(cls, key: key, values: values, to: &writer)
      }
    }
    return writer.buffer
  }

  @Test("dump(create(schema, data)) equals data and the checker is clean", arguments: cases)
  func readBack(name: String) throws {
    let (bytes, _, _) = try Self.build(name)
    let group = try Group(reader: ByteReader(bytes: bytes))
    let schema = try group.schema()
    let expectedSchema = try Fixtures.bytes("\(name)schema.json")
    let dumpProblems = DumpComparison.compareDumps(
      expected: try Fixtures.bytes("\(name)dump.jsonl"), actual: try Self.dump(group, schema), schema: expectedSchema)
    #expect(dumpProblems.isEmpty, "\(dumpProblems.prefix(5).joined(separator: "\n"))")
    let schemaProblems = DumpComparison.compareSchemas(expected: expectedSchema, actual: SchemaJSON.encode(schema))
    #expect(schemaProblems.isEmpty, "\(schemaProblems.prefix(5).joined(separator: "\n"))")
    let problems = group.check()
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    #expect(group.topArraySize == 11 && group.historyType == .inRealm && group.historySchemaVersion == 1)
    #expect(group.freeList.count == 1 && group.logicalSize == bytes.count)
  }

  @Test(
    "compacted fixtures read back equal and clean",
    arguments: ["alltypes/before.realm", "format-samples/v24_commit.realm", "format-samples/v24_edge.realm"])
  func compactedReadBack(fixture: String) throws {
    let bytes = try Fixtures.bytes(fixture)
    let original = try Group(reader: ByteReader(bytes: bytes))
    var sink = BufferNodeSink()
    let file = try RealmFileCompactor.compact(
      original.reader, topRef: original.topRef, fileFormat: original.fileFormat, into: &sink)
    sink.finish(header: file.header, fileSize: file.fileSize)
    let copy = try Group(reader: ByteReader(bytes: sink.bytes))
    #expect(copy.check().isEmpty)
    let schema = try original.schema()
    try expectEqual(copy.schema(), schema)
    try expectEqual(Self.dump(copy, schema), Self.dump(original, schema))
    #expect(copy.historyType == original.historyType && copy.snapshotVersion == original.snapshotVersion)
  }

  @Test("built files account for every byte and keep the dump's keys", arguments: cases)
  func structure(name: String) throws {
    let (bytes, schema, keys) = try Self.build(name)
    let image = DecodedImage(bytes: bytes)
    let top = Ref(Int(try image.reader.uint64(at: 0)))
    try image.checkSpace(top: top)
    let t = try image.node(top)
    let names = try image.strings(try t.ref(0))
    let tables = try image.node(try t.ref(1))
    if schema.schemaVersion != nil { expectEqual(names.first, "metadata") }
    for c in schema.classes {
      guard let i = names.firstIndex(of: "class_" + c.name) else {
        Issue.record("no table for class \(c.name)")
        continue
      }
      let table = try tables.child(i)
      try expectEqual(table.tagged(12), (c.isEmbedded ? 1 : 0))
      let rows = try image.clusterRows(try table.ref(2))
      if !c.isEmbedded { expectEqual(rows.map(\.key), keys[c.name, default: []], "keys of \(c.name)") }
      if c.primaryKey != nil { #expect(try table.tagged(11) != 0) }
    }
  }
}
