import Foundation
import RealmJSON
import RealmStorage
import RealmTestSupport
import Testing
import RealmFormat
import RealmModel

/// `realmctl open`: the summary in text and JSON, and `--check`. Expected values come from
/// Realm's answers for the fixtures (schema.json, dump.jsonl, info.txt, the README).
@Suite struct OpenCommandTests {
  @Test func textSummaryOfARealFile() throws {
    let answers = try RealmAnswers("user-tutorial")
    let path = fixturePath("user-tutorial/before.realm")
    let run = CommandRun(["open", path])
    expectEqual(run.status, 0)
    #expect(run.errors.isEmpty)
    let lines = run.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.contains("Path:            \(path)"))
    #expect(lines.contains("Size:            8192 bytes (8.0 KiB)"))
    #expect(answers.schema["fileFormat"] == .int(24) && answers.schema["schemaVersion"] == .int(0))
    #expect(lines.contains("File format:     24 (Realm Core 14 and 20, 2024 on: the current SDKs)"))
    #expect(lines.contains("Schema version:  0"))
    #expect(lines.contains("Compacted copy:  no"))
    #expect(lines.contains("Classes:         1"))
    #expect(lines.contains("  User  \(answers.lines(of: "User").count) objects"))
    // Labels are aligned: every value starts in the same column.
    let labelled = lines.prefix { !$0.isEmpty }
    expectEqual(Set(labelled.map { valueColumn($0) }).count, 1)
  }

  @Test func jsonSummaryHasTheDocumentedShape() throws {
    let answers = try RealmAnswers("embedded")
    let run = CommandRun(["open", fixturePath("embedded/before.realm"), "--json"])
    expectEqual(run.status, 0)
    let json = try JSONParser.parse(run.output)
    guard case .object(let members) = json else {
      Issue.record("not an object: \(run.text)")
      return
    }
    expectEqual(members.map(\.key), [
      "path", "size", "encrypted", "fileFormat", "writtenBy", "compatibility", "sdkReleases", "schemaVersion", "historyType",
      "historySchemaVersion", "compacted",
      "streamingForm", "freeSpace", "freeChunks", "classes", "otherTables", "sync", "syncMetadataRealm",
    ])
    expectEqual(json["size"], .int(32768))
    expectEqual(json["encrypted"], .bool(false))
    expectEqual(json["fileFormat"], answers.schema["fileFormat"])
    expectEqual(json["writtenBy"], .string("Realm Core 14 and 20, 2024 on: the current SDKs"))
    expectEqual(json["compatibility"], .string("current SDKs open it as it is"))
    expectEqual(json["schemaVersion"], answers.schema["schemaVersion"])
    expectEqual(json["historyType"], .string("InRealm"))
    expectEqual(json["compacted"], .bool(false))
    guard case .array(let classes)? = json["classes"] else {
      Issue.record("no classes")
      return
    }
    expectEqual(classes.map { $0["name"] }, answers.classes.map { $0["name"] })
    for (cls, expected) in zip(classes, answers.classes) {
      expectEqual(cls["embedded"], expected["embedded"])
      if expected["embedded"] == .bool(false), case .string(let name)? = expected["name"] {
        expectEqual(cls["objects"], .int(Int64(answers.lines(of: name).count)), "\(name)")
      }
    }
    for (cls, expected) in zip(classes, answers.classes) {
      expectEqual(cls["primaryKey"], expected["primaryKey"])
    }
    expectEqual(json["otherTables"], .array([
      .object([JSONMember("name", .string("metadata")), JSONMember("objects", .int(1)), JSONMember("primaryKey", .null)])
    ]))
  }

  @Test func embeddedClassesAreMarkedInText() throws {
    let run = CommandRun(["open", fixturePath("embedded/before.realm")])
    let classLines = run.text.split(separator: "\n").filter { $0.hasPrefix("  ") }.map(String.init)
    expectEqual(classLines.count, 4)
    for line in classLines {
      let name = line.split(separator: " ").first.map(String.init) ?? ""
      expectEqual(line.hasSuffix(" (embedded)"), (name != "Contact"), "\(line)")
    }
    #expect(run.text.contains("Classes:         4 (3 embedded)\n"))
    #expect(run.text.contains("\n  Contact   60 objects (primary key _id)\n"))
  }

  /// The fixtures' README names the compacted copies: two in streaming form, one converted
  /// from it by `DB::compact` (select bit set, top_ref[0] still ~0), one committed normally.
  @Test(arguments: [
    ("format-samples/v24_compacted.realm", true, false), ("format-samples/v24_write_copy.realm", true, true),
    ("format-samples/v24_group_write.realm", true, true), ("format-samples/v24_commit.realm", false, false),
  ])
  func tellsCompactedCopies(_ file: String, _ compacted: Bool, _ streaming: Bool) throws {
    let json = try JSONParser.parse(CommandRun(["open", fixturePath(file), "--json"]).output)
    expectEqual(json["compacted"], .bool(compacted))
    expectEqual(json["streamingForm"], .bool(streaming))
    if compacted {
      expectEqual(json["freeSpace"], .int(0))
    } else {
      // v24_commit was written by several commits and has free lists.
      guard case .int(let chunks)? = json["freeChunks"] else {
        Issue.record("no freeChunks")
        return
      }
      #expect(chunks > 0)
    }
  }

  /// `open` names the SDK releases that open the file, from the table of docs/file-formats.md,
  /// for the format Realm Core found in the header (`info.txt` of its samples of formats 20, 22
  /// and 23). The releases that write the format open it as is; later ones upgrade it.
  @Test(SharedFixtures.enabled, arguments: [
    "test__test_upgrade_database_20", "test__test_upgrade_database_4_22", "test__test_upgrade_database_4_23",
  ])
  func namesTheSDKReleasesThatOpenTheFile(_ sample: String) throws {
    let shared = FixtureLocation.shared
    let info = try String(contentsOf: shared.url(SharedFixtures.realmCoreSample(sample, "info.txt")), encoding: .utf8)
    let selected = try #require(info.split(separator: "\n").first { $0.hasPrefix("file_format:") }?.split(separator: "=").last)
    let format = try #require(Int(selected.prefix { $0.isNumber }))
    let path = try shared.path(SharedFixtures.realmCoreSample(sample))
    let openers = SDKReleases.openers(format: format, history: .inRealm)
    let (asIs, upgrading) = (openers.asIs, openers.afterUpgrade)
    #expect(!asIs.isEmpty && !upgrading.isEmpty)
    let text = CommandRun(["open", path]).text
    #expect(text.contains("\nFile format:     \(format) ("))
    #expect(text.contains("\nOpens as is in:  \(SDKReleases.text(asIs))\n"))
    #expect(text.contains("\nUpgraded by:     \(SDKReleases.text(upgrading))\n"))
    let json = try JSONParser.parse(CommandRun(["open", path, "--json"]).output)
    guard case .array(let openAsIs)? = json["sdkReleases"]?["openAsIs"], case .array(let afterUpgrade)? = json["sdkReleases"]?["openAfterUpgrade"] else {
      Issue.record("no sdkReleases")
      return
    }
    expectEqual(openAsIs.map { $0["sdk"] }, asIs.map { .string($0.sdk.name) })
    expectEqual(openAsIs.map { $0["first"] }, asIs.map { .string($0.first) })
    expectEqual(afterUpgrade.map { $0["last"] }, upgrading.map { .string($0.last) })
  }

  /// Format 24 (a fixture Realm Core 14.14 wrote): the current releases open it, both lines of
  /// each SDK (10.x with Device Sync, 20.x without, released side by side: docs/file-formats.md);
  /// none upgrades it; a local realm is refused by none.
  @Test func format24IsOpenedAsIsAndUpgradedByNone() throws {
    let text = CommandRun(["open", fixturePath("user-tutorial/before.realm")]).text
    let asIs = SDKReleases.openers(format: 24, history: .inRealm).asIs
    #expect(text.contains("\nOpens as is in:  \(SDKReleases.text(asIs))\n"))
    #expect(!text.contains("Upgraded by:") && !text.contains("Refused by:"))
    // The releases of 2024-2026, from the SDKs' changelogs.
    #expect(
      text.contains(
        "\nOpens as is in:  Realm Swift 10.49.0-10.54.6 and 20.0.0-20.0.6, Realm Kotlin 1.15.0-3.0.0, "
          + "Realm JS 12.7.0-12.15.0 and 20.0.0-20.2.0, Realm .NET 12.0.0-12.5.0 and 20.0.0-20.1.0, "
          + "Realm Dart 2.0.0-3.5.0 and 20.0.0-20.2.0\n"), "\(text)")
    let json = try JSONParser.parse(CommandRun(["open", fixturePath("user-tutorial/before.realm"), "--json"]).output)
    guard case .array(let openAsIs)? = json["sdkReleases"]?["openAsIs"], case .array(let refusing)? = json["sdkReleases"]?["withoutDeviceSync"] else {
      Issue.record("no sdkReleases")
      return
    }
    expectEqual(openAsIs.map { $0["last"] }, asIs.map { .string($0.last) })
    #expect(openAsIs.contains { $0["sdk"] == .string("Realm Swift") && $0["first"] == .string("20.0.0") && $0["last"] == .string("20.0.6") })
    #expect(refusing.isEmpty)
  }

  /// Realm refused this sample because its history type is 'SyncClient' (error.txt).
  @Test(SharedFixtures.enabled)
  func showsTheHistoryType() throws {
    let sample = "test__resources__history_migration__client_schema_version_011"
    let shared = FixtureLocation.shared
    let error = try String(contentsOf: shared.url(SharedFixtures.realmCoreSample(sample, "error.txt")), encoding: .utf8)
    #expect(error.contains("history type 'SyncClient'"))
    let path = try shared.path(SharedFixtures.realmCoreSample(sample))
    let json = try JSONParser.parse(CommandRun(["open", path, "--json"]).output)
    expectEqual(json["historyType"], .string("SyncClient"))
    let text = CommandRun(["open", path]).text
    #expect(text.contains("History:         SyncClient (Device Sync client)\n"))
  }

  /// Files written by Realm are sound: `--check` finds nothing and exits 0.
  @Test(arguments: AnsweredFixture.all.filter { !$0.realm.hasPrefix("alltypes/") && !$0.realm.hasPrefix("strings/") }.map(\.realm)
    + ["format-samples/v24_commit.realm", "format-samples/v24_edge.realm", "format-samples/v24_compacted.realm"])
  func checkFindsNothingInRealmsFiles(_ file: String) throws { try checkFindsNothing(in: fixturePath(file)) }

  @Test(SharedFixtures.enabled, arguments: AnsweredFixture.realmCoreSamples)
  func checkFindsNothingInRealmCoreSamples(_ fixture: AnsweredFixture) throws {
    try checkFindsNothing(in: try fixture.path())
  }

  func checkFindsNothing(in path: String) throws {
    let run = CommandRun(["open", path, "--check"])
    expectEqual(run.status, 0, "\(run.text)")
    #expect(run.text.contains("Check:           clean\n"))
    let json = try JSONParser.parse(CommandRun(["open", path, "--check", "--json"]).output)
    expectEqual(json["check"], .object([JSONMember("clean", .bool(true)), JSONMember("problems", .array([]))]))
  }

  /// A free chunk made 8 bytes shorter leaves 8 bytes that are neither a node nor free space.
  @Test func checkReportsProblemsWithOffsetsAndExitsOne() throws {
    let source = fixturePath("format-samples/v24_commit.realm")
    let mutator = try RobustnessMutator(path: source)
    var bytes = mutator.original
    let top = try #require(mutator.nodes.first)
    let lengths = try #require(mutator.nodes.first { $0.parent == top.ref && $0.ref == element(bytes, top, 4) })
    let first = element(bytes, lengths, 0)
    #expect(first > 8)
    setElement(&bytes, lengths, 0, first - 8)
    try Fixtures.withTemporaryFile(bytes, named: "short-free-chunk.realm") { path in
      let run = CommandRun(["open", path, "--check"])
      expectEqual(run.status, 1)
      #expect(run.text.contains("Check:           1 problem\n"))
      #expect(run.text.contains("\nProblems:\n  unaccountedSpace: bytes 0x"))
      #expect(run.text.contains("are neither a node nor free space (at offset 0x"))
      let json = try JSONParser.parse(CommandRun(["open", path, "--check", "--json"]).output)
      guard case .array(let problems)? = json["check"]?["problems"] else {
        Issue.record("no problems")
        return
      }
      expectEqual(problems.count, 1)
      expectEqual(problems.first?["kind"], .string("unaccountedSpace"))
      guard case .int? = problems.first?["offset"] else {
        Issue.record("no offset")
        return
      }
      // Without --check the same file opens normally.
      expectEqual(CommandRun(["open", path]).status, 0)
    }
  }

  @Test func checkOfAFileThatCannotBeOpenedIsADataError() throws {
    let bytes = Array(try Fixtures.bytes("embedded/before.realm").prefix(4096))
    try Fixtures.withTemporaryFile(bytes, named: "cut.realm") { path in
      let run = CommandRun(["open", path, "--check"])
      expectEqual(run.status, 65)
      #expect(run.output.isEmpty)
      #expect(run.errors.hasPrefix("Error: '\(path)' is not a valid Realm file: "))
    }
  }

  private func valueColumn(_ line: String) -> Int {
    guard let colon = line.firstIndex(of: ":") else { return -1 }
    let rest = line[line.index(after: colon)...]
    return line.distance(from: line.startIndex, to: colon) + 1 + rest.prefix { $0 == " " }.count
  }

  private func element(_ bytes: [UInt8], _ node: RobustnessMutator.Node, _ i: Int) -> Int {
    let width = node.header.width / 8
    var value = 0
    for b in 0..<width { value |= Int(bytes[node.ref + 8 + i * width + b]) << (8 * b) }
    return value
  }

  private func setElement(_ bytes: inout [UInt8], _ node: RobustnessMutator.Node, _ i: Int, _ value: Int) {
    let width = node.header.width / 8
    for b in 0..<width { bytes[node.ref + 8 + i * width + b] = UInt8(truncatingIfNeeded: value >> (8 * b)) }
  }
}
