import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

@Suite struct WriteFileBuilderTests {
  static let schema = Schema(schemaVersion: 7, fileFormat: 24, classes: [
    ObjectSchema(name: "Person", primaryKey: "name", properties: [
      Property(name: "name", type: .string, isIndexed: true),
      Property(name: "age", type: .int, isOptional: true, isIndexed: true),
      Property(name: "dog", type: .object, objectType: "Dog", isOptional: true),
      Property(name: "dogs", type: .object, collection: .list, objectType: "Dog"),
      Property(name: "tags", type: .string, collection: .set),
      Property(name: "any", type: .mixed, isOptional: true),
      Property(name: "home", type: .object, objectType: "Address", isOptional: true),
      Property(name: "scores", type: .double, collection: .dictionary),
    ]),
    ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
    ObjectSchema(name: "Address", isEmbedded: true, properties: [
      Property(name: "street", type: .string),
      Property(name: "previous", type: .object, collection: .list, objectType: "Address"),
    ]),
    ObjectSchema(name: "Empty", properties: [Property(name: "x", type: .int)]),
  ])

  func dogKey(_ i: Int) -> Int64 { TableState.squeezed(Int64(i)) }

  func objects(people: Int, dogs: Int) -> [(className: String, key: Int64?, values: [RealmValue])] {
    var out: [(className: String, key: Int64?, values: [RealmValue])] = []
    for i in 0..<dogs { out.append(("Dog", nil, [.string("dog \(i)")])) }
    for i in 0..<people {
      let home = EmbeddedObject(className: "Address", key: 0, properties: [
        NamedValue("street", .string("street \(i)")),
        NamedValue("previous", .list([.embedded(EmbeddedObject(className: "Address", key: 0, properties: [NamedValue("street", .string("old \(i)")), NamedValue("previous", .list([]))]))])),
      ])
      out.append(("Person", nil, [
        .string("person \(i)"), i % 4 == 0 ? .null : .int(Int64(i % 10)), .link(ObjectLink(className: "Dog", key: dogKey(i % dogs))),
        .list([.link(ObjectLink(className: "Dog", key: dogKey(0))), .link(ObjectLink(className: "Dog", key: dogKey(0)))]),
        .set([.string("b"), .string("a")]), i % 2 == 0 ? .link(ObjectLink(className: "Dog", key: dogKey(1))) : .int(Int64(i)),
        i % 3 == 0 ? .null : .embedded(home), .dictionary([DictionaryEntry("z", .int(1)), DictionaryEntry("a", .double(0.5))]),
      ]))
    }
    return out
  }

  struct Table {
    let name: String
    let top: ArrayNode
    let names: [String?]
    let colKeys: [ColKey]
    let attributes: [Int64]
    let oppositeTables: [Int64]
    let oppositeColumns: [Int64]
    let rows: [(key: Int64, leaf: ArrayNode, row: Int)]
  }

  func tables(_ image: DecodedImage, top: Ref) throws -> [Table] {
    let t = try image.node(top)
    let names = try image.strings(try t.ref(0))
    let refs = try image.node(try t.ref(1))
    return try (0..<refs.count).map { i in
      let table = try refs.child(i)
      expectEqual(table.count, 14)
      try expectEqual(table.tagged(3), UInt64(i))
      let spec = try table.child(0)
      expectEqual(spec.count, 6)
      return Table(
        name: names[i] ?? "", top: table, names: try image.strings(try spec.ref(1)),
        colKeys: try image.ints(try spec.ref(5)).map(ColKey.init(rawValue:)), attributes: try image.ints(try spec.ref(2)),
        oppositeTables: try image.ints(try table.ref(7)), oppositeColumns: try image.ints(try table.ref(8)),
        rows: try image.clusterRows(try table.ref(2)))
    }
  }

  @Test func writesACompleteCommittedFile() throws {
    let bytes = try RealmFileBuilder.build(schema: Self.schema, objects: objects(people: 600, dogs: 300))
    expectEqual(bytes.count % 4096, 0)
    let image = DecodedImage(bytes: bytes)
    let topRef = Ref(Int(try image.reader.uint64(at: 0)))
    try expectEqual(image.reader.uint64(at: 8), 0)
    expectEqual(Array(bytes[16..<24]), [0x54, 0x2D, 0x44, 0x42, 24, 0, 0, 0])
    let top = try image.node(topRef)
    expectEqual(top.count, 11)
    try expectEqual(top.tagged(2), UInt64(bytes.count))
    #expect(try top.tagged(6) == 1 && top.tagged(7) == 2 && top.refOrTagged(8) == .null)
    #expect(try top.tagged(9) == 1 && top.tagged(10) == 0)
    try expectEqual(image.ints(try top.ref(5)), [0])
    try image.checkSpace(top: topRef)
    // The library's reader and integrity checker (backlinks against links, keys, sizes).
    let group = try Group(reader: ByteReader(bytes: bytes))
    #expect(group.check().isEmpty)
    let people = try #require(group.table(forClass: "Person"))
    let fourth = try #require(try group.object(in: people, key: 4))
    expectEqual(fourth[0], .string("person 4"))
    guard case .embedded(let home) = fourth[6] else { Issue.record("expected an embedded home"); return }
    expectEqual(home.properties.first?.value, .string("street 4"))

    let all = try tables(image, top: topRef)
    expectEqual(all.map(\.name), ["metadata", "class_Address", "class_Dog", "class_Empty", "class_Person"])
    // metadata: one object holding the schema version.
    #expect(all[0].rows.count == 1 && all[0].names == ["version"])
    try expectEqual(all[0].rows[0].leaf.child(1).get(0), 7)
    // Embedded table: flagged, squeezed keys, one backlink per object.
    let address = all[1]
    try expectEqual(address.top.tagged(12), 1)
    expectEqual(address.rows.count, 800)
    expectEqual(address.rows.map(\.key), (0..<800).map { TableState.squeezed(Int64($0)) })
    // Person: primary key column without the Indexed bit, with an index; age indexed.
    let person = all[4]
    try expectEqual(person.top.tagged(11), UInt64(person.colKeys[0].rawValue))
    #expect(person.attributes[0] & 1 == 0 && person.attributes[1] & 1 == 1)
    try expectEqual(person.top.child(4).ref(0).isNull, false)
    expectEqual(person.rows.map(\.key), (0..<600).map { Int64($0) })
    try expectEqual(person.top.tagged(9), 600)
    // Links: +1 in the single link column, raw in the list; opposite arrays point both ways.
    let dogColumn = person.colKeys[2]
    let r = person.rows[301]
    try expectEqual(r.leaf.child(1 + dogColumn.leafIndex).get(r.row), dogKey(1) + 1)
    expectEqual(person.oppositeTables[2], 2)
    let dog = all[2]
    let backlinkKey = ColKey(rawValue: person.oppositeColumns[2])
    #expect(dog.oppositeTables[backlinkKey.leafIndex] == 4 && dog.oppositeColumns[backlinkKey.leafIndex] == dogColumn.rawValue)
    expectEqual(dog.colKeys[backlinkKey.leafIndex].type, .backlink)
    #expect(dog.names.count == 1 && dog.colKeys.count == 4)  // name, dog, dogs, any (Mixed)
    // Backlinks of dog 0 from `dogs`: every person twice.
    let dogsBacklink = ColKey(rawValue: person.oppositeColumns[3])
    let d0 = dog.rows[0]
    let element = try d0.leaf.child(1 + dogsBacklink.leafIndex).refOrTagged(d0.row)
    guard case .ref(let list) = element else { Issue.record("expected a backlink list"); return }
    let origins = try image.bptreeLeaves(list).flatMap { try image.ints($0) }
    #expect(origins.count == 1200 && Set(origins) == Set((0..<600).map { Int64($0) }))
    // Mixed links got their own backlink column in Dog, pointing back at the Mixed column.
    let mixedBacklink = dog.colKeys[3]
    #expect(dog.oppositeColumns[3] == person.colKeys[5].rawValue && person.oppositeTables[5] == FormatConstants.nullTableKey)
    let d1 = dog.rows[1]
    let mixedOrigins = try d1.leaf.child(1 + mixedBacklink.leafIndex).refOrTagged(d1.row)
    guard case .ref(let mixedList) = mixedOrigins else { Issue.record("expected a backlink list"); return }
    try expectEqual(image.bptreeLeaves(mixedList).flatMap { try image.ints($0) }, (0..<300).map { Int64($0 * 2) })
    // An empty table: root leaf with tagged 0 and one empty leaf per column.
    let empty = all[3]
    let emptyRoot = try empty.top.child(2)
    #expect(try emptyRoot.refOrTagged(0) == .tagged(0) && emptyRoot.count == 2 && emptyRoot.child(1).count == 0)
  }

  @Test func setsAndDictionariesAreStoredSorted() throws {
    let bytes = try RealmFileBuilder.build(schema: Self.schema, objects: objects(people: 2, dogs: 2))
    let image = DecodedImage(bytes: bytes)
    let person = try tables(image, top: Ref(Int(try image.reader.uint64(at: 0))))[4]
    let row = person.rows[1]
    let tags = try row.leaf.child(1 + person.colKeys[4].leafIndex).ref(row.row)
    try expectEqual(image.strings(tags), ["a", "b"])
    let dict = try image.node(try row.leaf.child(1 + person.colKeys[7].leafIndex).ref(row.row))
    try expectEqual(image.strings(try dict.ref(0)), ["a", "z"])
    #expect(person.colKeys[7].attributes.contains(.dictionary))
  }

  @Test func keepsGivenKeysAndContinuesTheSequence() throws {
    let schema = Schema(schemaVersion: nil, fileFormat: 24, classes: [
      ObjectSchema(name: "A", primaryKey: "id", properties: [Property(name: "id", type: .int)]),
      ObjectSchema(name: "B", properties: [Property(name: "a", type: .object, objectType: "A", isOptional: true)]),
    ])
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    try builder.append(className: "A", key: 5, values: [.int(5)])
    try builder.append(className: "A", key: 900, values: [.int(900)])
    try expectEqual(builder.append(className: "A", key: nil, values: [.int(1)]), 901)
    try builder.append(className: "B", key: 300, values: [.link(ObjectLink(className: "A", key: 900))])
    try expectEqual(builder.append(className: "B", key: nil, values: [.null]), 65536)
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    let image = DecodedImage(builder.sink)
    try image.checkSpace(top: file.topRef)
    let all = try tables(image, top: file.topRef)
    expectEqual(all.map(\.name), ["class_A", "class_B"], "no metadata table without a schema version")
    expectEqual(all[0].rows.map(\.key), [5, 900, 901])
    try expectEqual(all[0].top.tagged(9), 902)
    expectEqual(all[1].rows.map(\.key), [300, 65536])
    try expectEqual(all[1].top.tagged(9), 257)
  }

  @Test func refusesToContinueAfterAFailedObject() throws {
    let builder = try RealmFileBuilder(schema: Self.schema, sink: BufferNodeSink())
    let bad: [RealmValue] = [.string("p"), .int(1), .null, .list([.int(5)]), .set([]), .null, .null, .dictionary([])]
    #expect(throws: FormatError(.corrupt)) { try builder.append(className: "Person", key: nil, values: bad) }
    #expect(throws: FormatError(.corrupt)) { try builder.append(className: "Dog", key: nil, values: [.string("d")]) }
    #expect(throws: FormatError(.corrupt)) { try builder.finish() }
  }

  @Test func rejectsInvalidInput() throws {
    func attempt(_ body: (RealmFileBuilder<BufferNodeSink>) throws -> Void) {
      #expect(throws: FormatError(.corrupt)) {
        let b = try RealmFileBuilder(schema: Self.schema, sink: BufferNodeSink())
        try body(b)
        _ = try b.finish()
      }
    }
    attempt { try $0.append(className: "Cat", key: nil, values: []) }
    attempt { try $0.append(className: "Dog", key: nil, values: []) }
    attempt { try $0.append(className: "Dog", key: nil, values: [.int(1)]) }
    attempt { try $0.append(className: "Dog", key: nil, values: [.null]) }
    attempt { try $0.append(className: "Address", key: nil, values: [.string("x"), .list([])]) }
    attempt {
      try $0.append(className: "Dog", key: 5, values: [.string("a")])
      try $0.append(className: "Dog", key: 5, values: [.string("b")])
    }
    attempt { try $0.append(className: "Dog", key: -1, values: [.string("a")]) }
    attempt {
      // The key sequence cannot pass the largest key.
      try $0.append(className: "Dog", key: .max - 1, values: [.string("a")])
      try $0.append(className: "Dog", key: nil, values: [.string("b")])
    }
    attempt {
      let person: [RealmValue] = [.string("p"), .null, .null, .list([]), .set([]), .null, .null, .dictionary([])]
      try $0.append(className: "Person", key: .max - 1, values: person)
      try $0.append(className: "Person", key: nil, values: person)
    }
    attempt {
      // A link to a dog that is never written.
      let values: [RealmValue] = [.string("p"), .null, .link(ObjectLink(className: "Dog", key: 3)), .list([]), .set([]), .null, .null, .dictionary([])]
      try $0.append(className: "Person", key: nil, values: values)
    }
    attempt {
      let values: [RealmValue] = [.string("p"), .null, .link(ObjectLink(className: "Person", key: 0)), .list([]), .set([]), .null, .null, .dictionary([])]
      try $0.append(className: "Person", key: nil, values: values)
    }
    attempt {
      let values: [RealmValue] = [.string("p"), .null, .null, .list([]), .set([]), .set([]), .null, .dictionary([])]
      try $0.append(className: "Person", key: nil, values: values)
    }
    #expect(throws: FormatError(.corrupt)) {
      _ = try RealmFileBuilder(
        schema: Schema(schemaVersion: 1, fileFormat: 24, classes: [
          ObjectSchema(name: "X", primaryKey: "f", properties: [Property(name: "f", type: .double)]),
        ]), sink: BufferNodeSink())
    }
    #expect(throws: FormatError(.corrupt)) {
      _ = try RealmFileBuilder(
        schema: Schema(schemaVersion: 1, fileFormat: 24, classes: [
          ObjectSchema(name: "X", properties: [Property(name: "l", type: .object, objectType: "Missing", isOptional: true)]),
        ]), sink: BufferNodeSink())
    }
  }
}

@Suite struct WriteEmbeddedTests {
  @Test func oneParentWithManyNestedEmbeddedObjects() throws {
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "Doc", primaryKey: "id", properties: [
        Property(name: "id", type: .int),
        Property(name: "parts", type: .object, collection: .list, objectType: "Part"),
        Property(name: "byName", type: .object, collection: .dictionary, objectType: "Part", isOptional: true),
      ]),
      ObjectSchema(name: "Part", isEmbedded: true, properties: [
        Property(name: "n", type: .int),
        Property(name: "children", type: .object, collection: .list, objectType: "Part"),
      ]),
    ])
    func part(_ n: Int64, children: Int) -> RealmValue {
      .embedded(EmbeddedObject(className: "Part", key: 0, properties: [
        NamedValue("n", .int(n)),
        NamedValue("children", .list((0..<children).map { part(n * 10 + Int64($0), children: 0) })),
      ]))
    }
    let parts = (0..<600).map { part(Int64($0), children: $0 % 3) }
    let dict = [DictionaryEntry("b", part(-2, children: 1)), DictionaryEntry("a", .null), DictionaryEntry("c", part(-3, children: 0))]
    let bytes = try RealmFileBuilder.build(schema: schema, objects: [
      ("Doc", nil, [.int(7), .list(parts), .dictionary(dict)]),
      ("Doc", nil, [.int(8), .list([]), .dictionary([])]),
    ])
    let group = try Group(reader: ByteReader(bytes: bytes))
    #expect(group.check().isEmpty)
    let partTable = try #require(group.table(forClass: "Part"))
    expectEqual(partTable.objectCount, 600 + 600 + 3)
    let docTable = try #require(group.table(forClass: "Doc"))
    let doc = try #require(try group.object(in: docTable, key: 0))
    guard case .list(let readParts) = doc[1], case .dictionary(let readDict) = doc[2] else {
      Issue.record("unexpected shapes \(doc)")
      return
    }
    expectEqual(readParts.count, 600)
    guard case .embedded(let p599) = readParts[599], case .list(let kids) = p599.properties[1].value else {
      Issue.record("expected embedded part 599 with children")
      return
    }
    #expect(p599.properties[0].value == .int(599) && kids.count == 2)
    #expect(readDict.map(\.key) == ["a", "b", "c"] && readDict[0].value == .null)
  }
}
