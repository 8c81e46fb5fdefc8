import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// `realmctl migrate` through the command layer: several files, `--dry-run`, `--backup`,
/// `--reset-if-needed`, `--json`, plan and version errors; every written file passes the
/// integrity check and every failure leaves the file byte-for-byte as it was.
@Suite struct MigrateCommandTests {
  typealias Support = CommandTestSupport
  static let addEmail = "person-add-email"

  func plan(_ fixture: String) -> String { Fixtures.url("\(fixture)/plan.json").path }

  /// The file matches Realm's `after.*` answer by meaning and is clean.
  func expectMigratedLikeRealm(_ path: String, fixture: String) throws {
    let diff = try DumpComparison.compareRealm(at: path, withFixture: "\(fixture)/after")
    #expect(diff.isEmpty, "\(diff.prefix(5))")
    #expect(try Support.problems(path).isEmpty)
  }

  @Test func migratesOneFileAndReports() throws {
    try Support.withCopy(of: "\(Self.addEmail)/before.realm", as: "a.realm") { file, _ in
      let result = Support.run(["migrate", "--plan", plan(Self.addEmail), file])
      expectEqual(result.status, 0, "\(result.stderr)")
      let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      expectEqual(lines.first?.hasPrefix("\(file): schema version 1 -> 2, changed in place, column-wise in "), true, "\(result.stdout)")
      expectEqual(lines.dropFirst().prefix(2), ["  Person: 1000 objects, 1000 touched", "    added:       email"])
      #expect(result.stderr.isEmpty)
      try expectMigratedLikeRealm(file, fixture: Self.addEmail)
    }
  }

  @Test func aRenameIsCommittedInPlaceAndMatchesRealm() throws {
    try Support.withCopy(of: "person-rename-age/before.realm", as: "a.realm") { file, _ in
      let result = Support.run(["migrate", "--plan", plan("person-rename-age"), file, "--json"])
      expectEqual(result.status, 0, "\(result.stderr)")
      let json = try JSONParser.parse(result.stdout)
      expectEqual(json["files"]?[0]?["method"], .string("inPlace"))
      expectEqual(json["files"]?[0]?["path"], .string("metadata"))
      try expectMigratedLikeRealm(file, fixture: "person-rename-age")
    }
  }

  @Test func severalFilesOneFailing() throws {
    try Support.withCopy(of: "\(Self.addEmail)/before.realm", as: "good.realm") { good, dir in
      let bad = try Support.write("not a realm file, but long enough for a header", to: dir, as: "bad.realm")
      let good2 = try Support.copy("\(Self.addEmail)/before.realm", to: dir, as: "good2.realm")
      let badBefore = try Support.bytes(bad)
      let result = Support.run(["migrate", "--plan", plan(Self.addEmail), good, bad, good2])
      expectEqual(result.status, 1)
      #expect(result.stdout.hasSuffix("2 of 3 files migrated, 1 failed\n"), "\(result.stdout)")
      #expect(result.stdout.contains("\(good): schema version 1 -> 2"))
      #expect(result.stdout.contains("\(good2): schema version 1 -> 2"))
      #expect(result.stderr.hasPrefix("Error: \(bad): "), "\(result.stderr)")
      #expect(!result.stderr.contains("Internal error"), "\(result.stderr)")
      #expect(TestFiles.same(try Support.bytes(bad), badBefore))
      try expectMigratedLikeRealm(good, fixture: Self.addEmail)
      try expectMigratedLikeRealm(good2, fixture: Self.addEmail)
    }
  }

  @Test func severalFilesWithJSONReportEachAndTheTotals() throws {
    try Support.withCopy(of: "\(Self.addEmail)/before.realm", as: "good.realm") { good, dir in
      let missing = dir.appendingPathComponent("missing.realm").path
      let result = Support.run(["migrate", "--plan", plan(Self.addEmail), "--json", good, missing])
      expectEqual(result.status, 1)
      let json = try JSONParser.parse(result.stdout)
      expectEqual(json["migrated"], .int(1))
      expectEqual(json["failed"], .int(1))
      let first = try #require(json["files"]?[0])
      expectEqual(first["file"], .string(good))
      expectEqual(first["ok"], .bool(true))
      expectEqual(first["fromVersion"], .int(1))
      expectEqual(first["toVersion"], .int(2))
      expectEqual(first["method"], .string("inPlace"))
      expectEqual(first["dryRun"], .bool(false))
      if case .double = first["seconds"] {} else { expectEqual(first["seconds"], .int(0), "seconds is a number") }
      let person = try #require(first["classes"]?[0])
      expectEqual(person["name"], .string("Person"))
      expectEqual(person["objectsBefore"], .int(1000))
      expectEqual(person["objectsAfter"], .int(1000))
      expectEqual(person["objectsTouched"], .int(1000))
      expectEqual(person["added"], .array([.string("email")]))
      expectEqual(person["removed"], .array([]))
      let second = try #require(json["files"]?[1])
      expectEqual(second["file"], .string(missing))
      expectEqual(second["ok"], .bool(false))
      expectEqual(second["exitCode"], .int(66))
      expectEqual(second["error"], .string("No such file: '\(missing)'"))
      #expect(!Support.exists(missing))
    }
  }

  @Test func dryRunWritesNothingAndReports() throws {
    try Support.withCopy(of: "\(Self.addEmail)/before.realm", as: "a.realm") { file, _ in
      let before = try Support.bytes(file)
      let result = Support.run(["migrate", "--plan", plan(Self.addEmail), file, "--dry-run"])
      expectEqual(result.status, 0)
      #expect(result.stdout.hasPrefix("\(file): schema version 1 -> 2, would be changed in place, column-wise (dry run: nothing written)"), "\(result.stdout)")
      #expect(result.stdout.contains("    added:       email"))
      #expect(TestFiles.same(try Support.bytes(file), before))
      let json = try JSONParser.parse(Support.run(["migrate", "--plan", plan(Self.addEmail), file, "--dry-run", "--json"]).stdout)
      expectEqual(json["files"]?[0]?["dryRun"], .bool(true))
      expectEqual(json["files"]?[0]?["path"], .string("columns"))
      #expect(TestFiles.same(try Support.bytes(file), before))
    }
  }

  @Test func backupIsAnIdenticalCopyAndIsNeverOverwritten() throws {
    try Support.withCopy(of: "\(Self.addEmail)/before.realm", as: "a.realm") { file, dir in
      let original = try Support.bytes(file)
      let backup = dir.appendingPathComponent("a.realm.bak").path
      let result = Support.run(["migrate", "--plan", plan(Self.addEmail), "--backup", backup, file])
      expectEqual(result.status, 0, "\(result.stderr)")
      #expect(TestFiles.same(try Support.bytes(backup), original))
      try expectMigratedLikeRealm(file, fixture: Self.addEmail)

      // A second run with the same backup path is refused before anything is written.
      let other = try Support.copy("\(Self.addEmail)/before.realm", to: dir, as: "b.realm")
      let refused = Support.run(["migrate", "--plan", plan(Self.addEmail), "--backup", backup, other])
      expectEqual(refused.status, 73, "\(refused.stderr)")
      #expect(refused.stderr.contains("'\(backup)' already exists"), "\(refused.stderr)")
      #expect(TestFiles.same(try Support.bytes(other), original))
      #expect(TestFiles.same(try Support.bytes(backup), original))
    }
  }

  @Test func resetIfNeededReplacesTheFileWithAnEmptyOne() throws {
    try Support.withCopy(of: "\(Self.addEmail)/before.realm", as: "a.realm") { file, _ in
      let result = Support.run(["migrate", "--plan", plan(Self.addEmail), "--reset-if-needed", file])
      expectEqual(result.status, 0, "\(result.stderr)")
      #expect(result.stdout.hasPrefix("\(file): schema version 1 -> 2, reset to an empty file"), "\(result.stdout)")
      let schemaDiff = DumpComparison.compareSchemas(
        expected: try Fixtures.bytes("\(Self.addEmail)/after.schema.json"), actual: try RealmDumper.schemaJSON(file),
        anyPropertyOrder: true)
      #expect(schemaDiff.isEmpty, "\(schemaDiff)")
      #expect(try RealmDumper.dumpJSONL(file).isEmpty)
      #expect(try Support.problems(file).isEmpty)
      // Once at the target, nothing is needed: the data written afterwards stays.
      let again = Support.run(["migrate", "--plan", plan(Self.addEmail), "--reset-if-needed", file, "--json"])
      try expectEqual(JSONParser.parse(again.stdout)["files"]?[0]?["method"], .string("unchanged"))
    }
  }

  @Test func planErrorsNameTheJSONPathAndTouchNothing() throws {
    try Support.withCopy(of: "\(Self.addEmail)/before.realm", as: "a.realm") { file, dir in
      let before = try Support.bytes(file)
      let cases: [(plan: String, message: String)] = [
        (
          #"{"schemaVersion": 2, "schema": [{"name": "Person", "properties": {"firstName": "string"}}], "migrations": [{"version": 2, "steps": [{"op": "renameProperty", "class": "Person", "from": "nope", "to": "x"}]}]}"#,
          "migrations[0].steps[0].from: 'Person' has no property 'nope'"
        ),
        (
          #"{"schemaVersion": 2, "schema": [{"name": "Person", "properties": {"firstName": "strin"}}]}"#,
          "schema[0].properties.firstName"
        ),
        (
          #"{"schemaVersion": 2, "schema": [], "migrations": [{"version": 2, "steps": [{"op": "explode"}]}]}"#,
          "migrations[0].steps[0].op"
        ),
        (
          #"{"schemaVersion": 2, "schema": [], "migrations": [{"version": 3, "steps": []}]}"#,
          "migrations[0].version"
        ),
        (#"{"schemaVersion": 2, "schema": [}"#, "line 1"),
      ]
      for (i, c) in cases.enumerated() {
        let planPath = try Support.write(c.plan, to: dir, as: "plan\(i).json")
        let result = Support.run(["migrate", "--plan", planPath, file])
        expectEqual(result.status, 65, "\(c.plan): \(result.stderr)")
        #expect(result.stderr.contains(c.message), "\(c.plan): \(result.stderr)")
        #expect(!result.stderr.contains("Internal error"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(TestFiles.same(try Support.bytes(file), before))
      }
    }
  }

  @Test func aLowerTargetVersionIsRefusedWithRealmsMessage() throws {
    try Support.withCopy(of: "\(Self.addEmail)/before.realm", as: "a.realm") { file, dir in
      let before = try Support.bytes(file)
      let planPath = try Support.write(
        #"{"schemaVersion": 0, "schema": [{"name": "Person", "properties": {"firstName": "string"}}]}"#, to: dir, as: "plan.json")
      let result = Support.run(["migrate", "--plan", planPath, file])
      expectEqual(result.status, 65)
      expectEqual(result.stderr, "Error: Provided schema version 0 is less than last set version 1.\n", "\(result.stderr)")
      #expect(TestFiles.same(try Support.bytes(file), before))
    }
  }

  @Test func changesWithoutANewVersionListEveryDifference() throws {
    try Support.withCopy(of: "\(Self.addEmail)/before.realm", as: "a.realm") { file, dir in
      let before = try Support.bytes(file)
      let planPath = try Support.write(
        #"{"schemaVersion": 1, "schema": [{"name": "Person", "properties": {"firstName": "string", "age": "int?", "z": "bool"}}]}"#,
        to: dir, as: "plan.json")
      let result = Support.run(["migrate", "--plan", planPath, file])
      expectEqual(result.status, 65)
      #expect(
        result.stderr.hasPrefix(
          """
          Error: Migration is required due to the following errors:
          - Property 'Person.lastName' has been removed.
          - Property 'Person.age' has been made optional.
          - Property 'Person.z' has been added.
          """), "\(result.stderr)")
      #expect(TestFiles.same(try Support.bytes(file), before))
    }
  }

  @Test func aFileAtTheTargetIsLeftAloneAndItsObjectsCounted() throws {
    try Support.withCopy(of: "\(Self.addEmail)/after.realm", as: "a.realm") { file, _ in
      let before = try Support.bytes(file)
      let result = Support.run(["migrate", "--plan", plan(Self.addEmail), file, "--json"])
      expectEqual(result.status, 0, "\(result.stderr)")
      let report = try #require(try JSONParser.parse(result.stdout)["files"]?[0])
      expectEqual(report["method"], .string("unchanged"))
      expectEqual(report["fromVersion"], .int(2))
      expectEqual(report["classes"]?[0]?["objectsBefore"], .int(1000))
      expectEqual(report["classes"]?[0]?["objectsAfter"], .int(1000))
      expectEqual(report["classes"]?[0]?["objectsTouched"], .int(0))
      #expect(TestFiles.same(try Support.bytes(file), before))
    }
  }

  @Test func aMissingFileExits66() throws {
    try Support.inScratchDirectory { dir in
      let missing = dir.appendingPathComponent("none.realm").path
      let result = Support.run(["migrate", "--plan", plan(Self.addEmail), missing])
      expectEqual(result.status, 66)
      expectEqual(result.stderr, "Error: No such file: '\(missing)'\n")
      #expect(!Support.exists(missing))
      #expect(!Support.exists(missing + ".lock"))
    }
  }
}
