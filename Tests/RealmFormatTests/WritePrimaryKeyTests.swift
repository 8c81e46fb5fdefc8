import RealmTestSupport
import Testing

@testable import RealmFormat
import RealmModel

/// Realm refuses a second object with an existing primary key value; so does the builder
/// (`create` wrote such files silently: seen in an input found by fuzzing).
@Suite struct WritePrimaryKeyTests {
  static func schema(_ type: PropertyType, optional: Bool = false) -> Schema {
    Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "Target", primaryKey: "id", properties: [Property(name: "id", type: type, isOptional: optional, isIndexed: true)])
    ])
  }

  func build(_ schema: Schema, _ ids: [RealmValue]) throws(FormatError) {
    _ = try RealmFileBuilder.build(schema: schema, objects: ids.map { ("Target", nil, [$0]) })
  }

  @Test func duplicateStringKeyIsRefused() {
    let error = #expect(throws: FormatError.self) { try build(Self.schema(.string), [.string("t0"), .string("t1"), .string("t1")]) }
    expectEqual(error?.detail, "objects 1 and 2 of class 'Target' have the same primary key value ('id')")
  }

  @Test func duplicateIntKeyIsRefused() {
    #expect(throws: FormatError.self) { try build(Self.schema(.int), [.int(7), .int(-1), .int(7)]) }
  }

  @Test func twoNullKeysAreRefused() {
    #expect(throws: FormatError.self) { try build(Self.schema(.int, optional: true), [.null, .int(1), .null]) }
  }

  @Test func distinctKeysAreWritten() throws {
    try build(Self.schema(.string), [.string("t1"), .string("t10"), .string("T1"), .string("")])
    try build(Self.schema(.int, optional: true), [.null, .int(0), .int(1 << 40), .int(-(1 << 40))])
  }
}
