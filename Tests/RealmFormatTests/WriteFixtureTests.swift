import RealmJSON
import RealmTestSupport
import Testing
@testable import RealmFormat

/// Files built from each fixture's `schema.json` and `dump.jsonl` (Realm's own answers).
@Suite struct WriteFixtureTests {
  static let cases = ["alltypes", "embedded", "nested-links", "strings"]

  /// Builds the file for a fixture; returns its bytes, the schema and the decoded objects'
  /// keys per class.
  static func build(_ name: String) throws -> (bytes: [UInt8], schema: Schema, keys: [String: [Int64]]) {
    let schema = try SchemaJSON.decode(try Fixtures.bytes("\(name)/schema.json"))
    let decoder = CanonicalDecoder(schema: schema)
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    var keys = [String: [Int64]]()
    var line = 0
    for chunk in try Fixtures.bytes("\(name)/dump.jsonl").split(separator: 10) {
      line += 1
      let object = try decoder.decodeLine(Array(chunk), line: line)
      let key = try builder.append(className: object.className, key: object.key, values: object.values)
      keys[object.className, default: []].append(key)
    }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    return (builder.sink.bytes, schema, keys)
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
    #expect(names.first == "metadata")
    for c in schema.classes {
      guard let i = names.firstIndex(of: "class_" + c.name) else {
        Issue.record("no table for class \(c.name)")
        continue
      }
      let table = try tables.child(i)
      #expect(try table.tagged(12) == (c.isEmbedded ? 1 : 0))
      let rows = try image.clusterRows(try table.ref(2))
      if !c.isEmbedded { #expect(rows.map(\.key) == keys[c.name, default: []], "keys of \(c.name)") }
      if c.primaryKey != nil { #expect(try table.tagged(11) != 0) }
    }
  }
}
