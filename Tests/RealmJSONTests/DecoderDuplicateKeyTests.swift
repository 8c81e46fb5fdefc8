import RealmModel
import RealmTestSupport
import Testing

@testable import RealmJSON

/// A JSON object may name a member twice; a Realm dictionary holds each key once. `create`
/// took the last value for the file and the links of both for the backlinks, and wrote a file
/// its own check found wrong (found by fuzzing, `Tests/FuzzCases/jsonl/`): such a dictionary
/// is now refused with the key's path.
@Suite struct DecoderDuplicateKeyTests {
  static let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
    ObjectSchema(name: "Holder", properties: [
      Property(name: "scores", type: .int, collection: .dictionary),
      Property(name: "any", type: .mixed, isOptional: true),
    ])
  ])

  func decode(_ line: String) throws(CanonicalDecodingError) -> DecodedObject {
    try CanonicalDecoder(schema: Self.schema).decodeLine(Array(line.utf8), line: 3)
  }

  @Test func typedDictionaryWithAKeyTwiceIsRefused() {
    let error = #expect(throws: CanonicalDecodingError.self) {
      _ = try decode(#"{"$class":"Holder","$key":0,"scores":{"a":1,"b":2,"a":3},"any":null}"#)
    }
    expectEqual(error?.message, "dictionary key 'a' appears twice")
    expectEqual(error?.line, 3)
    expectEqual(error?.path.contains("scores"), true, "\(String(describing: error?.path))")
  }

  @Test func dictionaryInAMixedValueWithAKeyTwiceIsRefused() {
    let error = #expect(throws: CanonicalDecodingError.self) {
      _ = try decode(#"{"$class":"Holder","$key":0,"scores":{},"any":[{"x":{"k":1,"k":[]}}]}"#)
    }
    expectEqual(error?.message, "dictionary key 'k' appears twice")
  }

  @Test func distinctKeysStillDecode() throws {
    let object = try decode(#"{"$class":"Holder","$key":0,"scores":{"a":1,"b":2},"any":{"a":1,"A":2}}"#)
    expectEqual(object.values[0], .dictionary([DictionaryEntry("a", .int(1)), DictionaryEntry("b", .int(2))]))
    expectEqual(object.values[1], .dictionary([DictionaryEntry("a", .int(1)), DictionaryEntry("A", .int(2))]))
  }
}
