import RealmExport
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
      #expect(parsed.command.name == "schema")
      #expect(parsed.string("file") == "a.realm")
      #expect(parsed.string("format") == "json")
      #expect(parsed.string("class") == "Person")
    }
  }

  @Test func appliesDefaultsOnlyWhenAbsent() throws {
    let parsed = try invocation(["schema", "a.realm"])
    #expect(parsed.string("format") == "text")
    #expect(!parsed.isGiven("format"))
    #expect(parsed.string("class") == nil)
    let options = SchemaCommand().options(parsed)
    #expect(options == .init(file: "a.realm", format: .text, className: nil))
  }

  @Test func valuesAfterDoubleDashArePositional() throws {
    let parsed = try invocation(["open", "--json", "--", "--check"])
    #expect(parsed.string("file") == "--check")
    #expect(parsed.flag("json"))
    #expect(!parsed.flag("check"))
  }

  @Test func keepsAnEqualsSignInsideAValue() throws {
    let parsed = try invocation(["dump", "a.realm", "--where=name == 'a=b'"])
    #expect(parsed.string("where") == "name == 'a=b'")
  }

  @Test func readsIntegers() throws {
    let parsed = try invocation(["dump", "a.realm", "--limit", "10", "--offset=0"])
    #expect(parsed.integer("limit") == 10)
    #expect(parsed.integer("offset") == 0)
    #expect(try invocation(["dump", "a.realm"]).integer("offset") == 0)
  }

  @Test(arguments: ["abc", "1.5", "", "99999999999999999999", "0x10"])
  func rejectsNonIntegers(value: String) {
    let words = value.isEmpty ? ["dump", "a", "--limit", ""] : ["dump", "a", "--limit=\(value)"]
    #expect(error(words)?.code == .invalidValue)
  }

  @Test func rejectsNegativeSchemaVersions() {
    #expect(
      error(["rename-property", "a", "B", "c", "d", "--schema-version=-1"])?.code == .invalidValue)
    #expect(error(["create", "o", "--schema", "s", "--schema-version=-1"])?.code == .invalidValue)
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
    #expect(error(["create", "out.realm"])?.code == .missingArgument)
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
    #expect(options.format == .csv)
    #expect(options.className == "Dog")
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
    #expect(error(["open"])?.code == .missingArgument)
    #expect(error(["open", "a", "b"])?.code == .unexpectedArgument)
    #expect(error(["open", "a", "--jsn"])?.code == .unknownOption)
    #expect(error(["open", "a", "--json=1"])?.code == .unexpectedValue)
    #expect(error(["schema", "a", "--format"])?.code == .missingValue)
    #expect(error(["schema", "a", "--format", "xml"])?.code == .invalidValue)
    #expect(error(["schema", "a", "--class", "A", "--class", "B"])?.code == .duplicateOption)
    #expect(error(["open", "---a"])?.code == .invalidOption)
    #expect(error(["nope"])?.code == .unexpectedArgument)
  }

  @Test func repeatedFlagsAndRepeatedEqualValuesAreAllowed() throws {
    #expect(try invocation(["open", "a", "--json", "--json"]).flag("json"))
    #expect(
      try invocation(["schema", "a", "--format=json", "--format", "json"]).string("format")
        == "json")
  }

  @Test func anOptionDoesNotSwallowTheNextOption() {
    let failure = error(["schema", "a", "--class", "--format", "json"])
    #expect(failure?.code == .missingValue)
    #expect(failure?.message == "Missing value for '--class <name>'")
  }

  @Test func suggestsTheClosestLongOption() {
    #expect(
      error(["dump", "a", "--limt", "3"])?.message
        == "Unknown option '--limt'. Did you mean '--limit'?")
    #expect(error(["dump", "a", "--hlpx"])?.message == "Unknown option '--hlpx'")
    #expect(
      error(["dump", "a", "--completely-different"])?.message
        == "Unknown option '--completely-different'")
  }

  @Test func editDistance() {
    #expect(Suggestion.distance(Array("--plna"), Array("--plan"), swaps: false) == 2)
    #expect(Suggestion.distance(Array(""), Array("abc"), swaps: false) == 3)
    #expect(Suggestion.distance(Array("kitten"), Array("sitting"), swaps: false) == 3)
    #expect(Suggestion.distance(Array("same"), Array("same"), swaps: false) == 0)
    #expect(Suggestion.closest(to: "--jsn", among: ["--check", "--json"], rule: .option) == "--json")
  }
}
