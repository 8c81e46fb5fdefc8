import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

/// `FormatCompatibility.firstObstacle`: what an older file format cannot store, on files Realm
/// wrote (fixtures, Realm Core's samples, real app files) and on files built for the case.
@Suite struct FormatCompatibilityTests {
  // MARK: - Realm's files

  /// alltypes (Realm Core 14.14) has Mixed values holding nested lists and dictionaries: the
  /// first of them, found in Realm's own dump, is the obstacle for formats 20, 22 and 23.
  @Test(arguments: [20, 22, 23]) func alltypesNestedCollectionsAreTheFirstObstacleBelow24(target: Int) throws {
    let group = try Group(reader: ByteReader(bytes: try Fixtures.bytes("alltypes/before.realm")))
    let expected = try Self.firstNestedInDump(Fixtures.url("alltypes/dump.jsonl"), schema: Fixtures.url("alltypes/schema.json"))
    let obstacle = try #require(try FormatCompatibility.firstObstacle(in: group, targetFormat: target))
    expectEqual(obstacle.className, expected.className)
    expectEqual(obstacle.property, expected.property)
    expectEqual(obstacle.objectKey, expected.key)
    expectEqual(obstacle.message, "`\(expected.className).\(expected.property)` holds a nested \(expected.kind) inside a Mixed (format 24 only)")
    #expect(try FormatCompatibility.firstObstacle(in: group, targetFormat: 24) == nil)
  }

  /// Below format 20 (Realm Core 6, no writer) the schema already stops it: the first property
  /// of a type Realm Core 6 lacks, in Realm's schema order.
  @Test func alltypesFirstFormat20PropertyStopsFormat11() throws {
    let group = try Group(reader: ByteReader(bytes: try Fixtures.bytes("alltypes/before.realm")))
    let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url("alltypes/schema.json"))) as! [String: Any]
    let newTypes = ["decimal128", "objectId", "uuid", "mixed", "set", "dictionary"]
    var expected: (String, String)?
    search: for cls in schema["classes"] as! [[String: Any]] {
      for p in cls["properties"] as! [[String: Any]] {
        if newTypes.contains(p["type"] as! String) || newTypes.contains(p["objectType"] as? String ?? "") {
          expected = (cls["name"] as! String, p["name"] as! String)
          break search
        }
      }
    }
    let (className, property) = try #require(expected)
    let obstacle = try #require(try FormatCompatibility.firstObstacle(in: group, targetFormat: 11))
    expectEqual(obstacle.className, className)
    expectEqual(obstacle.property, property)
    #expect(obstacle.objectKey == nil)
    expectEqual(obstacle.introducedIn, 20)
  }

  /// nested-links: `Holder.m` holds a list nested in a Mixed in object 0 (Realm's dump says so).
  @Test func nestedLinksHolderIsRefusedBelow24() throws {
    let group = try Group(reader: ByteReader(bytes: try Fixtures.bytes("nested-links/before.realm")))
    let expected = try Self.firstNestedInDump(Fixtures.url("nested-links/dump.jsonl"), schema: Fixtures.url("nested-links/schema.json"))
    let obstacle = try #require(try FormatCompatibility.firstObstacle(in: group, targetFormat: 23))
    expectEqual(obstacle.message, "`\(expected.className).\(expected.property)` holds a nested \(expected.kind) inside a Mixed (format 24 only)")
    expectEqual(obstacle.objectKey, expected.key)
    #expect(try FormatCompatibility.firstObstacle(in: group, targetFormat: 24) == nil)
  }

  /// Every committed fixture (format 24, some with nested collections) can be stored in 24.
  @Test func everyFixtureFitsFormat24() throws {
    for name in Fixtures.readingCases {
      let group = try Group(reader: ByteReader(bytes: try Fixtures.bytes("\(name)/before.realm")))
      #expect(try FormatCompatibility.firstObstacle(in: group, targetFormat: 24) == nil, "\(name)")
    }
  }

  /// A file Realm wrote in format F holds nothing F cannot store: Realm Core's samples of
  /// formats 20, 22 and 23, and every real app file of formats 20 to 24 in `../shared/wild`.
  @Test(SharedFixtures.enabled) func realmsOwnFilesFitTheirOwnFormat() throws {
    var checked: [Int: Int] = [:]
    for url in try Self.sharedRealmFiles() {
      guard let bytes = try? [UInt8](Data(contentsOf: url)), let group = try? Group(reader: ByteReader(bytes: bytes)),
        (20...24).contains(group.fileFormat)
      else { continue }
      let obstacle = try FormatCompatibility.firstObstacle(in: group, targetFormat: group.fileFormat)
      #expect(obstacle == nil, "\(url.lastPathComponent) (format \(group.fileFormat)): \(obstacle?.message ?? "")")
      checked[group.fileFormat, default: 0] += 1
    }
    #expect(checked[20, default: 0] > 0 && checked[22, default: 0] > 0 && checked[23, default: 0] > 0, "\(checked)")
  }

  /// Realm Core 10.2 to 10.8 wrote Mixed, UUID, Set and Dictionary properties in format 20
  /// (group.hpp lists them under 21): a real format-20 app file has Mixed properties, as Realm's
  /// own reading of it says (`answers/<id>/schema.json`), so format 20 is not refused for them.
  @Test(SharedFixtures.enabled) func format20HoldsMixedAsRealmCore10Wrote() throws {
    let wild = try #require(SharedFixtures.url("wild"))
    var found = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: wild.appendingPathComponent("files").path).sorted() {
      let id = String(name.dropLast(".realm".count))
      guard let bytes = try? [UInt8](Data(contentsOf: wild.appendingPathComponent("files/\(name)"))),
        let group = try? Group(reader: ByteReader(bytes: bytes)), group.fileFormat == 20,
        let answer = try? Data(contentsOf: wild.appendingPathComponent("answers/\(id)/schema.json")),
        let schema = try JSONSerialization.jsonObject(with: answer) as? [String: Any]
      else { continue }
      let types = (schema["classes"] as? [[String: Any]] ?? []).flatMap { ($0["properties"] as? [[String: Any]]) ?? [] }
        .flatMap { [$0["type"] as? String, $0["objectType"] as? String] }
      guard types.contains(where: { ["mixed", "uuid", "set", "dictionary"].contains($0) }) else { continue }
      found += 1
      #expect(try FormatCompatibility.firstObstacle(in: group, targetFormat: 20) == nil, "\(name)")
      #expect(try FormatCompatibility.firstObstacle(in: group, targetFormat: 11) != nil, "\(name)")
    }
    #expect(found > 0)
  }

  /// Realm Core's `downgrade_asymmetric` sample (format 22) has an asymmetric table, which
  /// Realm Core 10 (format 20) has no notion of.
  @Test(SharedFixtures.enabled) func asymmetricTableNeedsFormat22() throws {
    let url = try #require(SharedFixtures.url("fixtures/realm-core-samples/test__downgrade_asymmetric/original.realm"))
    let group = try Group(reader: ByteReader(bytes: [UInt8](try Data(contentsOf: url))))
    let asymmetric = try #require(group.tables.first { $0.type == .topLevelAsymmetric })
    let obstacle = try #require(try FormatCompatibility.firstObstacle(in: group, targetFormat: 20))
    expectEqual(obstacle.message, "`\(asymmetric.name)` is an asymmetric class (format 22 and later)")
    #expect(try FormatCompatibility.firstObstacle(in: group, targetFormat: 22) == nil)
  }

  // MARK: - Files built for the case

  /// Realm Core 10.2 to 10.8 wrote Sets of Mixed in format 20; Realm Core 6 (format 11) had none.
  @Test func setOfMixedNeedsFormat20() throws {
    let (group, _) = try Self.build([
      ObjectSchema(name: "Tag", properties: [
        Property(name: "name", type: .string),
        Property(name: "value", type: .mixed, collection: .set, isOptional: true),
      ])
    ], objects: [("Tag", [.string("a"), .set([.int(1), .string("x")])])])
    try expectEqual(FormatCompatibility.firstObstacle(in: group, targetFormat: 11)?.message, "`Tag.value` is a Set of Mixed (format 20 and later)")
    #expect(try FormatCompatibility.firstObstacle(in: group, targetFormat: 20) == nil)
  }

  /// Real app files written by Realm Core 13 with full-text indexes: formats before 23 cannot
  /// hold them; the obstacle is the first such property in schema order.
  @Test(SharedFixtures.enabled) func fullTextIndexesOfRealFilesNeedFormat23() throws {
    var seen = 0
    for url in try Self.sharedRealmFiles() {
      guard let bytes = try? [UInt8](Data(contentsOf: url)), let group = try? Group(reader: ByteReader(bytes: bytes)) else { continue }
      let first = FormatCompatibility.orderedTables(group).lazy.compactMap { t in
        t.publicColumns.first { $0.attributes.contains(.fullTextIndexed) }.map { "`\(t.linkName).\($0.name)`" }
      }.first
      guard let first else { continue }
      seen += 1
      try expectEqual(FormatCompatibility.firstObstacle(in: group, targetFormat: 22)?.message, "\(first) has a full-text index (format 23 and later)")
      #expect(try FormatCompatibility.firstObstacle(in: group, targetFormat: 23) == nil)
    }
    #expect(seen > 0)
  }

  /// The first object in key order, then the first Mixed property in column order.
  @Test func nestedCollectionFoundInKeyOrderThenColumnOrder() throws {
    let item: [Property] = [
      Property(name: "name", type: .string),
      Property(name: "value", type: .mixed, isOptional: true),
      Property(name: "attrs", type: .mixed, isOptional: true),
      Property(name: "bag", type: .mixed, collection: .dictionary, isOptional: true),
    ]
    var objects: [(String, [RealmValue])] = (0..<300).map { i in
      ("Item", [.string("i\(i)"), .int(Int64(i)), .string("s"), .dictionary([DictionaryEntry("k", .double(1))])])
    }
    objects[280].1[2] = .list([.int(1), .list([])])  // attrs of object 280
    objects[290].1[1] = .dictionary([])  // value of a later object
    objects[290].1[3] = .dictionary([DictionaryEntry("n", .list([]))])
    let (group, keys) = try Self.build([ObjectSchema(name: "Item", properties: item)], objects: objects)
    let obstacle = try #require(try FormatCompatibility.firstObstacle(in: group, targetFormat: 23))
    expectEqual(obstacle.message, "`Item.attrs` holds a nested list inside a Mixed (format 24 only)")
    expectEqual(obstacle.objectKey, keys[280])

    objects[280].1[2] = .string("s")
    let (later, _) = try Self.build([ObjectSchema(name: "Item", properties: item)], objects: objects)
    let second = try #require(try FormatCompatibility.firstObstacle(in: later, targetFormat: 22))
    expectEqual(second.message, "`Item.value` holds a nested dictionary inside a Mixed (format 24 only)")
    expectEqual(second.objectKey, keys[290])

    objects[290].1[1] = .null
    let (inDictionary, _) = try Self.build([ObjectSchema(name: "Item", properties: item)], objects: objects)
    #expect(try FormatCompatibility.firstObstacle(in: inDictionary, targetFormat: 23)?.message
      == "`Item.bag` holds a nested list inside a Mixed (format 24 only)")

    objects[290].1[3] = .dictionary([])
    let (flat, _) = try Self.build([ObjectSchema(name: "Item", properties: item)], objects: objects)
    #expect(try FormatCompatibility.firstObstacle(in: flat, targetFormat: 22) == nil)
  }

  /// Tables whose Mixed properties are all single values are read from the leaves' type tags
  /// alone: the same answers, in key order (300 objects: two cluster leaves), then column order.
  @Test func singleMixedColumnsGiveTheSameOrder() throws {
    let item: [Property] = [
      Property(name: "name", type: .string),
      Property(name: "value", type: .mixed, isOptional: true),
      Property(name: "attrs", type: .mixed, isOptional: true),
    ]
    var objects: [(String, [RealmValue])] = (0..<300).map { i in ("Item", [.string("i\(i)"), .int(Int64(i)), .string("s")]) }
    objects[290].1[1] = .dictionary([])
    objects[290].1[2] = .list([])
    let (late, lateKeys) = try Self.build([ObjectSchema(name: "Item", properties: item)], objects: objects)
    let second = try #require(try FormatCompatibility.firstObstacle(in: late, targetFormat: 23))
    expectEqual(second.message, "`Item.value` holds a nested dictionary inside a Mixed (format 24 only)")
    expectEqual(second.objectKey, lateKeys[290])

    objects[7].1[2] = .list([.int(1)])
    let (early, earlyKeys) = try Self.build([ObjectSchema(name: "Item", properties: item)], objects: objects)
    let first = try #require(try FormatCompatibility.firstObstacle(in: early, targetFormat: 22))
    expectEqual(first.message, "`Item.attrs` holds a nested list inside a Mixed (format 24 only)")
    expectEqual(first.objectKey, earlyKeys[7])

    objects[7].1[2] = .null
    objects[290].1[1] = .string("x")
    objects[290].1[2] = .data([1])
    let (flat, _) = try Self.build([ObjectSchema(name: "Item", properties: item)], objects: objects)
    #expect(try FormatCompatibility.firstObstacle(in: flat, targetFormat: 20) == nil)
  }

  /// Schema obstacles come before values, classes in byte order of their names.
  @Test func schemaObstaclesComeFirstInSchemaOrder() throws {
    let (group, _) = try Self.build([
      ObjectSchema(name: "b", properties: [Property(name: "id", type: .uuid, collection: .list)]),
      ObjectSchema(name: "A", properties: [
        Property(name: "m", type: .mixed, isOptional: true),
        Property(name: "tags", type: .string, collection: .dictionary),
      ]),
    ], objects: [("A", [.list([]), .dictionary([])])])
    try expectEqual(FormatCompatibility.firstObstacle(in: group, targetFormat: 11)?.message, "`A.m` is a Mixed (format 20 and later)")
    #expect(try FormatCompatibility.firstObstacle(in: group, targetFormat: 23)?.message
      == "`A.m` holds a nested list inside a Mixed (format 24 only)")
    let (onlyB, _) = try Self.build(
      [ObjectSchema(name: "b", properties: [Property(name: "id", type: .uuid, collection: .list)])], objects: [])
    try expectEqual(FormatCompatibility.firstObstacle(in: onlyB, targetFormat: 11)?.message, "`b.id` is a List of UUID (format 20 and later)")
    #expect(try FormatCompatibility.firstObstacle(in: onlyB, targetFormat: 20) == nil)
  }

  // MARK: - Helpers

  /// A format-24 file of `objects` (``CraftedFiles/file(classes:objects:)``), and the objects' keys.
  static func build(_ classes: [ObjectSchema], objects: [(String, [RealmValue])]) throws -> (Group, [Int64]) {
    let (bytes, keys) = try CraftedFiles.file(classes: classes, objects: objects.map { (className: $0.0, values: $0.1) })
    return (try Group(reader: ByteReader(bytes: bytes)), keys)
  }

  /// The first Mixed value of a Realm dump holding a nested collection (dump-format.md: a
  /// nested list is an array, a nested dictionary an object without `$` members), with the
  /// classes in the schema's order, objects in the dump's (key) order, properties in schema order.
  static func firstNestedInDump(_ dump: URL, schema: URL) throws -> (className: String, property: String, key: Int64, kind: String) {
    let schemaJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: schema)) as! [String: Any]
    var objectsByClass: [String: [[String: Any]]] = [:]
    for line in TestFiles.lines(try TestFiles.bytes(dump.path)) {
      let object = try JSONSerialization.jsonObject(with: Data(line)) as! [String: Any]
      objectsByClass[object["$class"] as! String, default: []].append(object)
    }
    func kind(_ v: Any?) -> String? {
      if v is [Any] { return "list" }
      if let d = v as? [String: Any], !d.keys.contains(where: { $0.hasPrefix("$") }) { return "dictionary" }
      return nil
    }
    for cls in schemaJSON["classes"] as! [[String: Any]] {
      let name = cls["name"] as! String
      let mixed = (cls["properties"] as! [[String: Any]]).filter { ($0["type"] as? String) == "mixed" || ($0["objectType"] as? String) == "mixed" }
      for object in objectsByClass[name] ?? [] {
        for p in mixed {
          let pname = p["name"] as! String
          let value = object[pname]
          let found: String? =
            switch p["type"] as! String {
            case "mixed": kind(value)
            case "dictionary": (value as? [String: Any])?.values.lazy.compactMap(kind).first
            default: (value as? [Any])?.lazy.compactMap(kind).first
            }
          if let found { return (name, pname, (object["$key"] as! NSNumber).int64Value, found) }
        }
      }
    }
    throw CocoaError(.coderValueNotFound)
  }

  /// Realm Core's samples and the real app files, when `../shared` is present.
  static func sharedRealmFiles() throws -> [URL] {
    var urls: [URL] = []
    let fm = FileManager.default
    if let samples = SharedFixtures.url("fixtures/realm-core-samples") {
      for dir in try fm.contentsOfDirectory(atPath: samples.path).sorted() {
        let file = samples.appendingPathComponent("\(dir)/original.realm")
        if fm.fileExists(atPath: file.path) { urls.append(file) }
      }
    }
    if let wild = SharedFixtures.url("wild/files") {
      urls += try fm.contentsOfDirectory(atPath: wild.path).sorted().filter { $0.hasSuffix(".realm") }.map { wild.appendingPathComponent($0) }
    }
    return urls
  }
}
