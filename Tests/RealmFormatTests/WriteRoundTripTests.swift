import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

/// Random objects of every property type and collection kind, written by the builder and
/// read back with the library's reader: the values must come back as stored (sets and
/// dictionaries in storage order).
@Suite struct WriteRoundTripTests {
  static let types: [PropertyType] = [.int, .bool, .string, .data, .date, .float, .double, .decimal128, .objectId, .uuid, .mixed]

  static var schema: Schema {
    var properties = [Property(name: "_id", type: .int)]
    for t in types {
      for kind in [CollectionKind.single, .list, .set, .dictionary] {
        for optional in [false, true] where !(t == .mixed && !optional) {
          properties.append(Property(name: "\(t.rawValue)_\(kind.rawValue)\(optional ? "_opt" : "")", type: t, collection: kind, isOptional: optional))
        }
      }
    }
    properties.append(Property(name: "link", type: .object, objectType: "Thing", isOptional: true))
    properties.append(Property(name: "links", type: .object, collection: .list, objectType: "Thing"))
    return Schema(schemaVersion: 3, fileFormat: 24, classes: [ObjectSchema(name: "Thing", primaryKey: "_id", properties: properties)])
  }

  struct Generator {
    var rng: SeededRandom
    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func bytes(_ max: Int) -> [UInt8] { (0..<int(max + 1)).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }

    mutating func value(_ t: PropertyType, optional: Bool, objects: Int) -> RealmValue {
      if optional && int(5) == 0 { return .null }
      switch t {
      case .int: return .int([0, -1, .max, .min, Int64(bitPattern: rng.next()), Int64(int(300))][int(6)])
      case .bool: return .bool(int(2) == 0)
      case .string:
        let length = [0, 1, 15, 16, 63, 64, 300][int(7)]
        return .string(String(decoding: (0..<length).map { _ in UInt8(97 + int(26)) }, as: UTF8.self) + ["", "é", "\u{0}"][int(3)])
      case .data: return .data(bytes([0, 64, 65, 200][int(4)]))
      case .date: return .date(Timestamp(seconds: Int64(int(2_000_000_000)) - 1_000_000_000, nanoseconds: Int32(int(999_999_999))))
      case .float: return .float([Float(int(1000)) / 8, -.infinity, .greatestFiniteMagnitude, -0.0][int(4)])
      case .double: return .double([Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF), .infinity, -0.0, 1e-300][int(4)])
      case .decimal128:
        return .decimal128(Decimal128(low: rng.next() % 1_000_000, high: UInt64(6176 + int(40) - 20) << 49 | (int(2) == 0 ? 1 << 63 : 0)))
      case .objectId: return .objectId(ObjectId(high: rng.next(), low: UInt32(truncatingIfNeeded: rng.next())))
      case .uuid: return .uuid(RealmUUID(high: rng.next(), low: rng.next()))
      case .mixed:
        let scalar: [PropertyType] = [.int, .bool, .string, .data, .date, .float, .double, .decimal128, .objectId, .uuid]
        switch int(14) {
        case 0: return .link(ObjectLink(className: "Thing", key: Int64(int(objects))))
        case 1: return .list([value(.int, optional: true, objects: objects), value(.mixed, optional: true, objects: objects)])
        case 2: return .dictionary([DictionaryEntry("k\(int(3))", value(.mixed, optional: true, objects: objects))])
        default: return value(scalar[int(scalar.count)], optional: false, objects: objects)
        }
      case .object: return .null
      }
    }
  }

  /// Storage order: what the reader gives back for a set or dictionary.
  func stored(_ v: RealmValue, _ p: Property) -> RealmValue {
    switch (p.collection, v) {
    case (.set, .set(let e)), (.set, .list(let e)): return .set(SetOrdering.sortedUnique(e))
    case (.dictionary, .dictionary(let e)): return .dictionary(MixedLeafEncoder.sortedEntries(e))
    default: return v
    }
  }

  /// Equality with floats compared by bits (NaN, -0.0) and set/list cases unified.
  func same(_ a: RealmValue, _ b: RealmValue) -> Bool {
    switch (a, b) {
    case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern
    case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
    case (.list(let x), .list(let y)), (.set(let x), .set(let y)), (.list(let x), .set(let y)), (.set(let x), .list(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.dictionary(let x), .dictionary(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
    default: return a == b
    }
  }

  @Test(arguments: [UInt64(1), 2])
  func randomObjectsReadBackUnchanged(seed: UInt64) throws {
    let schema = Self.schema
    let properties = schema.classes[0].properties
    var gen = Generator(rng: SeededRandom(seed: seed))
    let count = 300
    var objects = [[RealmValue]]()
    for i in 0..<count {
      var values: [RealmValue] = [.int(Int64(i))]
      for p in properties.dropFirst() {
        if p.type == .object {
          let target = RealmValue.link(ObjectLink(className: "Thing", key: Int64(gen.int(count))))
          values.append(p.collection == .single ? target : .list([target, target]))
          continue
        }
        switch p.collection {
        case .single: values.append(gen.value(p.type, optional: p.isOptional, objects: count))
        case .list, .set: values.append(.list((0..<gen.int(4)).map { _ in gen.value(p.type, optional: p.isOptional, objects: count) }))
        case .dictionary:
          values.append(.dictionary((0..<gen.int(4)).map { DictionaryEntry("key\($0 * 7 % 5)", gen.value(p.type, optional: p.isOptional, objects: count)) }))
        }
      }
      objects.append(values)
    }
    let bytes = try RealmFileBuilder.build(schema: schema, objects: objects.map { ("Thing", nil, $0) })
    let group = try Group(reader: ByteReader(bytes: bytes))
    #expect(group.check().isEmpty, "seed \(seed)")
    try expectEqual(group.schema().classes, schema.classes.map { c in
      var c = c
      c.properties[0].isIndexed = true  // the primary key reads back as indexed
      return c
    })
    let table = try #require(group.table(forClass: "Thing"))
    var row = 0
    try group.forEachObject(in: table) { key, values in
      expectEqual(key, Int64(row))
      for (c, p) in properties.enumerated() {
        let expected = stored(objects[row][c], p)
        #expect(same(values[c], expected), "seed \(seed) object \(row) \(p.name): \(values[c]) != \(expected)")
      }
      row += 1
    }
    expectEqual(row, count)
  }
}
