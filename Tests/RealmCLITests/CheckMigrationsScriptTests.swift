import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

/// Examples/git/check-migrations.sh, the script of the GitHub Actions job in docs/git-and-ci.md,
/// run with the built realmctl on a fixture made from Examples/people: it passes when the plan
/// takes the fixture to the app's schema and fails, naming Realm's answer, when a migration is
/// missing (the app's schema changed at the same version, or its version is ahead of the plan).
@Suite(.enabled(if: EndToEndTests.executable != nil && CompletionTests.tool("sh") != nil, "realmctl is not built or sh is missing"))
struct CheckMigrationsScriptTests {
  static let people = Snapshot.packageRoot.appendingPathComponent("Examples/people")
  static let script = Snapshot.packageRoot.appendingPathComponent("Examples/git/check-migrations.sh").path

  static func check(plan: String, appSchema: String, fixture: String, in dir: URL) throws
    -> (stdout: String, stderr: String, status: Int32)
  {
    let realmctl = try #require(EndToEndTests.executable)
    return try CompletionTests.run(
      try #require(CompletionTests.tool("sh")), [script, plan, appSchema, fixture], in: dir,
      environment: ["REALMCTL": realmctl.path])
  }

  /// The app's schema at `version`: plan-v2's Person, with `extra` properties.
  static func appSchema(version: Int, extra: String, in dir: URL, name: String) throws -> String {
    try CommandTestSupport.write(
      """
      {"schemaVersion": \(version), "schema": [{"name": "Person", "properties": {
        "fullName": "string", "age": "int", "email": "string?"\(extra)}}], "migrations": []}
      """, to: dir, as: name)
  }

  @Test func passesWhenThePlanReachesTheAppsSchemaAndFailsWhenAMigrationIsMissing() throws {
    try CommandTestSupport.inScratchDirectory { dir in
      let fixture = dir.appendingPathComponent("people.realm").path
      let created = CommandTestSupport.run([
        "create", fixture, "--schema", Self.people.appendingPathComponent("schema.json").path,
        "--data", Self.people.appendingPathComponent("data.jsonl").path,
      ])
      expectEqual(created.status, 0, "\(created.stderr)")
      let before = try TestFiles.bytes(fixture)
      let plan = Self.people.appendingPathComponent("plan-v2.json").path

      let same = try Self.check(plan: plan, appSchema: plan, fixture: fixture, in: dir)
      expectEqual(same.status, 0, "\(same.stderr)")
      expectEqual(same.stdout, "\(fixture): the app opens it after \(plan)\n")

      // The app added a property at the same version: Realm's own refusal.
      let changed = try Self.appSchema(version: 2, extra: #", "phone": "string?""#, in: dir, name: "app-same-version.json")
      let refused = try Self.check(plan: plan, appSchema: changed, fixture: fixture, in: dir)
      expectEqual(refused.status, 1)
      #expect(refused.stderr.hasPrefix("\(fixture): a migration is missing from \(plan):\nMigration is required due to the following errors:\n"))
      #expect(refused.stderr.contains("- Property 'Person.phone' has been added."))

      // The app is at version 3 and the plan stops at 2.
      let ahead = try Self.appSchema(version: 3, extra: #", "phone": "string?""#, in: dir, name: "app-v3.json")
      let behind = try Self.check(plan: plan, appSchema: ahead, fixture: fixture, in: dir)
      expectEqual(behind.status, 1)
      #expect(behind.stderr.contains("a migration is missing from \(plan)"))
      #expect(behind.stderr.contains("schema version 2 -> 3"))

      // The fixture itself is never written.
      #expect(TestFiles.same(try TestFiles.bytes(fixture), before))
    }
  }
}
