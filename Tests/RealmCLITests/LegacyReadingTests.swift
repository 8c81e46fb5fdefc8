import Foundation
import RealmTestSupport
import Testing

/// File formats 2-9 read exactly as Realm shows them after upgrading them (issue 7, "done
/// when" 1): `schema` and `dump` against Realm's answers, every table against Realm Core 14's
/// and Realm Core 5's own readings, `open --check` clean.
@Suite struct LegacyReadingTests {
  static let core5Cases = ["alltypes", "enum-multileaf", "person-v1"]

  /// The legacy fixtures Realm Core generated for us (copied into Tests/Fixtures).
  @Test(arguments: core5Cases)
  func core5FixturesMatchRealm(_ name: String) {
    let dir = Fixtures.url("legacy-core5/\(name)")
    let problems = RealmAnswerCheck.problems(
      realm: dir.appendingPathComponent("original.realm").path, schema: dir.appendingPathComponent("schema.json"),
      dump: dir.appendingPathComponent("dump.jsonl"))
    #expect(problems.isEmpty, "\(name): \(problems.joined(separator: "\n"))")
  }

  @Test(arguments: core5Cases)
  func core5FixturesCheckClean(_ name: String) {
    let run = CommandRun(["open", fixturePath("legacy-core5/\(name)/original.realm"), "--check"])
    expectEqual(run.status, 0, "\(run.text)\(run.errors)")
    #expect(run.text.contains("File format:     9 ("))
  }

  /// Files of Realm Core's own test data that Realm Core 11 finishes upgrading although they
  /// say format 9: Realm Core 6+ tables left by an interrupted upgrade (realm-legacy-format.md
  /// §8.2), which realmctl refuses (docs/file-formats.md).
  static let halfUpgraded: Set<String> = [
    "test__test_upgrade_colkey_error", "test__test_upgrade_progress_1", "test__test_upgrade_progress_2",
    "test__test_upgrade_progress_3", "test__test_upgrade_progress_4", "test__test_upgrade_progress_5",
    "test__test_upgrade_progress_6", "test__test_upgrade_progress_7",
  ]

  static var sharedLegacyCases: [URL] {
    guard let root = SharedFixtures.url("fixtures/legacy/realm-core") else { return [] }
    return RealmAnswerCheck.directories(root)
  }

  /// Realm Core's legacy test files (from ../shared): every file with Realm's answer reads as
  /// Realm's answer; the half-upgraded ones are refused with their own message.
  @Test(SharedFixtures.enabled)
  func realmCoreLegacyFilesMatchRealm() {
    var answered = 0
    for dir in Self.sharedLegacyCases {
      let realm = dir.appendingPathComponent("original.realm").path
      let schema = dir.appendingPathComponent("schema.json")
      guard FileManager.default.fileExists(atPath: schema.path) else { continue }
      if Self.halfUpgraded.contains(dir.lastPathComponent) {
        let run = CommandRun(["schema", realm])
        #expect(run.status == 65 && run.errors.contains("interrupted"), "\(dir.lastPathComponent): \(run.errors)")
        continue
      }
      answered += 1
      let problems = RealmAnswerCheck.problems(realm: realm, schema: schema, dump: dir.appendingPathComponent("dump.jsonl"))
      #expect(problems.isEmpty, "\(dir.lastPathComponent): \(problems.joined(separator: "\n"))")
    }
    expectEqual(answered, 25)
  }

  /// Every table, also the plain (non-class) tables of Realm Core's test files, reads as Realm
  /// Core 14 reads the file Realm Core 11 upgraded (`tables.jsonl`).
  @Test(SharedFixtures.enabled)
  func everyTableMatchesRealmCore14() throws {
    try expectTablesMatch("tables.jsonl", files: 25) { try $0.problems(tablesJSONL: $1) }
  }

  /// Files Realm's upgrade refuses (sync histories) or crashes on (format-2 binaries) are read
  /// as Realm Core 5 itself reads them (`core5.jsonl`); so are all the others.
  @Test(SharedFixtures.enabled)
  func everyTableMatchesRealmCore5() throws {
    try expectTablesMatch("core5.jsonl", files: 34) { try $0.problems(core5JSONL: $1) }
  }

  /// Every legacy case (but the half-upgraded ones) that has the answer `answer` reads as that
  /// answer says (`problems` of the check against the answer file); `files` cases have one.
  func expectTablesMatch(
    _ answer: String, files: Int, problems: (TableReadingCheck, URL) throws -> [String]
  ) throws {
    var compared = 0
    for dir in Self.sharedLegacyCases where !Self.halfUpgraded.contains(dir.lastPathComponent) {
      let answerFile = dir.appendingPathComponent(answer)
      guard FileManager.default.fileExists(atPath: answerFile.path) else { continue }
      compared += 1
      let check = try TableReadingCheck(path: dir.appendingPathComponent("original.realm").path)
      let found = try problems(check, answerFile)
      #expect(found.isEmpty, "\(dir.lastPathComponent): \(found.joined(separator: "\n"))")
    }
    expectEqual(compared, files)
  }

  /// The generated sample (`scripts/legacy_realm.py sample`, every column kind) reads as the
  /// reference reader `read_legacy.py` reads it: the writer and the reader agree with a
  /// second, independent reading of the layout.
  @Test(SharedFixtures.enabled, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
  func generatedSampleReadsAsTheReferenceReader() throws {
    let tool = try #require(SharedFixtures.url("tools/pyrealm/read_legacy.py")).path
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let sample = fixturePath("legacy-generated/sample.realm")
    for mode in ["schema", "dump"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
      process.arguments = [tool, sample, "--\(mode)"]
      process.standardOutput = try FileHandle(forWritingTo: {
        let url = dir.appendingPathComponent(mode)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return url
      }())
      try process.run()
      process.waitUntilExit()
      expectEqual(process.terminationStatus, 0)
    }
    let problems = RealmAnswerCheck.problems(
      realm: sample, schema: dir.appendingPathComponent("schema"), dump: dir.appendingPathComponent("dump"))
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    expectEqual(CommandRun(["open", sample, "--check"]).status, 0)
  }

  @Test(SharedFixtures.enabled)
  func realmCoreLegacyFilesCheckClean() {
    for dir in Self.sharedLegacyCases where !Self.halfUpgraded.contains(dir.lastPathComponent) {
      let run = CommandRun(["open", dir.appendingPathComponent("original.realm").path, "--check"])
      expectEqual(run.status, 0, "\(dir.lastPathComponent): \(run.text)\(run.errors)")
    }
  }
}
