import Foundation
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmJSON

/// Every dump and schema answer Realm wrote in Tests/Fixtures (and for Realm Core's samples in
/// `../shared`), read with our decoders and written again with our encoders, must come back the
/// same by meaning; the schema documents byte for byte.
@Suite struct FixtureRoundTripTests {
  typealias Pair = FixturePair
  static let pairs = FixturePair.committed
  static let realmCoreSamplePairs = FixturePair.realmCoreSamples
  static func schemaFiles(_ pairs: [Pair]) -> [Pair] { FixturePair.schemaFiles(pairs) }

  @Test func findsTheFixtures() {
    // 18 cases with dump.jsonl, 10 after.*, 1 copy.*, 3 tutorial steps.
    #expect(Self.pairs.count >= 32)
    #expect(Self.pairs.contains { $0.dump == "alltypes/dump.jsonl" })
    #expect(Self.pairs.contains { $0.dump == "optionality/copy.dump.jsonl" })
    #expect(Self.pairs.contains { $0.dump == "user-tutorial/steps/v2/after.dump.jsonl" })
  }

  @Test(SharedFixtures.enabled)
  func findsRealmCoreSamples() {
    #expect(Self.realmCoreSamplePairs.count >= 14)
  }

  @Test(arguments: schemaFiles(pairs))
  func schemaDocumentRoundTripsByteForByte(_ pair: Pair) throws { try schemaRoundTrips(pair) }

  @Test(SharedFixtures.enabled, arguments: schemaFiles(realmCoreSamplePairs))
  func schemaDocumentOfRealmCoreSampleRoundTripsByteForByte(_ pair: Pair) throws { try schemaRoundTrips(pair) }

  func schemaRoundTrips(_ pair: Pair) throws {
    let original = try pair.location.bytes(pair.schema)
    let schema = try SchemaJSON.decode(original)
    let written = SchemaJSON.encode(schema)
    expectEqual(DumpComparison.compareSchemas(expected: original, actual: written), [])
    expectEqual(String(decoding: written, as: UTF8.self), String(decoding: original, as: UTF8.self))
  }

  @Test(arguments: pairs)
  func dumpRoundTripsByMeaning(_ pair: Pair) throws { try dumpRoundTrips(pair) }

  @Test(SharedFixtures.enabled, arguments: realmCoreSamplePairs)
  func dumpOfRealmCoreSampleRoundTripsByMeaning(_ pair: Pair) throws { try dumpRoundTrips(pair) }

  func dumpRoundTrips(_ pair: Pair) throws {
    let file = pair.dump
    let schemaBytes = try pair.location.bytes(pair.schema)
    let schema = try SchemaJSON.decode(schemaBytes)
    let original = try pair.location.bytes(pair.dump)
    let decoder = CanonicalDecoder(schema: schema)
    let encoder = CanonicalEncoder(schema: schema)
    var writer = JSONWriter()
    var differingLines = 0
    var firstDifference: String?
    var lineNumber = 0
    for line in TestFiles.lines(original) {
      lineNumber += 1
      let object = try decoder.decodeLine(Array(line), line: lineNumber)
      let cls = try #require(schema.objectSchema(named: object.className))
      let start = writer.buffer.count
      encoder.appendLine(cls, key: try #require(object.key), values: object.values, to: &writer)
      let written = writer.buffer[start..<(writer.buffer.count - 1)]
      if !TestFiles.same(written, line) {
        differingLines += 1
        if firstDifference == nil {
          firstDifference = firstByteDifference(Array(line), Array(written))
        }
      }
    }
    let differences = DumpComparison.compareDumps(
      expected: original, actual: writer.buffer, schema: schemaBytes)
    expectEqual(differences, [], "\(file): \(differences.prefix(5))")
    // Our encoder writes Realm's exact bytes (number layout, escapes, decimal style), so
    // every line must also be byte-equal.
    #expect(
      differingLines == 0,
      "\(file): \(differingLines) of \(lineNumber) lines differ in bytes, first: \(firstDifference ?? "")"
    )
  }


}
