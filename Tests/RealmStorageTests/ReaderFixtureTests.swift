import Foundation
import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

/// One Realm file among the fixtures with Realm's answers for it.
struct ReadableFixture: CustomStringConvertible, Sendable {
  /// Path below the fixtures root of `location`.
  var realm: String
  /// Realm's schema.json, when present.
  var schema: String?
  /// Realm's dump.jsonl, when present.
  var dump: String?
  /// `Tests/Fixtures`, or `../shared/fixtures` for Realm Core's samples.
  var location: FixtureLocation = .committed
  /// True when Realm produced the answers after upgrading the file (older formats).
  var upgradedByRealm: Bool { realm.hasPrefix("\(SharedFixtures.realmCoreSamples)/") }
  var description: String { realm }

  /// Every committed fixture file a reader must read: reading and migration cases (before and
  /// after) and every format sample.
  static let all: [ReadableFixture] = {
    let fm = FileManager.default
    let root = Fixtures.root.path
    func exists(_ p: String) -> Bool { fm.fileExists(atPath: root + "/" + p) }
    var out: [ReadableFixture] = []
    let dirs = ((try? fm.contentsOfDirectory(atPath: root)) ?? []).sorted()
    for d in dirs {
      if exists("\(d)/before.realm") {
        out.append(ReadableFixture(realm: "\(d)/before.realm", schema: "\(d)/schema.json", dump: "\(d)/dump.jsonl"))
      }
      for prefix in ["after", "copy"] where exists("\(d)/\(prefix).realm") {
        out.append(ReadableFixture(
          realm: "\(d)/\(prefix).realm", schema: "\(d)/\(prefix).schema.json", dump: "\(d)/\(prefix).dump.jsonl"))
      }
    }
    for step in ["v1", "v2", "v3"] where exists("user-tutorial/steps/\(step)/after.realm") {
      let d = "user-tutorial/steps/\(step)"
      out.append(ReadableFixture(realm: "\(d)/after.realm", schema: "\(d)/after.schema.json", dump: "\(d)/after.dump.jsonl"))
    }
    let formats = ((try? fm.contentsOfDirectory(atPath: root + "/format-samples")) ?? []).sorted()
    for f in formats where f.hasSuffix(".realm") {
      out.append(ReadableFixture(realm: "format-samples/\(f)", schema: nil, dump: nil))
    }
    return out
  }()

  /// Realm Core's samples with Realm's answers (`../shared`; empty when it is absent).
  static let realmCoreSamples = FixturePair.realmCoreSamples.map { answers in
    let sample = (answers.dump as NSString).deletingLastPathComponent
    return ReadableFixture(realm: "\(sample)/original.realm", schema: answers.schema, dump: answers.dump, location: .shared)
  }

  func open() throws -> RealmFile {
    try RealmFile.open(path: try location.path(realm))
  }

  /// Realm's schema answer, parsed.
  func schemaJSON() throws -> JSONValue { try fixtureJSON(try #require(schema), location) }

  /// Realm's dump answer, parsed.
  func dumpLines() throws -> [JSONValue] { try fixtureLines(try #require(dump), location) }
}

/// Reads a JSON fixture file.
func fixtureJSON(_ path: String, _ location: FixtureLocation = .committed) throws -> JSONValue {
  try JSONParser.parse(try location.bytes(path))
}

/// Reads a JSON Lines fixture file.
func fixtureLines(_ path: String, _ location: FixtureLocation = .committed) throws -> [JSONValue] {
  let bytes = try location.bytes(path)
  var out: [JSONValue] = []
  for line in bytes.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
    out.append(try JSONParser.parse(Array(line)))
  }
  return out
}

@Suite struct ReaderFixtureTests {
  @Test func findsTheFixtures() {
    #expect(ReadableFixture.all.count >= 40)
    #expect(ReadableFixture.all.contains { $0.realm == "alltypes/before.realm" })
  }

  @Test(SharedFixtures.enabled)
  func findsRealmCoreSamples() {
    #expect(ReadableFixture.realmCoreSamples.count >= 10)
  }

  @Test(arguments: ReadableFixture.all)
  func readsEveryObject(_ fixture: ReadableFixture) throws { try readsEveryObject(of: fixture) }

  @Test(SharedFixtures.enabled, arguments: ReadableFixture.realmCoreSamples)
  func readsEveryObjectOfRealmCoreSamples(_ fixture: ReadableFixture) throws { try readsEveryObject(of: fixture) }

  func readsEveryObject(of fixture: ReadableFixture) throws {
    let file = try fixture.open()
    let group = file.group
    for table in group.tables {
      var count = 0
      var lastKey = Int64.min
      try group.forEachObject(in: table) { key, values in
        expectEqual(values.count, table.publicColumns.count)
        #expect(count == 0 || key > lastKey, "keys ascend in \(table.name)")
        lastKey = key
        count += 1
      }
      expectEqual(count, table.objectCount, "\(table.name)")
    }
    _ = try group.schema()
  }

  @Test(arguments: ReadableFixture.all.filter { $0.schema != nil })
  func schemaMatchesRealm(_ fixture: ReadableFixture) throws { try schemaMatchesRealm(of: fixture) }

  @Test(SharedFixtures.enabled, arguments: ReadableFixture.realmCoreSamples)
  func schemaOfRealmCoreSamplesMatchesRealm(_ fixture: ReadableFixture) throws { try schemaMatchesRealm(of: fixture) }

  func schemaMatchesRealm(of fixture: ReadableFixture) throws {
    let file = try fixture.open()
    let schema = try file.group.schema()
    let expected = try fixture.schemaJSON()
    // Realm's answers record the file's own format, also for files it read after upgrading.
    expectEqual(expected["fileFormat"], .int(Int64(schema.fileFormat)))
    let version: JSONValue = schema.schemaVersion.map { .int($0) } ?? .null
    expectEqual(expected["schemaVersion"], version)
    guard case .array(let classes)? = expected["classes"] else {
      Issue.record("schema.json has no classes")
      return
    }
    expectEqual(classes.map { $0["name"] }, schema.classes.map { .string($0.name) })
    for (json, cls) in zip(classes, schema.classes) {
      expectEqual(json["embedded"], .bool(cls.isEmbedded), "\(cls.name)")
      expectEqual(json["primaryKey"], (cls.primaryKey.map { .string($0) } ?? .null), "\(cls.name)")
      guard case .array(let props)? = json["properties"] else { continue }
      expectEqual(props.map { $0["name"] }, cls.properties.map { .string($0.name) }, "\(cls.name)")
      for (p, prop) in zip(props, cls.properties) {
        let where_ = "\(cls.name).\(prop.name)"
        let type: String
        let objectType: String?
        switch prop.collection {
        case .single:
          type = prop.type.rawValue
          objectType = prop.objectType
        case .list, .set, .dictionary:
          type = prop.collection.rawValue
          objectType = prop.objectType ?? prop.type.rawValue
        }
        expectEqual(p["type"], .string(type), "\(where_)")
        expectEqual(p["objectType"], objectType.map { .string($0) }, "\(where_)")
        expectEqual(p["optional"], .bool(prop.isOptional), "\(where_)")
        expectEqual(p["indexed"], .bool(prop.isIndexed), "\(where_)")
      }
    }
  }

  @Test(arguments: ReadableFixture.all.filter { $0.dump != nil })
  func valuesMatchRealmsDump(_ fixture: ReadableFixture) throws { try valuesMatchRealmsDump(of: fixture) }

  @Test(SharedFixtures.enabled, arguments: ReadableFixture.realmCoreSamples)
  func valuesOfRealmCoreSamplesMatchRealmsDump(_ fixture: ReadableFixture) throws {
    try valuesMatchRealmsDump(of: fixture)
  }

  func valuesMatchRealmsDump(of fixture: ReadableFixture) throws {
    let file = try fixture.open()
    let group = file.group
    let lines = try fixture.dumpLines()
    var index = 0
    var problems: [String] = []
    let classes = group.tables.filter { $0.className != nil && !$0.isEmbedded }
      .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    for table in classes {
      let columns = table.publicColumns
      try group.forEachObject(in: table) { key, values in
        defer { index += 1 }
        guard index < lines.count else {
          if problems.count < 5 { problems.append("extra object \(table.name) \(key)") }
          return
        }
        let line = lines[index]
        guard line["$class"] == .string(table.className ?? "") else {
          if problems.count < 5 { problems.append("line \(index + 1): class \(String(describing: line["$class"])) vs \(table.name)") }
          return
        }
        if let m = ReaderDumpMatcher.mismatch(line: line, key: key, columns: columns, values: values), problems.count < 5 {
          problems.append("line \(index + 1): \(m)")
        }
      }
    }
    expectEqual(index, lines.count, "objects read vs dump lines")
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }
}

/// Realm Core's own description of the sample files (`info.txt`: every table, its object and
/// column counts and primary key), including non-class and sync-history files.
/// The samples are Realm Core's own test files, read from `../shared` (skipped when absent).
@Suite(SharedFixtures.enabled) struct ReaderCoreInfoTests {
  static let shared = FixtureLocation.shared

  static let samples: [String] = shared.listing(SharedFixtures.realmCoreSamples).filter {
    let info = try? shared.bytes(SharedFixtures.realmCoreSample($0, "info.txt"))
    return info.map { String(decoding: $0, as: UTF8.self).contains("\ntables:") } ?? false
  }

  func path(_ sample: String, _ file: String = "original.realm") throws -> String {
    try Self.shared.path(SharedFixtures.realmCoreSample(sample, file))
  }

  @Test func findsSamples() { #expect(Self.samples.count >= 13) }

  @Test(arguments: samples)
  func tablesMatchRealm(_ sample: String) throws {
    let info = try String(contentsOfFile: try path(sample, "info.txt"), encoding: .utf8)
    let file = try RealmFile.open(path: try path(sample))
    let lines = info.split(separator: "\n").map(String.init)
    let tableLines = lines.drop { $0 != "tables:" }.dropFirst()
    var names: [String] = []
    for line in tableLines {
      // "  name: 6 objects, 1 columns, pk id"
      guard let colon = line.range(of: ": ", options: .backwards) else { continue }
      let name = line[..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
      let parts = line[colon.upperBound...].components(separatedBy: ", ")
      names.append(name)
      let table = try #require(file.group.table(named: name), "\(name)")
      // Realm's upgrade to format 23 empties asymmetric tables (§6.15); info.txt is after it.
      let emptiedByUpgrade = table.type == .topLevelAsymmetric && file.group.fileFormat < 23
      expectEqual(parts[0], "\(emptiedByUpgrade ? 0 : table.objectCount) objects", "\(name)")
      expectEqual(parts[1], "\(table.publicColumns.count) columns", "\(name)")
      let pk = table.primaryKey.flatMap { table.column(key: $0)?.name }
      expectEqual((parts.count > 2 ? String(parts[2].dropFirst(3)) : nil), pk, "\(name)")
    }
    expectEqual(Set(names), Set(file.group.tables.map(\.name)))
    if let v = lines.first(where: { $0.hasPrefix("schema_version: ") })?.dropFirst(16) {
      #expect((try file.group.schemaVersion()).map(String.init) ?? "none" == String(v))
    }
  }

  @Test(arguments: [
    "test__resources__history_migration__client_schema_version_011",
    "test__resources__history_migration__client_schema_version_012",
    "test__resources__history_migration__server_schema_version_020", "test__test_flx_metadata_tables_v1",
  ])
  func syncHistoryFilesAreReadable(_ sample: String) throws {
    let file = try RealmFile.open(path: try path(sample))
    let group = file.group
    #expect([HistoryType.syncClient, .syncServer].contains(group.historyType))
    for table in group.tables {
      var n = 0
      try group.forEachObject(in: table) { _, _ in n += 1 }
      expectEqual(n, table.objectCount)
    }
    _ = try group.schema()
    #expect(group.check().isEmpty)
  }
}

@Suite struct ReaderAccessTests {
  /// Lookup by key finds every object with the values iteration gives (compact and general
  /// cluster forms, inner nodes of depth 1 and 2, cluster shift 2 and 8).
  @Test(arguments: ReadableFixture.all.filter { !$0.realm.hasPrefix("person-") })
  func lookupByKeyMatchesIteration(_ fixture: ReadableFixture) throws { try lookupByKeyMatchesIteration(of: fixture) }

  @Test(SharedFixtures.enabled, arguments: ReadableFixture.realmCoreSamples)
  func lookupByKeyInRealmCoreSamplesMatchesIteration(_ fixture: ReadableFixture) throws {
    try lookupByKeyMatchesIteration(of: fixture)
  }

  func lookupByKeyMatchesIteration(of fixture: ReadableFixture) throws {
    let group = try fixture.open().group
    for table in group.tables {
      var keys: [Int64] = []
      try group.forEachObject(in: table) { key, values in
        keys.append(key)
        let found = try #require(try group.object(in: table, key: key), "\(table.name) \(key)")
        #expect(SameValues.rows(found, values), "\(table.name) \(key): \(found) vs \(values)")
      }
      if let last = keys.last, last < Int64.max {
        #expect(try group.object(in: table, key: last + 1) == nil)
      }
    }
  }

  @Test func skipPassesOverLeadingObjects() throws {
    let group = try ReadableFixture(realm: "alltypes/before.realm").open().group
    let table = try #require(group.table(forClass: "AllTypes"))
    var all: [Int64] = []
    try group.forEachObject(in: table) { key, _ in all.append(key) }
    for skip in [0, 1, 255, 256, 257, 599, 600, 10_000] {
      var keys: [Int64] = []
      try group.forEachObject(in: table, skip: skip) { key, _ in keys.append(key) }
      expectEqual(keys, Array(all.dropFirst(skip)), "skip \(skip)")
    }
  }

  @Test(SharedFixtures.enabled)
  func clusterShiftIsInferredForTestBuildFiles() throws {
    // Written by a Realm Core test build with clusters of 4 (§5.2): 40 objects in a depth-2 tree.
    let sample = SharedFixtures.realmCoreSample("test__test_upgrade_database_4_23")
    let group = try ReadableFixture(realm: sample, location: .shared).open().group
    let table = try #require(group.table(named: "table"))
    var keys: [Int64] = []
    try group.forEachObject(in: table) { key, _ in keys.append(key) }
    expectEqual(keys, Array(0..<40))
  }

  @Test func unknownClassIsAnError() throws {
    let group = try ReadableFixture(realm: "embedded/before.realm").open().group
    expectEqual(group.objectCount(ofClass: "Contact"), 60)
    #expect(group.objectCount(ofClass: "Nope") == nil)
    #expect(throws: FormatError.self) { try group.forEachObject(ofClass: "Nope") { _, _ in } }
  }
}
