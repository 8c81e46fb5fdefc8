import Foundation
import RealmFormat
import RealmModel
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

import RealmJSON
@testable import RealmExport

/// The whole `dump --format jsonl` and `schema --format json` pipeline on real files: the
/// storage reader's values through our encoders must give Realm's own answers, byte for byte.
@Suite struct ReaderToDumpTests {
  /// The Realm file whose answers a dump fixture holds.
  static func realmFile(forDump dump: String) -> String {
    if dump.hasPrefix("\(SharedFixtures.realmCoreSamples)/") {
      return dump.replacingOccurrences(of: "dump.jsonl", with: "original.realm")
    }
    if dump.hasSuffix("/dump.jsonl") {
      return dump.replacingOccurrences(of: "/dump.jsonl", with: "/before.realm")
    }
    return dump.replacingOccurrences(of: ".dump.jsonl", with: ".realm")
  }

  typealias Pair = FixturePair

  /// The pairs whose Realm file is present.
  static func withRealmFile(_ pairs: [Pair]) -> [Pair] {
    pairs.filter { $0.location.exists(realmFile(forDump: $0.dump)) }
  }

  static let cases = withRealmFile(FixturePair.committed)
  static let realmCoreSampleCases = withRealmFile(FixturePair.realmCoreSamples)

  @Test func coversTheReadingCases() {
    #expect(Self.cases.contains { $0.dump == "alltypes/dump.jsonl" })
    #expect(Self.cases.contains { $0.dump == "strings/dump.jsonl" })
    #expect(Self.cases.count >= 30)
  }

  @Test(arguments: cases)
  func readerOutputEqualsRealmsAnswers(_ pair: Pair) throws { try readerOutputEqualsAnswers(pair) }

  @Test(SharedFixtures.enabled, arguments: realmCoreSampleCases)
  func readerOutputOfRealmCoreSamplesEqualsRealmsAnswers(_ pair: Pair) throws { try readerOutputEqualsAnswers(pair) }

  func readerOutputEqualsAnswers(_ pair: Pair) throws {
    let dump = pair.dump
    let realmFile = Self.realmFile(forDump: dump)
    // An encrypted fixture has its key beside it (`big.realm` and `big.key`).
    let keyFile = realmFile.replacingOccurrences(of: ".realm", with: ".key")
    let key = pair.location.exists(keyFile)
      ? try EncryptionKey(keyFile: try pair.location.bytes(keyFile)) : nil
    let file = try RealmFile.open(path: try pair.location.path(realmFile), key: key)
    var schema = try file.group.schema()
    let expectedSchema = try pair.location.bytes(pair.schema)
    if dump.hasPrefix("\(SharedFixtures.realmCoreSamples)/") {
      // Realm upgraded these files before answering; compare the classes, not the format.
      schema.fileFormat = try SchemaJSON.decode(expectedSchema).fileFormat
    }
    let schemaText = SchemaJSON.encode(schema)
    expectEqual(DumpComparison.compareSchemas(expected: expectedSchema, actual: schemaText), [])
    expectEqual(schemaText, expectedSchema, "\(pair.schema) differs in bytes")

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
    let expected = try pair.location.bytes(dump)
    let differences = DumpComparison.compareDumps(
      expected: expected, actual: output, schema: expectedSchema)
    expectEqual(differences, [], "\(dump): \(differences.prefix(3))")
    let expectedLines = TestFiles.lines(expected)
    let lines = TestFiles.lines(output)
    let differing = zip(expectedLines, lines).filter { !TestFiles.same($0.0, $0.1) }
    #expect(
      differing.isEmpty,
      "\(dump): \(differing.count) of \(expectedLines.count) lines differ in bytes; first: \(differing.first.map { firstByteDifference(Array($0.0), Array($0.1)) } ?? "")"
    )
  }
}
