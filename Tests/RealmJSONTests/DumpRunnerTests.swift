import RealmFormat
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmJSON

@Suite struct DumpRunnerTests {
  /// Runs a dump of a fixture's `before.realm` in the given format.
  func dump(
    _ fixture: String, _ format: DumpFormat = .jsonl, runner: DumpRunner = DumpRunner()
  ) throws -> (text: String, count: Int) {
    let file = try RealmFile.open(path: Fixtures.url("\(fixture)/before.realm").path)
    let schema = try file.group.schema()
    var out: [UInt8] = []
    var writer = format.makeWriter(sink: { out += $0 }, terminalWidth: 80)
    let n = try runner.run(group: file.group, schema: schema, writer: &writer)
    return (String(decoding: out, as: UTF8.self), n)
  }

  func expectedLines(_ fixture: String) throws -> [String] {
    String(decoding: try Fixtures.bytes("\(fixture)/dump.jsonl"), as: UTF8.self)
      .split(separator: "\n").map(String.init)
  }

  @Test func dumpsEveryClassLikeRealm() throws {
    for fixture in ["nested-links", "embedded", "person-add-email"] {
      let (text, n) = try dump(fixture)
      #expect(text == String(decoding: try Fixtures.bytes("\(fixture)/dump.jsonl"), as: UTF8.self))
      #expect(n == (try expectedLines(fixture)).count)
    }
  }

  @Test func offsetAndLimitCountAcrossClasses() throws {
    // nested-links: Holder key 0, then Target keys 0, 1, 2.
    let all = try expectedLines("nested-links")
    #expect(
      try dump("nested-links", runner: DumpRunner(offset: 1, limit: 2)).text
        == all[1...2].joined(separator: "\n") + "\n")
    #expect(try dump("nested-links", runner: DumpRunner(offset: 3)).text == all[3] + "\n")
    #expect(try dump("nested-links", runner: DumpRunner(limit: 0)).count == 0)
    #expect(try dump("nested-links", runner: DumpRunner(offset: 99)).text == "")
    #expect(
      try dump("nested-links", runner: DumpRunner(className: "Target", offset: 1)).text
        == all[2...3].joined(separator: "\n") + "\n")
  }

  @Test func classesOutsideTheWindowAreNotShown() throws {
    let json = try dump("nested-links", .json, runner: DumpRunner(limit: 1)).text
    #expect(json.contains("\"Holder\": ["))
    #expect(!json.contains("\"Target\": ["))
    let table = try dump("nested-links", .table, runner: DumpRunner(offset: 1)).text
    #expect(!table.contains("Holder"))
    #expect(table.hasPrefix("Target\n"))
    #expect(table.hasSuffix("(3 objects)\n"))
  }

  @Test func filtersBeforeOffsetAndLimit() throws {
    let runner = DumpRunner(offset: 1, limit: 1) { cls, key, _ in cls.name == "Target" && key != 1 }
    let (text, n) = try dump("nested-links", runner: runner)
    #expect(n == 1)
    #expect(text.contains(#""$class":"Target","$key":2,"#))
  }

  @Test func refusesUnknownAndEmbeddedClasses() throws {
    #expect(throws: DumpOutputError("The file has no class 'Nope'")) {
      try dump("embedded", runner: DumpRunner(className: "Nope"))
    }
    #expect(
      throws: DumpOutputError(
        "'Address' is an embedded class: its objects are dumped inside their parents")
    ) {
      try dump("embedded", runner: DumpRunner(className: "Address"))
    }
  }
}
