import Foundation
import RealmFormat
import RealmModel
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmQuery

/// Queries served by the file's search indexes give the objects the scan gives (the same
/// query with the indexes disabled), on files whose indexes realmctl wrote (several index
/// levels) and on files Realm wrote, and Realm's own answers; a damaged index gives a scan or
/// a clean error, never another answer.
@Suite struct QueryIndexTests {
  /// `Row` objects with an indexed property of every type an index serves.
  static let rowSchema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
    ObjectSchema(name: "Row", primaryKey: "id", properties: [
      Property(name: "id", type: .int),
      Property(name: "name", type: .string, isIndexed: true),
      Property(name: "tag", type: .string, isOptional: true, isIndexed: true),
      Property(name: "n", type: .int, isOptional: true, isIndexed: true),
      Property(name: "flag", type: .bool, isIndexed: true),
      Property(name: "when", type: .date, isIndexed: true),
      Property(name: "oid", type: .objectId, isIndexed: true),
      Property(name: "uid", type: .uuid, isIndexed: true),
      Property(name: "score", type: .double),
    ]),
  ])

  static let tags: [String?] = [nil, "alpha", "beta", "gamma", "a", "ab", "été", "", "\u{1F600} smile", "zzzz-long-tag-value"]

  /// The values of object `i` of the generated file.
  static func row(_ i: Int) -> [RealmValue] {
    let n: RealmValue = i % 11 == 0 ? .null : .int(Int64((i * 7919) % 1000 - 500))
    return [
      .int(Int64(i * 3 - 1000)), .string("name \(i)"), tags[i % tags.count].map { .string($0) } ?? .null, n,
      .bool(i % 3 == 0), .date(Timestamp(seconds: Int64(i % 97) * 86_400 - 400_000, nanoseconds: 0)),
      .objectId(ObjectId(high: UInt64(i % 50), low: UInt32(i % 7))),
      .uuid(RealmUUID(high: UInt64(i % 40) << 56, low: UInt64(i))),
      .double(Double(i) * 0.5),
    ]
  }

  /// A format-24 file of `count` rows, as bytes.
  static func rows(_ count: Int) throws -> [UInt8] {
    let builder = try RealmFileBuilder(schema: rowSchema, sink: BufferNodeSink())
    for i in 0..<count { _ = try builder.append(className: "Row", key: nil, values: row(i)) }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    return builder.sink.bytes
  }

  static let rowBytes: [UInt8] = (try? rows(4000)) ?? []

  static func group(_ bytes: [UInt8]) throws -> Group { try Group(reader: ByteReader(bytes: bytes)) }

  /// Queries an index serves, with whether it does.
  static let indexedQueries: [(String, Bool)] = [
    ("id == 2000", true), ("id == -1000", true), ("id == 7", true), ("id IN {-997, 2, 11000, 5}", true),
    ("name == 'name 1234'", true), ("name == 'name 99999'", true), ("name BEGINSWITH 'name 12'", true),
    ("name BEGINSWITH 'name 3999'", true), ("name BEGINSWITH 'nam'", false), ("name BEGINSWITH 'name'", false),
    ("tag == 'a'", true), ("tag == 'été'", true), ("tag == ''", true), ("tag BEGINSWITH 'a'", true),
    ("tag BEGINSWITH 'é'", true), ("tag BEGINSWITH '\u{1F600}'", true), ("tag == 'zzzz-long-tag-value'", true),
    ("tag BEGINSWITH 'zzzz-lo'", true), ("tag IN {'beta', 'gamma', 'none'}", true),
    ("n == -500", true), ("n == 499", true), ("n IN {0, 1, 2, 3, -1}", true),
    ("flag == true AND n == 5", true), ("n == 17 AND score > 100", true), ("id == 5 OR name == 'name 77'", true),
    ("when == T-400000:0", true), ("oid == oid(000000000000000300000003)", true),
    ("uid == uuid(03000000-0000-0000-0000-000000000003)", true),
    ("name == 'name 10' AND (tag == 'a' OR n > 0)", true),
    // Not served by an index: null, case-insensitive, other operators, a NOT.
    ("tag == nil", false), ("name ==[c] 'NAME 12'", false), ("name CONTAINS '12'", false), ("n > 400", false),
    ("NOT id == 5", false), ("id == 5 OR score > 10", false),
  ]

  @Test("an index lookup gives the objects the scan gives", arguments: indexedQueries.map(\.0))
  func indexAgreesWithScan(_ text: String) throws {
    let group = try Self.group(Self.rowBytes)
    let query = try RealmQuery(text, className: "Row", schema: Self.rowSchema, group: group)
    let plan = try query.plan(in: group)
    let expectIndex = Self.indexedQueries.first { $0.0 == text }!.1
    let scan = try query.objectKeys(in: group, plan: try query.plan(in: group, useIndexes: false))
    #expect(plan.note == nil)
    if expectIndex {
      #expect(plan.usesIndex, "\(text): \(plan)")
      #expect(plan.objectsRead < group.table(forClass: "Row")!.objectCount)
    }
    try expectEqual(query.objectKeys(in: group, plan: plan), scan, "\(plan)")
    try expectEqual(query.count(in: group, plan: plan), scan.count)
  }

  @Test func theGeneratedIndexesHaveSeveralLevels() throws {
    let group = try Self.group(Self.rowBytes)
    let column = try #require(group.table(forClass: "Row")?.column(named: "id"))
    let root = try ArrayNode(group.reader, column.searchIndexRef)
    #expect(root.isInner)
    // "name N" shares its first 4 bytes: a sub-index below the root's one key.
    let query = try RealmQuery("name == 'name 3333'", className: "Row", schema: Self.rowSchema, group: group)
    try expectEqual(query.objectKeys(in: group), [3333])
  }

  /// Realm's own answers on the same file.
  @Test(RealmOracle.enabled) func indexedQueriesGiveRealmsAnswers() throws {
    let path = try Fixtures.temporaryDirectory().appendingPathComponent("rows.realm").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.rowBytes)))
    let group = try Self.group(Self.rowBytes)
    let extra = [
      "n == -500 SORT(name DESC) LIMIT(3)", "flag == true SORT(flag DESC, n ASC) LIMIT(7)",
      "TRUEPREDICATE SORT(tag ASC) LIMIT(12)", "score > 100 SORT(n DESC) LIMIT(25)",
    ]
    for text in Self.indexedQueries.map(\.0) + extra {
      let query = try RealmQuery(text, className: "Row", schema: Self.rowSchema, group: group)
      let realm = try #require(try RealmOracle.core14.queryKeys(path, className: "Row", where: text), "\(text)")
      let ours = try query.objectKeys(in: group)
      if text.contains("SORT") {
        expectEqual(ours, realm, "\(text)")
      } else {
        #expect(Set(ours) == Set(realm) && ours.count == realm.count, "\(text)")
      }
    }
  }

  /// SORT with LIMIT keeps the top k: the same objects, in the same order, as the whole sort
  /// cut to k (ties in key order).
  @Test func sortWithLimitKeepsTheFirstInSortOrder() throws {
    let group = try Self.group(Self.rowBytes)
    for (sort, k) in [("flag DESC", 10), ("n ASC", 33), ("tag DESC, n ASC", 100), ("when ASC", 1), ("score DESC", 0)] {
      let limited = try RealmQuery("TRUEPREDICATE SORT(\(sort)) LIMIT(\(k))", className: "Row", schema: Self.rowSchema, group: group)
      let whole = try RealmQuery("TRUEPREDICATE SORT(\(sort))", className: "Row", schema: Self.rowSchema, group: group)
      try expectEqual(limited.objectKeys(in: group), Array(try whole.objectKeys(in: group).prefix(k)), "\(sort)")
    }
  }

  // MARK: - Indexes Realm wrote

  /// Every indexed property of the files Realm wrote: `==` each stored value (and
  /// `BEGINSWITH` prefixes of strings) through the index gives what the scan gives.
  @Test(arguments: [
    "alltypes/before.realm", "format-samples/v24_edge.realm", "format-samples/v24_commit.realm",
    "embedded/before.realm", "strings/before.realm",
  ])
  func realmWrittenIndexesAgreeWithScan(_ fixture: String) throws {
    let file = try RealmFile.open(path: Fixtures.url(fixture).path)
    #expect(try Self.checkEveryIndex(file.group) > 0)
  }

  /// The row file as Realm writes it (Realm builds its indexes object by object, so its
  /// nodes split elsewhere than ours): every index lookup agrees with the scan.
  @Test(RealmOracle.enabled) func indexesRealmBuiltOfManyObjectsAgreeWithScan() throws {
    let directory = try Fixtures.temporaryDirectory()
    let ours = directory.appendingPathComponent("ours.realm").path
    #expect(FileManager.default.createFile(atPath: ours, contents: Data(Self.rowBytes)))
    let schema = directory.appendingPathComponent("schema.json").path
    let data = directory.appendingPathComponent("data.jsonl").path
    try RealmOracle.core14.schema(ours).write(toFile: schema, atomically: true, encoding: .utf8)
    try RealmOracle.core14.dump(ours).write(toFile: data, atomically: true, encoding: .utf8)
    let theirs = directory.appendingPathComponent("realm.realm").path
    let created = try RealmOracle.core14.run(["create", "--schema", schema, "--version", "1", "--data", data, theirs])
    expectEqual(created.status, 0, "\(created.output)\(created.errorOutput)")
    let file = try RealmFile.open(path: theirs)
    #expect(try Self.checkEveryIndex(file.group) > 50)
    let column = try #require(file.group.table(forClass: "Row")?.column(named: "id"))
    #expect(try ArrayNode(file.group.reader, column.searchIndexRef).isInner)
  }

  /// Checks `==` (and prefixes) for up to 16 stored values of every indexed property;
  /// returns the number of lookups made.
  static func checkEveryIndex(_ group: Group) throws -> Int {
    let schema = try group.schema()
    var lookups = 0
    for cls in schema.classes where !cls.isEmbedded {
      guard let table = group.table(forClass: cls.name) else { continue }
      for (pi, p) in cls.properties.enumerated() where p.collection == .single {
        guard let column = table.column(named: p.name), column.hasSearchIndex,
          [.int, .bool, .string, .date, .objectId, .uuid].contains(p.type)
        else { continue }
        var values: [RealmValue] = []
        try group.forEachObject(in: table, columns: [pi]) { _, v in
          if values.count < 16, !values.contains(v[pi]) { values.append(v[pi]) }
        }
        var texts = values.compactMap { literal($0).map { "\(p.name) == \($0)" } }
        for case .string(let s) in values.prefix(6) {
          for n in [1, 3, 4, 5, 9] where n <= s.count {
            if let prefix = literal(.string(String(s.prefix(n)))) { texts.append("\(p.name) BEGINSWITH \(prefix)") }
          }
        }
        for text in texts {
          let query = try RealmQuery(text, className: cls.name, schema: schema, group: group)
          let plan = try query.plan(in: group)
          let scan = try query.objectKeys(in: group, plan: try query.plan(in: group, useIndexes: false))
          #expect(plan.note == nil, "\(cls.name): \(text)")
          try expectEqual(query.objectKeys(in: group, plan: plan), scan, "\(cls.name): \(text): \(plan)")
          if plan.usesIndex { lookups += 1 }
        }
      }
    }
    return lookups
  }

  /// A value as a query literal, nil for values the check leaves out.
  static func literal(_ v: RealmValue) -> String? {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    switch v {
    case .int(let i): return "\(i)"
    case .bool(let b): return b ? "true" : "false"
    case .string(let s):
      guard s.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0 != "\\" && $0 != "'" }) else { return nil }
      return "'\(s)'"
    case .date(let t): return "T\(t.seconds):\(t.nanoseconds)"
    case .objectId(let o): return "oid(\(hex(o.bytes)))"
    case .uuid(let u):
      let h = Array(hex(u.bytes))
      return "uuid(\(String(h[0..<8]))-\(String(h[8..<12]))-\(String(h[12..<16]))-\(String(h[16..<20]))-\(String(h[20...])))"
    default: return nil
    }
  }

  // MARK: - Missing and damaged indexes

  /// The same property without an index: a scan, the same objects.
  @Test func withoutAnIndexTheQueryScans() throws {
    var schema = Self.rowSchema
    schema.classes[0].properties[1].isIndexed = false
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    for i in 0..<500 { _ = try builder.append(className: "Row", key: nil, values: Self.row(i)) }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    let plain = try Self.group(builder.sink.bytes)
    let indexed = try Self.group(try Self.rows(500))
    for text in ["name == 'name 123'", "name BEGINSWITH 'name 4'"] {
      let q = try RealmQuery(text, className: "Row", schema: schema, group: plain)
      #expect(try !q.plan(in: plain).usesIndex)
      let qi = try RealmQuery(text, className: "Row", schema: Self.rowSchema, group: indexed)
      #expect(try qi.plan(in: indexed).usesIndex)
      try expectEqual(q.objectKeys(in: plain), qi.objectKeys(in: indexed))
    }
  }

  /// A copy of the row file with the bytes at `offset` replaced.
  static func damaged(_ edit: (inout [UInt8], Group) throws -> Void) throws -> Group {
    var bytes = rowBytes
    try edit(&bytes, try group(rowBytes))
    return try group(bytes)
  }

  static func indexRoot(_ group: Group, _ property: String) throws -> ArrayNode {
    let column = try #require(group.table(forClass: "Row")?.column(named: property))
    return try ArrayNode(group.reader, column.searchIndexRef)
  }

  /// Sets element `i` of a node of width 8 to 64.
  static func setElement(_ bytes: inout [UInt8], _ node: ArrayNode, _ i: Int, _ value: UInt64) {
    let width = node.width / 8
    for b in 0..<width { bytes[node.payload + width * i + b] = UInt8(truncatingIfNeeded: value >> UInt64(8 * b)) }
  }

  @Test("a damaged index node gives a scan with a note, and the scan's objects", arguments: [
    "keys of width 16", "a cycle", "keys out of order", "a child that is not an index node",
  ])
  func damagedIndexFallsBackToScan(_ damage: String) throws {
    let group = try Self.damaged { bytes, group in
      let root = try Self.indexRoot(group, "id")
      let keys = try root.child(0)
      switch damage {
      case "keys of width 16": bytes[keys.ref.rawValue + 4] = (bytes[keys.ref.rawValue + 4] & ~7) | 5
      case "a cycle": for i in 1..<root.count { Self.setElement(&bytes, root, i, UInt64(root.ref.rawValue)) }
      case "keys out of order":
        for b in 0..<4 { bytes.swapAt(keys.payload + b, keys.payload + 4 + b) }
      default: for i in 1..<root.count { Self.setElement(&bytes, root, i, UInt64(keys.ref.rawValue)) }
      }
    }
    let clean = try Self.group(Self.rowBytes)
    for text in ["id == -1000", "id IN {-1000, -997, 2000}"] {
      let query = try RealmQuery(text, className: "Row", schema: Self.rowSchema, group: clean)
      let plan = try query.plan(in: group)
      #expect(!plan.usesIndex)
      expectEqual(plan.note?.contains("search index"), true, "\(plan)")
      try expectEqual(query.objectKeys(in: group, plan: plan), query.objectKeys(in: clean), "\(text)")
    }
  }

  /// An index entry naming an object that does not exist is a clean error, not an answer.
  @Test func anIndexNamingAMissingObjectIsAnError() throws {
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "T", properties: [Property(name: "code", type: .string, isIndexed: true)]),
    ])
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    for s in ["a", "b", "c"] { _ = try builder.append(className: "T", key: nil, values: [.string(s)]) }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    var bytes = builder.sink.bytes
    let clean = try Self.group(bytes)
    let column = try #require(clean.table(forClass: "T")?.column(named: "code"))
    let root = try ArrayNode(clean.reader, column.searchIndexRef)
    #expect(!root.isInner && root.count == 4)
    // The entry of "a" (tagged key 0) now names object 999.
    #expect(root.width >= 16)
    Self.setElement(&bytes, root, 1, UInt64(999 << 1 | 1))
    let group = try Self.group(bytes)
    let query = try RealmQuery("code == 'a'", className: "T", schema: schema, group: group)
    #expect(try query.plan(in: group).usesIndex)
    #expect(throws: FormatError.self) { try query.objectKeys(in: group) }
    try expectEqual(query.objectKeys(in: group, plan: query.plan(in: group, useIndexes: false)), [0])
  }
}

/// `link.property == constant` through a single link to an indexed property: the targets from
/// the index, the objects linking to them from the targets' backlinks; the same objects as the
/// scan and as Realm.
@Suite struct QueryLinkIndexTests {
  static let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
    ObjectSchema(name: "Node", primaryKey: "id", properties: [
      Property(name: "id", type: .int),
      Property(name: "name", type: .string, isIndexed: true),
      Property(name: "parent", type: .object, objectType: "Node", isOptional: true),
    ]),
  ])

  /// Node i links to node i / 3 (node 0 to none): several origins per target, backlink lists.
  static let bytes: [UInt8] = {
    guard let builder = try? RealmFileBuilder(schema: schema, sink: BufferNodeSink()) else { return [] }
    for i in 0..<3000 {
      let parent: RealmValue = i == 0 ? .null : .link(ObjectLink(className: "Node", key: Int64(i / 3)))
      _ = try? builder.append(className: "Node", key: nil, values: [.int(Int64(i * 2)), .string("n\(i % 500)"), parent])
    }
    guard let file = try? builder.finish() else { return [] }
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    return builder.sink.bytes
  }()

  static let queries = [
    "parent.id == 200", "parent.id == 0", "parent.id == 1999", "parent.id == 7", "parent.name == 'n17'",
    "parent.id == 200 AND id > 300", "parent.id == 20 OR parent.id == 40", "parent.id != 200",
  ]

  @Test(arguments: queries)
  func throughALinkAgreesWithScan(_ text: String) throws {
    let group = try Group(reader: ByteReader(bytes: Self.bytes))
    let query = try RealmQuery(text, className: "Node", schema: Self.schema, group: group)
    let plan = try query.plan(in: group)
    let scan = try query.objectKeys(in: group, plan: try query.plan(in: group, useIndexes: false))
    if text.hasPrefix("parent.id ==") || text.hasPrefix("parent.name ==") { #expect(plan.usesIndex, "\(plan)") }
    if text == "parent.id != 200" { #expect(!plan.usesIndex) }
    try expectEqual(query.objectKeys(in: group, plan: plan), scan)
    if text == "parent.id == 200" { expectEqual(scan, [300, 301, 302]) }
  }

  @Test(RealmOracle.enabled) func throughALinkGivesRealmsAnswers() throws {
    let path = try Fixtures.temporaryDirectory().appendingPathComponent("nodes.realm").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data(Self.bytes)))
    let group = try Group(reader: ByteReader(bytes: Self.bytes))
    for text in Self.queries {
      let realm = try #require(try RealmOracle.core14.queryKeys(path, className: "Node", where: text))
      let ours = try RealmQuery(text, className: "Node", schema: Self.schema, group: group).objectKeys(in: group)
      #expect(Set(ours) == Set(realm) && ours.count == realm.count, "\(text)")
    }
  }
}
