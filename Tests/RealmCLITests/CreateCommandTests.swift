import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// `realmctl create`: issue 3 "done when" 2, `dump(create(schema, data))` equals `data` by
/// meaning for every fixture (Realm's own schema.json and dump.jsonl answers), and the created
/// file passes the integrity check; plus the command's errors.
@Suite struct CreateCommandTests {
  typealias Support = CommandTestSupport

  /// A schema document and its dump, written by Realm for a fixture file.
  struct Source: CustomStringConvertible, Sendable {
    var schema: String
    var dump: String
    var location: FixtureLocation = .committed
    var description: String { dump }
  }

  /// Every `X.dump.jsonl` (or `dump.jsonl`) below `directory` of `location` with its
  /// `X.schema.json`.
  static func sources(in location: FixtureLocation, below directory: String = "") -> [Source] {
    location.files(below: directory).filter { $0.hasSuffix("dump.jsonl") }.compactMap { dump in
      let schema = String(dump.dropLast("dump.jsonl".count)) + "schema.json"
      return location.exists(schema) ? Source(schema: schema, dump: dump, location: location) : nil
    }
  }

  /// The committed fixtures: the reading cases, the migration cases' `after.*`, `copy.*` and
  /// steps.
  static var sources: [Source] { sources(in: .committed) }

  /// Realm Core's samples (`../shared`; empty when it is absent).
  static var realmCoreSamples: [Source] { sources(in: .shared, below: SharedFixtures.realmCoreSamples) }

  @Test func everyFixtureHasASource() {
    // 32 dumps in the committed fixtures, all with a schema; a lost glob would silently test nothing.
    #expect(Self.sources.count >= 32)
    #expect(Self.sources.contains { $0.dump.hasSuffix("copy.dump.jsonl") })
    #expect(Self.sources.contains { $0.dump.contains("steps/") })
  }

  @Test(SharedFixtures.enabled)
  func everyRealmCoreSampleHasASource() {
    // 14 samples have Realm's dump and schema.
    #expect(Self.realmCoreSamples.count >= 14)
  }

  @Test(arguments: sources)
  func createThenDumpGivesTheDataBack(_ source: Source) throws { try createThenDump(source) }

  @Test(SharedFixtures.enabled, arguments: realmCoreSamples)
  func createThenDumpGivesRealmCoreSamplesBack(_ source: Source) throws { try createThenDump(source) }

  func createThenDump(_ source: Source) throws {
    try Support.inScratchDirectory { dir in
      let out = dir.appendingPathComponent("out.realm").path
      let result = Support.run([
        "create", out, "--schema", try source.location.path(source.schema),
        "--data", try source.location.path(source.dump),
      ])
      try #require(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.hasPrefix("Created \(out): schema version "))
      #expect(result.stderr.isEmpty)

      // Everything through the command layer: schema, dump and the integrity check.
      let schemaRun = Support.run(["schema", out, "--format", "json"])
      try #require(schemaRun.status == 0, "\(schemaRun.stderr)")
      let dumpRun = Support.run(["dump", out, "--format", "jsonl"])
      try #require(dumpRun.status == 0, "\(dumpRun.stderr)")
      let expectedSchema = try source.location.bytes(source.schema)
      let actualSchema = Array(schemaRun.stdout.utf8)
      // create writes file format 24 whatever the source's format was.
      var expected = try JSONParser.parse(expectedSchema)
      if case .object(var members) = expected {
        for i in members.indices where members[i].key == "fileFormat" { members[i].value = .int(24) }
        expected = .object(members)
      }
      let schemaDiff = DumpComparison.compareSchemas(expected: expected, actual: try JSONParser.parse(actualSchema))
      #expect(schemaDiff.isEmpty, "\(schemaDiff.prefix(10))")
      let dumpDiff = DumpComparison.compareDumps(
        expected: try source.location.bytes(source.dump), actual: Array(dumpRun.stdout.utf8), schema: expectedSchema)
      #expect(dumpDiff.isEmpty, "\(dumpDiff.prefix(10))")
      let check = Support.run(["open", out, "--check"])
      expectEqual(check.status, 0, "\(check.stdout)\(check.stderr)")
      let problems = try Support.problems(out)
      #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
  }

  @Test func schemaVersionOptionSetsTheVersion() throws {
    try Support.inScratchDirectory { dir in
      let out = dir.appendingPathComponent("out.realm").path
      let result = Support.run([
        "create", out, "--schema", Fixtures.url("person-add-email/schema.json").path, "--schema-version", "7",
      ])
      try #require(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.hasPrefix("Created \(out): schema version 7, 0 objects"), "\(result.stdout)")
      try expectEqual(Support.schema(out)["schemaVersion"], .int(7))
      #expect(try Support.problems(out).isEmpty)
    }
  }

  @Test func aMissingSchemaExits66() throws {
    try Support.inScratchDirectory { dir in
      let out = dir.appendingPathComponent("out.realm").path
      let result = Support.run(["create", out, "--schema", dir.appendingPathComponent("none.json").path])
      expectEqual(result.status, 66)
      #expect(result.stderr.contains("No such file"))
      #expect(!Support.exists(out))
    }
  }

  @Test func anInvalidSchemaExits65AndNamesThePlace() throws {
    try Support.inScratchDirectory { dir in
      let schema = try Support.write("{\"schemaVersion\": 1,\n \"classes\": [", to: dir, as: "schema.json")
      let out = dir.appendingPathComponent("out.realm").path
      let result = Support.run(["create", out, "--schema", schema])
      expectEqual(result.status, 65)
      #expect(result.stderr.hasPrefix("Error: '\(schema)' is not a valid schema: line 2"), "\(result.stderr)")
      #expect(!Support.exists(out))
    }
  }

  /// The first three objects of `person-add-email`'s dump, as JSON Lines lines.
  static func personLines() throws -> [Substring] {
    String(decoding: try Fixtures.bytes("person-add-email/dump.jsonl"), as: UTF8.self).split(separator: "\n").prefix(3).map { $0 }
  }

  /// `create out.realm` in `dir` with `person-add-email`'s schema and `data` (JSON Lines),
  /// refused as bad data (65) without creating the output; returns stderr and the data file's path.
  static func createRefused(data: String, in dir: URL) throws -> (stderr: String, data: String) {
    let dataPath = try Support.write(data, to: dir, as: "data.jsonl")
    let out = dir.appendingPathComponent("out.realm").path
    let result = Support.run(["create", out, "--schema", Fixtures.url("person-add-email/schema.json").path, "--data", dataPath])
    expectEqual(result.status, 65)
    #expect(!Support.exists(out))
    return (result.stderr, dataPath)
  }

  @Test func aBadDataLineIsNamedAndNothingIsCreated() throws {
    try Support.inScratchDirectory { dir in
      let lines = try Self.personLines().joined(separator: "\n")
      let (stderr, data) = try Self.createRefused(data: lines + "\n{\"$class\":\"Person\",\"$key\":7,\"firstName\":1}\n", in: dir)
      expectEqual(stderr, "Error: '\(data)' line 4: Person.firstName: expected a string, found the integer 1\n")
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("out.realm") }
      #expect(leftovers.isEmpty, "\(leftovers)")
    }
  }

  @Test func keysOutOfOrderAreRefused() throws {
    try Support.inScratchDirectory { dir in
      let lines = try Self.personLines().reversed().joined(separator: "\n")
      let (stderr, data) = try Self.createRefused(data: lines + "\n", in: dir)
      expectEqual(stderr, "Error: '\(data)' line 2: object key 1 of class 'Person' is not above the previous key 2\n")
    }
  }

  @Test func anExistingOutputIsNeverOverwritten() throws {
    try Support.withCopy(of: "person-rename-age/before.realm", as: "out.realm") { out, _ in
      let before = try Support.bytes(out)
      let result = Support.run(["create", out, "--schema", Fixtures.url("person-add-email/schema.json").path])
      expectEqual(result.status, 73)
      expectEqual(result.stderr, "Error: '\(out)' already exists; remove it or choose another output name\n")
      #expect(TestFiles.same(try Support.bytes(out), before))
    }
  }
}
