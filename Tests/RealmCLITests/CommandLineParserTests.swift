import RealmExport
import RealmTestSupport
import Testing

@testable import RealmCLI
import RealmModel

/// What the parser makes of realmctl's own command lines.
@Suite struct CommandLineParserTests {
  private func invocation(_ words: [String]) throws -> ParsedInvocation {
    let result = RealmCtl.parser.parse(words)
    guard case .success(.run(let invocation)) = result else {
      Issue.record("expected a command to run, got \(result)")
      throw UsageError(.unexpectedArgument, "not a run")
    }
    return invocation
  }

  private func error(_ words: [String]) -> UsageError? {
    if case .failure(let error) = RealmCtl.parser.parse(words) { return error }
    return nil
  }

  @Test func readsOptionsWithSpaceAndWithEquals() throws {
    let spaced = try invocation(["schema", "a.realm", "--format", "json", "--class", "Person"])
    let joined = try invocation(["schema", "--format=json", "--class=Person", "a.realm"])
    for parsed in [spaced, joined] {
      expectEqual(parsed.command.name, "schema")
      expectEqual(parsed.string("file"), "a.realm")
      expectEqual(parsed.string("format"), "json")
      expectEqual(parsed.string("class"), "Person")
    }
  }

  @Test func appliesDefaultsOnlyWhenAbsent() throws {
    let parsed = try invocation(["schema", "a.realm"])
    expectEqual(parsed.string("format"), "text")
    #expect(!parsed.isGiven("format"))
    #expect(parsed.string("class") == nil)
    let options = SchemaCommand().options(parsed)
    expectEqual(options, .init(file: "a.realm", format: .text, className: nil))
  }

  @Test func valuesAfterDoubleDashArePositional() throws {
    let parsed = try invocation(["open", "--json", "--", "--check"])
    expectEqual(parsed.string("file"), "--check")
    #expect(parsed.flag("json"))
    #expect(!parsed.flag("check"))
  }

  @Test func keepsAnEqualsSignInsideAValue() throws {
    let parsed = try invocation(["dump", "a.realm", "--where=name == 'a=b'"])
    expectEqual(parsed.string("where"), "name == 'a=b'")
  }

  @Test func readsIntegers() throws {
    let parsed = try invocation(["dump", "a.realm", "--limit", "10", "--offset=0"])
    expectEqual(parsed.integer("limit"), 10)
    expectEqual(parsed.integer("offset"), 0)
    try expectEqual(invocation(["dump", "a.realm"]).integer("offset"), 0)
  }

  @Test(arguments: ["abc", "1.5", "", "99999999999999999999", "0x10"])
  func rejectsNonIntegers(value: String) {
    let words = value.isEmpty ? ["dump", "a", "--limit", ""] : ["dump", "a", "--limit=\(value)"]
    expectEqual(error(words)?.code, .invalidValue)
  }

  @Test func rejectsNegativeSchemaVersions() {
    #expect(
      error(["rename-property", "a", "B", "c", "d", "--schema-version=-1"])?.code == .invalidValue)
    expectEqual(error(["create", "o", "--schema", "s", "--schema-version=-1"])?.code, .invalidValue)
    #expect(
      error(["create", "o", "--schema", "s", "--schema-version", "-1"])?.code == .missingValue)
  }

  @Test func collectsRepeatingPositionals() throws {
    let parsed = try invocation(
      ["migrate", "a.realm", "--plan", "p.json", "b.realm", "--dry-run", "c.realm", "--json"])
    let options = MigrateCommand().options(parsed)
    #expect(
      options
        == .init(
          plan: "p.json", files: ["a.realm", "b.realm", "c.realm"], dryRun: true, backup: nil,
          resetIfNeeded: false, json: true))
  }

  @Test func readsEveryMigrateOption() throws {
    let parsed = try invocation(
      ["migrate", "--plan=p.json", "--backup", "a.bak", "--reset-if-needed", "a.realm"])
    #expect(
      MigrateCommand().options(parsed)
        == .init(
          plan: "p.json", files: ["a.realm"], dryRun: false, backup: "a.bak", resetIfNeeded: true,
          json: false))
  }

  @Test func readsRenamePropertyPositionalsInOrder() throws {
    let parsed = try invocation(
      ["rename-property", "a.realm", "Person", "age", "years", "--schema-version", "4"])
    #expect(
      RenamePropertyCommand().options(parsed)
        == .init(
          file: "a.realm", className: "Person", oldName: "age", newName: "years", schemaVersion: 4))
    let defaulted = try invocation(["rename-property", "a.realm", "Person", "age", "years"])
    #expect(RenamePropertyCommand().options(defaulted).schemaVersion == nil)
  }

  @Test func readsCreateOptions() throws {
    let parsed = try invocation(["create", "out.realm", "--schema", "s.json", "--data", "d.jsonl"])
    #expect(
      try CreateCommand().options(parsed)
        == .init(output: "out.realm", schema: "s.json", data: ["d.jsonl"], schemaVersion: nil))
    expectEqual(error(["create", "out.realm"])?.code, .missingArgument)
  }

  @Test func dumpFormatDefaultsFromTheTerminal() throws {
    let parsed = try invocation(["dump", "a.realm"])
    let command = DumpCommand()
    #expect(
      command.options(parsed, terminal: Terminal(isStandardOutputTerminal: true)).format == .table)
    #expect(
      command.options(parsed, terminal: Terminal(isStandardOutputTerminal: false)).format == .jsonl)
    let explicit = try invocation(["dump", "a.realm", "--format", "csv", "--class", "Dog"])
    let options = command.options(explicit, terminal: Terminal(isStandardOutputTerminal: true))
    expectEqual(options.format, .csv)
    expectEqual(options.className, "Dog")
  }

  @Test func everyChoiceIsAccepted() throws {
    for format in SchemaCommand.Format.allCases {
      #expect(
        try invocation(["schema", "a", "--format", format.rawValue]).string("format")
          == format.rawValue)
    }
    for format in DumpCommand.Format.allCases {
      #expect(
        try invocation(["dump", "a", "--format", format.rawValue]).string("format")
          == format.rawValue)
    }
  }

  @Test func errorCodes() {
    expectEqual(error(["open"])?.code, .missingArgument)
    expectEqual(error(["open", "a", "b"])?.code, .unexpectedArgument)
    expectEqual(error(["open", "a", "--jsn"])?.code, .unknownOption)
    expectEqual(error(["open", "a", "--json=1"])?.code, .unexpectedValue)
    expectEqual(error(["schema", "a", "--format"])?.code, .missingValue)
    expectEqual(error(["schema", "a", "--format", "xml"])?.code, .invalidValue)
    expectEqual(error(["schema", "a", "--class", "A", "--class", "B"])?.code, .duplicateOption)
    expectEqual(error(["open", "---a"])?.code, .invalidOption)
    expectEqual(error(["nope"])?.code, .unexpectedArgument)
  }

  @Test func repeatedFlagsAndRepeatedEqualValuesAreAllowed() throws {
    #expect(try invocation(["open", "a", "--json", "--json"]).flag("json"))
    #expect(
      try invocation(["schema", "a", "--format=json", "--format", "json"]).string("format")
        == "json")
  }

  @Test func anOptionDoesNotSwallowTheNextOption() {
    let failure = error(["schema", "a", "--class", "--format", "json"])
    expectEqual(failure?.code, .missingValue)
    expectEqual(failure?.message, "Missing value for '--class <name>'")
  }

  @Test func suggestsTheClosestLongOption() {
    #expect(
      error(["dump", "a", "--limt", "3"])?.message
        == "Unknown option '--limt'. Did you mean '--limit'?")
    expectEqual(error(["dump", "a", "--hlpx"])?.message, "Unknown option '--hlpx'")
    #expect(
      error(["dump", "a", "--completely-different"])?.message
        == "Unknown option '--completely-different'")
  }

  @Test func editDistance() {
    expectEqual(Suggestion.distance(Array("--plna"), Array("--plan"), swaps: false), 2)
    expectEqual(Suggestion.distance(Array(""), Array("abc"), swaps: false), 3)
    expectEqual(Suggestion.distance(Array("kitten"), Array("sitting"), swaps: false), 3)
    expectEqual(Suggestion.distance(Array("same"), Array("same"), swaps: false), 0)
    expectEqual(Suggestion.closest(to: "--jsn", among: ["--check", "--json"], rule: .option), "--json")
  }
}
