import Foundation
import Testing
@testable import RealmFormat

@Suite struct WriteDevTests {
  @Test func writesSampleFile() throws {
    let schema = Schema(schemaVersion: 3, fileFormat: 24, classes: [
      ObjectSchema(name: "Person", primaryKey: "id", properties: [
        Property(name: "id", type: .int, isIndexed: true),
        Property(name: "name", type: .string, isIndexed: true),
        Property(name: "age", type: .int, isOptional: true),
        Property(name: "dog", type: .object, objectType: "Dog", isOptional: true),
        Property(name: "tags", type: .string, collection: .set),
        Property(name: "any", type: .mixed, isOptional: true),
        Property(name: "addr", type: .object, objectType: "Address", isOptional: true),
      ]),
      ObjectSchema(name: "Dog", properties: [
        Property(name: "name", type: .string),
        Property(name: "scores", type: .double, collection: .list),
      ]),
      ObjectSchema(name: "Address", isEmbedded: true, properties: [
        Property(name: "street", type: .string),
      ]),
    ])
    var objects: [(className: String, key: Int64?, values: [RealmValue])] = []
    for i in 0..<300 {
      objects.append(("Dog", nil, [.string("dog \(i)"), .list([.double(Double(i)), .double(0.5)])]))
    }
    for i in 0..<700 {
      objects.append(("Person", Int64(i), [
        .int(Int64(i)), .string(i % 3 == 0 ? "same name" : "person number \(i) with a long name"),
        i % 5 == 0 ? .null : .int(Int64(i) * 1000), .link(ObjectLink(className: "Dog", key: i % 300 < 256 ? Int64(i % 300) : Int64(65536 + i % 300 - 256))),
        .set([.string("b"), .string("a"), .string("b")]),
        i % 2 == 0 ? .link(ObjectLink(className: "Dog", key: 3)) : .list([.int(1), .dictionary([DictionaryEntry("k", .string("v"))])]),
        .embedded(EmbeddedObject(className: "Address", key: 0, properties: [NamedValue("street", .string("street \(i)"))])),
      ]))
    }
    let bytes = try RealmFileBuilder.build(schema: schema, objects: objects)
    try Data(bytes).write(to: URL(fileURLWithPath: "/tmp/enc/sample.realm"))
  }
}
