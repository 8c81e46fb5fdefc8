import Foundation
import RealmJSON
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

import RealmFormat
import RealmModel

/// `realmctl upgrade` (issue 7, "done when" 3): every legacy file becomes a format-24 file
/// that `open --check` finds clean and that reads as Realm's own answer for the original;
/// formats 10-23 too; the options and the error cases.
@Suite struct UpgradeCommandTests {
  typealias Support = CommandTestSupport

  /// Upgrades a copy of `source` in `dir` and checks the result: exit 0, format 24, clean,
  /// Realm's answers (when given); returns the problems.
  static func upgradeAndCompare(_ source: String, in dir: URL, schema: URL?, dump: URL?) throws -> [String] {
    let file = dir.appendingPathComponent("up.realm").path
    try? FileManager.default.removeItem(atPath: file)
    try Support.write(Support.bytes(source), to: file)
    let run = Support.run(["upgrade", file])
    guard run.status == 0 else { return ["upgrade: exit \(run.status): \(run.stderr)"] }
    var problems: [String] = []
    if RealmAnswerCheck.headerFormat(source) != 0 {
      if !run.stdout.hasPrefix("Upgraded \(file): file format \(RealmAnswerCheck.headerFormat(source)) -> 24, ") {
        problems.append("report: \(run.stdout)")
      }
      if RealmAnswerCheck.headerFormat(file) != 24 { problems.append("the file is not format 24") }
    }
    problems += try Support.problems(file).map { "check: \($0)" }
    if let schema, let dump {
      problems += RealmAnswerCheck.problems(realm: file, schema: schema, dump: dump)
    }
    return problems
  }

  /// `upgradeAndCompare` of the file `realm` of the fixture directory `answers`, against the
  /// `schema.json` and `dump.jsonl` Realm wrote beside it.
  static func upgradeAndCompare(_ realm: String, of answers: URL, in dir: URL) throws -> [String] {
    try upgradeAndCompare(
      answers.appendingPathComponent(realm).path, in: dir, schema: answers.appendingPathComponent("schema.json"),
      dump: answers.appendingPathComponent("dump.jsonl"))
  }

  /// Upgrades a copy of `source` whose reading another test compares with Realm's answer:
  /// the upgraded file must be clean, have Realm's schema, and dump byte for byte as the
  /// original (a cheaper chain to Realm's answer for large files).
  static func upgradeAndCompareWithOriginal(_ source: String, in dir: URL, schema: URL) throws -> [String] {
    let original = Support.run(["dump", source, "--format", "jsonl"])
    guard original.status == 0 else { return ["dump of the original: \(original.stderr)"] }
    var problems = try upgradeAndCompare(source, in: dir, schema: nil, dump: nil)
    let file = dir.appendingPathComponent("up.realm").path
    let run = CommandRun(["schema", file, "--format", "json"])
    let expected = RealmAnswerCheck.replacing(
      "fileFormat", in: try JSONParser.parse([UInt8](try Data(contentsOf: schema))), with: .int(Int64(RealmAnswerCheck.headerFormat(file))))
    problems += DumpComparison.compareSchemas(expected: expected, actual: try JSONParser.parse(run.output)).map { "schema: \($0)" }
    if Support.run(["dump", file, "--format", "jsonl"]).stdout != original.stdout {
      problems.append("the upgraded file does not dump as the original")
    }
    return problems
  }

  @Test(arguments: LegacyReadingTests.core5Cases)
  func core5FixturesUpgradeToRealmsAnswer(_ name: String) throws {
    try Support.inScratchDirectory { dir in
      let problems = try Self.upgradeAndCompare("original.realm", of: Fixtures.url("legacy-core5/\(name)"), in: dir)
      #expect(problems.isEmpty, "\(name): \(problems.joined(separator: "\n"))")
    }
  }

  /// Primary keys get a search index, as Realm's upgrade adds it (format 24 requires one).
  @Test func primaryKeysAreIndexedAfterTheUpgrade() throws {
    try Support.withCopy(of: "legacy-core5/alltypes/original.realm", as: "a.realm") { file, _ in
      expectEqual(Support.run(["upgrade", file]).status, 0)
      let group = try RealmFile.open(path: file).group
      for name in ["IntPk", "StringPk"] {
        let table = try #require(group.table(forClass: name))
        let pk = try #require(table.primaryKey.flatMap { table.column(key: $0) })
        #expect(pk.hasSearchIndex, "\(name).\(pk.name)")
      }
    }
  }

  /// A format-22 file Realm Core 11 wrote (the upgrade of person-v1).
  @Test func format22FileUpgrades() throws {
    try Support.inScratchDirectory { dir in
      let problems = try Self.upgradeAndCompare("upgraded.realm", of: Fixtures.url("legacy-core5/person-v1"), in: dir)
      #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
  }

  /// Realm Core's legacy test files (from ../shared): the upgraded file reads as Realm's
  /// answer, every table (plain ones included) as Realm Core 14 reads Realm's own upgrade.
  @Test(SharedFixtures.enabled)
  func realmCoreLegacyFilesUpgradeToRealmsAnswer() throws {
    try Support.inScratchDirectory { dir in
      var upgraded = 0
      for source in LegacyReadingTests.sharedLegacyCases where !LegacyReadingTests.halfUpgraded.contains(source.lastPathComponent) {
        guard FileManager.default.fileExists(atPath: source.appendingPathComponent("schema.json").path) else { continue }
        upgraded += 1
        var problems = try Self.upgradeAndCompare("original.realm", of: source, in: dir)
        let tables = source.appendingPathComponent("tables.jsonl")
        if problems.isEmpty, FileManager.default.fileExists(atPath: tables.path) {
          problems += try TableReadingCheck(path: dir.appendingPathComponent("up.realm").path).problems(tablesJSONL: tables)
        }
        #expect(problems.isEmpty, "\(source.lastPathComponent): \(problems.joined(separator: "\n"))")
      }
      expectEqual(upgraded, 25)
    }
  }

  /// Realm Core's samples of formats 10-23 (from ../shared).
  @Test(SharedFixtures.enabled)
  func formats10To23Upgrade() throws {
    try Support.inScratchDirectory { dir in
      let root = try #require(SharedFixtures.url("fixtures/realm-core-samples"))
      var upgraded = 0
      for source in RealmAnswerCheck.directories(root) {
        let realm = source.appendingPathComponent("original.realm").path
        let format = RealmAnswerCheck.headerFormat(realm)
        guard (10...23).contains(format), FileManager.default.fileExists(atPath: source.appendingPathComponent("schema.json").path),
          (try? RealmFile.open(path: realm).group.historyType) == .inRealm
            || (try? RealmFile.open(path: realm).group.historyType) == HistoryType.none
        else { continue }
        upgraded += 1
        let problems = try Self.upgradeAndCompare("original.realm", of: source, in: dir)
        #expect(problems.isEmpty, "\(source.lastPathComponent): \(problems.joined(separator: "\n"))")
      }
      #expect(upgraded >= 5)
    }
  }

  @Test func aFormat24FileIsLeftAlone() throws {
    try Support.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, dir in
      let before = try Support.bytes(file)
      let run = Support.run(["upgrade", file])
      expectEqual(run.status, 0)
      expectEqual(run.stdout, "\(file) is already at file format 24, the current format: nothing to upgrade\n")
      #expect(TestFiles.same(try Support.bytes(file), before))
      // With --output, scripts get their file anyway: an unchanged copy.
      let out = dir.appendingPathComponent("b.realm").path
      let copy = Support.run(["upgrade", file, "--output", out])
      expectEqual(copy.stdout, "\(file) is already at file format 24, the current format: nothing to upgrade; copied unchanged to \(out)\n")
      #expect(TestFiles.same(try Support.bytes(out), before))
    }
  }

  @Test func dryRunWritesNothing() throws {
    try Support.withCopy(of: "legacy-core5/person-v1/original.realm", as: "a.realm") { file, dir in
      let before = try Support.bytes(file)
      let run = Support.run(["upgrade", file, "--dry-run"])
      expectEqual(run.status, 0, "\(run.stderr)")
      #expect(run.stdout.hasPrefix("\(file): file format 9 -> 24 would be written (dry run: nothing written): 20 objects in 1 class, 4096 -> "))
      #expect(TestFiles.same(try Support.bytes(file), before))
      let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
      expectEqual(names, ["a.realm", "a.realm.lock"])
    }
  }

  @Test func outputLeavesTheOriginal() throws {
    try Support.withCopy(of: "legacy-core5/person-v1/original.realm", as: "a.realm") { file, dir in
      let before = try Support.bytes(file)
      let out = dir.appendingPathComponent("new.realm").path
      let run = Support.run(["upgrade", file, "--output", out])
      expectEqual(run.status, 0, "\(run.stderr)")
      #expect(run.stdout.hasPrefix("Upgraded \(file) to \(out): file format 9 -> 24, 20 objects in 1 class, 4096 -> "))
      #expect(TestFiles.same(try Support.bytes(file), before))
      expectEqual(RealmAnswerCheck.headerFormat(out), 24)
      #expect(try Support.problems(out).isEmpty)
      // The output must not exist: 73, and nothing is changed.
      let again = Support.run(["upgrade", file, "--output", out])
      expectEqual(again.status, 73)
      #expect(again.stderr.contains("already exists"), "\(again.stderr)")
      #expect(TestFiles.same(try Support.bytes(file), before))
    }
  }

  @Test func backupKeepsTheOriginal() throws {
    try Support.withCopy(of: "legacy-core5/person-v1/original.realm", as: "a.realm") { file, dir in
      let before = try Support.bytes(file)
      let backup = dir.appendingPathComponent("a.realm.bak").path
      let run = Support.run(["upgrade", file, "--backup", backup])
      expectEqual(run.status, 0, "\(run.stderr)")
      #expect(TestFiles.same(try Support.bytes(backup), before))
      expectEqual(RealmAnswerCheck.headerFormat(file), 24)
      // An existing backup path: 73, the file untouched.
      let other = try Support.copy("legacy-core5/person-v1/original.realm", to: dir, as: "b.realm")
      let refused = Support.run(["upgrade", other, "--backup", backup])
      expectEqual(refused.status, 73, "\(refused.stderr)")
      #expect(TestFiles.same(try Support.bytes(other), before))
    }
  }

  @Test func usageErrors() throws {
    try Support.withCopy(of: "legacy-core5/person-v1/original.realm", as: "a.realm") { file, _ in
      let both = Support.run(["upgrade", file, "--output", file + ".new", "--backup", file + ".bak"])
      expectEqual(both.status, 64)
      #expect(both.stderr.contains("with '--output <new>' the original is not changed"), "\(both.stderr)")
      let same = Support.run(["upgrade", file, "--output", file])
      expectEqual(same.status, 64)
      expectEqual(Support.run(["upgrade"]).status, 64)
      expectEqual(RealmAnswerCheck.headerFormat(file), 9)
    }
  }

  @Test func badInputs() throws {
    try Support.inScratchDirectory { dir in
      let missing = Support.run(["upgrade", dir.appendingPathComponent("none.realm").path])
      expectEqual(missing.status, 66)
      let text = try Support.write("not a realm\n", to: dir, as: "t.realm")
      expectEqual(Support.run(["upgrade", text]).status, 65)
      // A damaged legacy file: 65 with the offset, the file untouched.
      var bytes = try Fixtures.bytes("legacy-core5/person-v1/original.realm")
      for i in stride(from: 200, to: 4000, by: 16) { bytes[i] ^= 0x5A }
      let damaged = dir.appendingPathComponent("d.realm").path
      try Support.write(bytes, to: damaged)
      let run = Support.run(["upgrade", damaged])
      expectEqual(run.status, 65, "\(run.stderr)")
      #expect(TestFiles.same(try Support.bytes(damaged), bytes))
    }
  }

  /// Reading commands never write: no byte of a legacy file changes and no lock file appears.
  @Test func readingCommandsNeverWrite() throws {
    try Support.withCopy(of: "legacy-core5/alltypes/original.realm", as: "a.realm") { file, dir in
      let before = try Support.bytes(file)
      for words in [["open", file], ["open", file, "--check", "--json"], ["schema", file], ["dump", file, "--format", "json"],
        ["dump", file, "--class", "IntPk", "--where", "id > 0"]]
      {
        let run = Support.run(words)
        expectEqual(run.status, 0, "\(words): \(run.stderr)")
      }
      #expect(TestFiles.same(try Support.bytes(file), before))
      try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path), ["a.realm"])
    }
  }
}
