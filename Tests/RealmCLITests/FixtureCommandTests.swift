import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// `realmctl schema --format json` and `realmctl dump --format jsonl` reproduce Realm's own
/// answers for every reading case of the fixtures, by meaning (issue 2, "done when" 1).
@Suite struct FixtureCommandTests {
  @Test func findsEveryReadingCase() {
    CommandTestSupport.expectCases(AnsweredFixture.all.map(\.realm), atLeast: 32, including: [
      "alltypes/before.realm", "strings/before.realm", "embedded/before.realm", "nested-links/before.realm",
      "optionality/copy.realm", "user-tutorial/steps/v3/after.realm",
    ])
  }

  @Test(SharedFixtures.enabled)
  func findsRealmCoreSamples() {
    let expected = SharedFixtures.realmCoreSample("test__test_upgrade_database_11")
    #expect(AnsweredFixture.realmCoreSamples.contains { $0.realm == expected })
  }

  @Test(arguments: AnsweredFixture.all)
  func schemaMatchesRealm(_ fixture: AnsweredFixture) throws { try schemaMatchesRealm(of: fixture) }

  @Test(SharedFixtures.enabled, arguments: AnsweredFixture.realmCoreSamples)
  func schemaOfRealmCoreSamplesMatchesRealm(_ fixture: AnsweredFixture) throws { try schemaMatchesRealm(of: fixture) }

  func schemaMatchesRealm(of fixture: AnsweredFixture) throws {
    let run = CommandRun(["schema", try fixture.path(), "--format", "json"])
    expectEqual(run.status, 0, "\(run.errors)")
    var expected = try JSONParser.parse(try fixture.location.bytes(fixture.schema))
    let actual = try JSONParser.parse(run.output)
    if fixture.upgradedByRealm {
      // Realm upgraded its copy before answering; the file itself keeps its own format.
      let format = try #require(fixture.selectedFormat)
      expectEqual(actual["fileFormat"], .int(Int64(format)))
      expected = replacing("fileFormat", in: expected, with: .int(Int64(format)))
    }
    let problems = DumpComparison.compareSchemas(expected: expected, actual: actual)
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test(arguments: AnsweredFixture.all)
  func dumpMatchesRealm(_ fixture: AnsweredFixture) throws { try dumpMatchesRealm(of: fixture) }

  @Test(SharedFixtures.enabled, arguments: AnsweredFixture.realmCoreSamples)
  func dumpOfRealmCoreSamplesMatchesRealm(_ fixture: AnsweredFixture) throws { try dumpMatchesRealm(of: fixture) }

  func dumpMatchesRealm(of fixture: AnsweredFixture) throws {
    let run = CommandRun(["dump", try fixture.path(), "--format", "jsonl"])
    expectEqual(run.status, 0, "\(run.errors)")
    #expect(run.errors.isEmpty)
    let problems = DumpComparison.compareDumps(
      expected: try fixture.location.bytes(fixture.dump), actual: run.output,
      schema: try fixture.location.bytes(fixture.schema))
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "\n"))")
    // The canonical form: one object per line, each line ends with a line break.
    #expect(run.output.isEmpty || run.output.last == 0x0A)
  }

  private func replacing(_ key: String, in object: JSONValue, with value: JSONValue) -> JSONValue {
    guard case .object(let members) = object else { return object }
    return .object(members.map { $0.key == key ? JSONMember(key, value) : $0 })
  }
}
