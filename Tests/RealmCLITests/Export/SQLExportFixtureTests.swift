import Foundation
import RealmFormat
import RealmJSON
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing
import RealmExport

/// A Realm file and the dump its SQL export must reproduce: Realm's own `dump.jsonl` where
/// there is one, realmctl's canonical dump otherwise (itself checked against Realm wherever
/// Realm answered).
struct SQLExportCase: CustomStringConvertible, Sendable {
  /// The file, relative to its location.
  var realm: String
  /// Realm's dump of it, relative to the same location.
  var realmDump: String?
  /// `Tests/Fixtures`, or `../shared`.
  var root: URL
  /// The key file of an encrypted file (`X.key` beside `X.realm`), relative to `root`.
  var keyFile: String? = nil
  var description: String { realm }
  var path: String { root.appendingPathComponent(realm).path }
  /// The options that give the key to a command (none for a plain file).
  var keyArguments: [String] { keyFile.map { ["--key-file", root.appendingPathComponent($0).path] } ?? [] }
  /// The key, for the library.
  var key: EncryptionKey? {
    get throws { try keyFile.map { try EncryptionKey(keyFile: [UInt8](Data(contentsOf: root.appendingPathComponent($0)))) } }
  }

  /// Realm's dumps of the encrypted fixtures (`encrypted/README.md`: those of the plaintext
  /// fixtures they were made from, byte for byte, and big's own).
  static let encryptedAnswers = [
    "encrypted/alltypes.realm": "alltypes/dump.jsonl",
    "encrypted/person.realm": "person-rename-age/dump.jsonl",
    "encrypted/big.realm": "encrypted/big.dump.jsonl",
    "encrypted/after-migrate/before.realm": "person-add-email/dump.jsonl",
    "encrypted/after-migrate/after.realm": "person-add-email/after.dump.jsonl",
  ]

  /// Every `.realm` file below `Tests/Fixtures` that realmctl reads (reading cases, the files
  /// of the migration cases, format samples, encrypted files with their keys).
  static let all: [SQLExportCase] = {
    let answered = Dictionary(AnsweredFixture.all.map { ($0.realm, $0.dump) }, uniquingKeysWith: { a, _ in a })
      .merging(encryptedAnswers, uniquingKeysWith: { a, _ in a })
    let root = Fixtures.root
    let files = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".realm") }.sorted()
    return files.map { realm in
      let keyFile = String(realm.dropLast(".realm".count)) + ".key"
      let encrypted = FileManager.default.fileExists(atPath: root.appendingPathComponent(keyFile).path)
      return SQLExportCase(realm: realm, realmDump: answered[realm], root: root, keyFile: encrypted ? keyFile : nil)
    }.filter { (try? RealmFile.open(path: $0.path, key: try $0.key)) != nil }
  }()

  /// Realm Core's sample files with Realm's dump (`../shared/fixtures`), those realmctl reads.
  static let realmCoreSamples: [SQLExportCase] = {
    guard let root = FixtureLocation.shared.root else { return [] }
    return AnsweredFixture.realmCoreSamples.map { SQLExportCase(realm: $0.realm, realmDump: $0.dump, root: root) }
      .filter { (try? RealmFile.open(path: $0.path)) != nil }
  }()

  /// The files of real apps with Realm's reading of them (`../shared/wild`), those realmctl
  /// reads.
  static let wild: [SQLExportCase] = {
    guard let root = SharedFixtures.url("wild") else { return [] }
    let ids = ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("answers").path)) ?? []).sorted()
    return ids.compactMap { id in
      let dump = "answers/\(id)/dump.jsonl"
      guard FileManager.default.fileExists(atPath: root.appendingPathComponent(dump).path) else { return nil }
      return SQLExportCase(realm: "files/\(id).realm", realmDump: dump, root: root)
    }.filter { (try? RealmFile.open(path: $0.path)) != nil }
  }()

  /// Exports the file, loads it into sqlite3, reads every table back and compares the objects
  /// with the expected dump: every object, or, of classes with more than ``sampleSize`` objects,
  /// about that many spread over the class (the row counts are checked for all).
  func checkRoundTrip(sampleSize: Int = 150) throws {
    let run = CommandRun(["dump", path, "--format", "sql"] + keyArguments)
    expectEqual(run.status, 0, "\(run.errors)")
    let schema = try RealmFile.open(path: path, key: try key).group.schema()
    let plan = SQLExportPlan(schema: schema)
    var trip = try SQLiteRoundTrip.load(
      script: run.output, plan: plan, schema: schema, sqlite3: try #require(ExternalTool.sqlite3))
    #expect(trip.errors.isEmpty, "sqlite3: \(trip.errors.prefix(2000))")
    #expect(trip.foreignKeyProblems.isEmpty, "foreign_key_check: \(trip.foreignKeyProblems.prefix(10))")
    var dump = try realmDump.map { [UInt8](try Data(contentsOf: root.appendingPathComponent($0))) }
      ?? RealmDumper.dumpJSONL(path, key: try key)
    // Every class table has one row per object.
    let objects = dump.split(separator: 0x0A).filter { !$0.isEmpty }.count
    let classRows = plan.topLevelClasses.map { trip.rows[plan.classes[$0]!.table].count }.reduce(0, +)
    expectEqual(classRows, objects)
    var sample: [String: Set<Int64>]?
    if trip.keys.values.contains(where: { $0.count > sampleSize }) {
      sample = trip.keys.mapValues { keys in
        let step = max(1, keys.count / sampleSize)
        return Set(keys.enumerated().filter { $0.offset % step == 0 || $0.offset == keys.count - 1 }.map(\.element))
      }
      dump = try SQLiteRoundTrip.lines(dump, in: sample!)
    }
    let rebuilt = trip.canonicalDump(sample: sample)
    #expect(trip.problems.isEmpty, "\(trip.problems.prefix(10))")
    let expected = try SQLiteRoundTrip.asStoredBySQLite(dump, schema: schema)
    let problems = DumpComparison.compareDumps(
      expected: expected, actual: rebuilt, schema: SchemaJSON.encode(schema))
    #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
  }
}

/// `dump --format sql` of every fixture loads into sqlite3 without an error, its foreign keys
/// hold, and the objects rebuilt from the tables equal the canonical dump (issue 11, "done
/// when" 1). One sqlite3 run per fixture loads the script and reads every table back.
@Suite(ExternalTool.required(ExternalTool.sqlite3, "sqlite3"))
struct SQLExportFixtureTests {
  @Test func everyReadableFixtureIsExported() {
    CommandTestSupport.expectCases(SQLExportCase.all.map(\.realm), atLeast: 35, including: [
      "alltypes/before.realm", "embedded/before.realm", "nested-links/before.realm", "strings/before.realm",
      "format-samples/v24_edge.realm", "person-add-email/after.realm", "user-tutorial/steps/v2/after.realm",
      "encrypted/alltypes.realm", "encrypted/big.realm", "encrypted/person.realm", "encrypted/after-migrate/after.realm",
    ])
  }

  /// (sqlite3 loads each script: `make test` takes every other fixture, spread over the sorted
  /// list; REALMCTL_FULL_FIXTURES=1 every one.)
  @Test(arguments: FixtureSample.spread(SQLExportCase.all, every: 2))
  func loadsIntoSQLiteAndReadsBackAsTheDump(_ fixture: SQLExportCase) throws {
    try fixture.checkRoundTrip()
  }

  @Test(SharedFixtures.enabled, arguments: SQLExportCase.realmCoreSamples)
  func realmCoreSamplesLoadAndReadBackAsRealmsDump(_ fixture: SQLExportCase) throws {
    try fixture.checkRoundTrip()
  }

  /// (sqlite3 loads each script: `make test` takes one app file in three, spread over the
  /// corpus; REALMCTL_FULL_FIXTURES=1 every one.)
  @Test(SharedFixtures.enabled, arguments: FixtureSample.spread(SQLExportCase.wild, every: 3))
  func appFilesLoadAndReadBackAsRealmsDump(_ fixture: SQLExportCase) throws {
    try fixture.checkRoundTrip()
  }
}
