import Foundation
import RealmFormat
import RealmTestSupport
import Testing

@testable import RealmJSON

/// Every dump and schema answer Realm wrote in Tests/Fixtures, read with our decoders and
/// written again with our encoders, must come back the same by meaning; the schema documents
/// byte for byte.
@Suite struct FixtureRoundTripTests {
  /// (dump, schema) pairs relative to Tests/Fixtures: `dump.jsonl` + `schema.json`,
  /// `after.dump.jsonl` + `after.schema.json`, `copy.*`, `steps/v*/after.*`.
  static let pairs: [(dump: String, schema: String)] = {
    let root = Fixtures.root.path
    var out: [(String, String)] = []
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    while let path = walker.nextObject() as? String {
      guard path.hasSuffix("dump.jsonl") else { continue }
      let schema = String(path.dropLast("dump.jsonl".count)) + "schema.json"
      if FileManager.default.fileExists(atPath: root + "/" + schema) { out.append((path, schema)) }
    }
    return out.sorted { $0.0 < $1.0 }
  }()

  static var schemaFiles: [String] { Array(Set(pairs.map(\.schema))).sorted() }

  @Test func findsTheFixtures() {
    // 20 cases with dump.jsonl, 11 after.*, 1 copy.*, 3 tutorial steps, 11 core samples.
    #expect(Self.pairs.count >= 40)
    #expect(Self.pairs.contains { $0.dump == "alltypes/dump.jsonl" })
    #expect(Self.pairs.contains { $0.dump == "optionality/copy.dump.jsonl" })
    #expect(Self.pairs.contains { $0.dump == "user-tutorial/steps/v2/after.dump.jsonl" })
  }

  @Test(arguments: schemaFiles)
  func schemaDocumentRoundTripsByteForByte(_ file: String) throws {
    let original = try Fixtures.bytes(file)
    let schema = try SchemaJSON.decode(original)
    let written = SchemaJSON.encode(schema)
    #expect(DumpComparison.compareSchemas(expected: original, actual: written) == [])
    #expect(String(decoding: written, as: UTF8.self) == String(decoding: original, as: UTF8.self))
  }

  @Test(arguments: pairs.map(\.dump))
  func dumpRoundTripsByMeaning(_ file: String) throws {
    let pair = try #require(Self.pairs.first { $0.dump == file })
    let schemaBytes = try Fixtures.bytes(pair.schema)
    let schema = try SchemaJSON.decode(schemaBytes)
    let original = try Fixtures.bytes(pair.dump)
    let decoder = CanonicalDecoder(schema: schema)
    let encoder = CanonicalEncoder(schema: schema)
    var writer = JSONWriter()
    var differingLines = 0
    var firstDifference: String?
    var lineNumber = 0
    for line in original.split(separator: 0x0A) {
      lineNumber += 1
      let object = try decoder.decodeLine(Array(line), line: lineNumber)
      let cls = try #require(schema.objectSchema(named: object.className))
      let start = writer.buffer.count
      encoder.appendLine(cls, key: try #require(object.key), values: object.values, to: &writer)
      let written = writer.buffer[start..<(writer.buffer.count - 1)]
      if !written.elementsEqual(line) {
        differingLines += 1
        if firstDifference == nil {
          firstDifference = Self.firstDifference(Array(line), Array(written))
        }
      }
    }
    let differences = DumpComparison.compareDumps(
      expected: original, actual: writer.buffer, schema: schemaBytes)
    #expect(differences == [], "\(file): \(differences.prefix(5))")
    // Our encoder writes Realm's exact bytes (number layout, escapes, decimal style), so
    // every line must also be byte-equal.
    #expect(
      differingLines == 0,
      "\(file): \(differingLines) of \(lineNumber) lines differ in bytes, first: \(firstDifference ?? "")"
    )
  }

  /// The neighbourhood of the first differing byte, for messages.
  static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
    var i = 0
    while i < a.count && i < b.count && a[i] == b[i] { i += 1 }
    let from = max(0, i - 40)
    let ea = String(decoding: a[from..<min(a.count, i + 40)], as: UTF8.self)
    let eb = String(decoding: b[from..<min(b.count, i + 40)], as: UTF8.self)
    return "expected …\(ea)… got …\(eb)…"
  }
}
