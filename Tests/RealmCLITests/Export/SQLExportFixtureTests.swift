import Foundation
import RealmFormat
import RealmJSON
import RealmStorage
import RealmTestSupport
import Testing

/// A Realm file of the fixtures and the dump its SQL export must reproduce: Realm's own
/// `dump.jsonl` where the fixture has one, realmctl's canonical dump otherwise (itself checked
/// against Realm wherever Realm answered).
struct SQLExportCase: CustomStringConvertible, Sendable {
  var realm: String
  var realmDump: String?
  var description: String { realm }

  /// Every `.realm` file below `Tests/Fixtures` that realmctl reads (reading cases, the files
  /// of the migration cases, format samples); files of formats it does not read (encrypted,
  /// older than format 10) are left out, which ``everyReadableFixtureIsExported`` checks.
  static let all: [SQLExportCase] = {
    let answered = Dictionary(AnsweredFixture.all.map { ($0.realm, $0.dump) }, uniquingKeysWith: { a, _ in a })
    let root = Fixtures.root
    let files = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".realm") }.sorted()
    return files.filter { (try? RealmFile.open(path: root.appendingPathComponent($0).path)) != nil }
      .map { SQLExportCase(realm: $0, realmDump: answered[$0]) }
  }()
}

/// `dump --format sql` of every fixture loads into sqlite3 without an error, its foreign keys
/// hold, and the objects rebuilt from the tables equal the canonical dump (issue 11, "done
/// when" 1). One sqlite3 run per fixture loads the script and reads every table back.
@Suite(ExternalTool.required(ExternalTool.sqlite3, "sqlite3"))
struct SQLExportFixtureTests {
  @Test func everyReadableFixtureIsExported() {
    let names = SQLExportCase.all.map(\.realm)
    #expect(names.count >= 50)
    for expected in [
      "alltypes/before.realm", "embedded/before.realm", "nested-links/before.realm", "strings/before.realm",
      "format-samples/v24_edge.realm", "person-add-email/after.realm", "user-tutorial/steps/v2/after.realm",
    ] {
      #expect(names.contains(expected), "\(expected)")
    }
  }

  @Test(arguments: SQLExportCase.all)
  func loadsIntoSQLiteAndReadsBackAsTheDump(_ fixture: SQLExportCase) throws {
    let path = Fixtures.url(fixture.realm).path
    let run = CommandRun(["dump", path, "--format", "sql"])
    #expect(run.status == 0, "\(run.errors)")
    let schema = try RealmFile.open(path: path).group.schema()
    let plan = SQLExportPlan(schema: schema)
    var trip = try SQLiteRoundTrip.load(
      script: run.output, plan: plan, schema: schema, sqlite3: try #require(ExternalTool.sqlite3))
    #expect(trip.errors.isEmpty, "sqlite3: \(trip.errors.prefix(2000))")
    #expect(trip.foreignKeyProblems.isEmpty, "foreign_key_check: \(trip.foreignKeyProblems.prefix(10))")
    let rebuilt = trip.canonicalDump()
    #expect(trip.problems.isEmpty, "\(trip.problems.prefix(10))")
    let expected: [UInt8]
    if let dump = fixture.realmDump {
      expected = try SQLiteRoundTrip.asStoredBySQLite(try Fixtures.bytes(dump), schema: schema)
    } else {
      expected = try SQLiteRoundTrip.asStoredBySQLite(try RealmDumper.dumpJSONL(path), schema: schema)
    }
    let problems = DumpComparison.compareDumps(
      expected: expected, actual: rebuilt, schema: SchemaJSON.encode(schema))
    #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
    // Every table has as many rows as the objects and elements it holds.
    let objects = rebuilt.split(separator: 0x0A).count
    let classRows = plan.topLevelClasses.map { trip.rows[plan.classes[$0]!.table].count }.reduce(0, +)
    #expect(classRows == objects)
  }
}
