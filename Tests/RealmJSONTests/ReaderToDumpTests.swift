import Foundation
import RealmFormat
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmJSON

/// The whole `dump --format jsonl` and `schema --format json` pipeline on real files: the
/// storage reader's values through our encoders must give Realm's own answers, byte for byte.
@Suite struct ReaderToDumpTests {
  /// The Realm file whose answers a dump fixture holds.
  static func realmFile(forDump dump: String) -> String {
    if dump.hasPrefix("realm-core-samples/") {
      return dump.replacingOccurrences(of: "dump.jsonl", with: "original.realm")
    }
    if dump.hasSuffix("/dump.jsonl") {
      return dump.replacingOccurrences(of: "/dump.jsonl", with: "/before.realm")
    }
    return dump.replacingOccurrences(of: ".dump.jsonl", with: ".realm")
  }

  static let cases: [String] = FixtureRoundTripTests.pairs.map(\.dump).filter {
    FileManager.default.fileExists(atPath: Fixtures.url(realmFile(forDump: $0)).path)
  }

  @Test func coversTheReadingCases() {
    #expect(Self.cases.contains("alltypes/dump.jsonl"))
    #expect(Self.cases.contains("strings/dump.jsonl"))
    #expect(Self.cases.count >= 30)
  }

  @Test(arguments: cases)
  func readerOutputEqualsRealmsAnswers(_ dump: String) throws {
    let pair = try #require(FixtureRoundTripTests.pairs.first { $0.dump == dump })
    let file = try RealmFile.open(path: Fixtures.url(Self.realmFile(forDump: dump)).path)
    var schema = try file.group.schema()
    let expectedSchema = try Fixtures.bytes(pair.schema)
    if dump.hasPrefix("realm-core-samples/") {
      // Realm upgraded these files before answering; compare the classes, not the format.
      schema.fileFormat = try SchemaJSON.decode(expectedSchema).fileFormat
    }
    let schemaText = SchemaJSON.encode(schema)
    #expect(DumpComparison.compareSchemas(expected: expectedSchema, actual: schemaText) == [])
    #expect(schemaText == expectedSchema, "\(pair.schema) differs in bytes")

    var output: [UInt8] = []
    var writer = JSONLinesDumpWriter(sink: { output += $0 })
    try writer.begin(schema: schema)
    for cls in schema.classes where !cls.isEmbedded {
      let table = try #require(file.group.table(forClass: cls.name))
      try writer.beginClass(cls)
      try file.group.forEachObject(in: table) { key, values in
        try writer.writeObject(key: key, values: values)
      }
      try writer.endClass()
    }
    try writer.finish()
    let expected = try Fixtures.bytes(dump)
    let differences = DumpComparison.compareDumps(
      expected: expected, actual: output, schema: expectedSchema)
    #expect(differences == [], "\(dump): \(differences.prefix(3))")
    let expectedLines = expected.split(separator: 0x0A)
    let lines = output.split(separator: 0x0A)
    let differing = zip(expectedLines, lines).filter { !$0.0.elementsEqual($0.1) }
    #expect(
      differing.isEmpty,
      "\(dump): \(differing.count) of \(expectedLines.count) lines differ in bytes; first: \(differing.first.map { FixtureRoundTripTests.firstDifference(Array($0.0), Array($0.1)) } ?? "")"
    )
  }
}
