import RealmTestSupport
import Testing

@testable import RealmCLI

/// Usage errors of realmctl's own commands, byte for byte. Every expected text below was
/// printed by swift-argument-parser 1.8.2 for a reference tool declared with the same
/// arguments (see docs/CLI.md, "Compatibility with swift-argument-parser").
@Suite struct UsageErrorOutputTests {
  private func stderr(_ words: [String]) -> (String, Int32) {
    let out = TextOutput.memory()
    let err = TextOutput.memory()
    let status = RealmCtl.run(arguments: words, standardOutput: out, standardError: err)
    #expect(out.text.isEmpty)
    return (err.text, status)
  }

  static let schemaUsage = """
    Usage: realmctl schema <file> [--format <format>] [--class <name>] [--key-file <path>] [--key <hex>]
      See 'realmctl schema --help' for more information.

    """
  /// `schema --format xml`: the message before the usage.
  static let invalidSchemaFormat = """
    Error: The value 'xml' is invalid for '--format <format>'. Please provide one of the following:
      - text
      - json
      - swift
      - kotlin
      - java
      - javascript
      - typescript
      - dart
      - csharp
    Help:  --format <format>  The output format.

    """
  static let dumpUsage = """
    Usage: realmctl dump [<options>] <file>
      See 'realmctl dump --help' for more information.

    """
  static let migrateUsage = """
    Usage: realmctl migrate --plan <plan> <file> ... [--dry-run] [--backup <path>] [--reset-if-needed] [--json] [--file-format <n>] [--quiet] [--key-file <path>] [--key <hex>]
      See 'realmctl migrate --help' for more information.

    """
  static let rootUsage = """
    Usage: realmctl <subcommand>
      See 'realmctl --help' for more information.

    """

  static let cases: [([String], String)] = [
    (
      ["schema", "--format", "xml", "a"],
      invalidSchemaFormat + schemaUsage
    ),
    (
      ["schema", "a", "--format=xml"],
      invalidSchemaFormat + schemaUsage
    ),
    (
      ["schema", "--format"],
      "Error: Missing value for '--format <format>'\nHelp:  --format <format>  The output format.\n"
        + schemaUsage
    ),
    (
      ["schema", "a", "--format="],
      "Error: Missing value for '--format <format>'\nHelp:  --format <format>  The output format.\n"
        + schemaUsage
    ),
    (
      ["schema"],
      "Error: Missing expected argument '<file>'\nHelp:  <file>  The Realm file to read.\n"
        + schemaUsage
    ),
    (["schema", "a", "b", "c"], "Error: 2 unexpected arguments: 'b', 'c'\n" + schemaUsage),
    (["schema", "a", "b"], "Error: Unexpected argument 'b'\n" + schemaUsage),
    (["schema", "a", "--", "b"], "Error: Unexpected argument 'b'\n" + schemaUsage),
    (
      ["schema", "--forma", "text", "a"],
      "Error: Unknown option '--forma'. Did you mean '--format'?\n" + schemaUsage
    ),
    (["schema", "-x", "a"], "Error: Unknown option '-x'\n" + schemaUsage),
    (
      ["open", "a", "--json=yes"],
      """
      Error: The option '--json' does not take any value, but 'yes' was specified.
      Usage: realmctl open <file> [--json] [--check] [--key-file <path>] [--key <hex>]
        See 'realmctl open --help' for more information.

      """
    ),
    (
      ["open", "a", "-json"],
      """
      Error: Unknown option '-json'. Did you mean '--json'?
      Usage: realmctl open <file> [--json] [--check] [--key-file <path>] [--key <hex>]
        See 'realmctl open --help' for more information.

      """
    ),
    (["bogus"], "Error: Unknown subcommand 'bogus'; 'realmctl help' lists the subcommands\n" + rootUsage),
    (["bogus", "more"], "Error: Unknown subcommand 'bogus'; 'realmctl help' lists the subcommands\n" + rootUsage),
    (["dumpp", "a.realm"], "Error: Unknown subcommand 'dumpp'. Did you mean 'dump'?\n" + rootUsage),
    (["Schema", "a.realm"], "Error: Unknown subcommand 'Schema'. Did you mean 'schema'?\n" + rootUsage),
    (["--bogus"], "Error: Unknown option '--bogus'\n" + rootUsage),
    (["--", "schema"], "Error: Unexpected argument 'schema'\n" + rootUsage),
    (["schema", "---x"], "Error: Invalid option: ---x\n" + rootUsage),
    (
      ["dump", "a", "--limit", "abc"],
      "Error: The value 'abc' is invalid for '--limit <n>'\n"
        + "Help:  --limit <n>  Print at most <n> objects of each class.\n" + dumpUsage
    ),
    (
      ["dump", "a", "--limit", "-5"],
      "Error: Missing value for '--limit <n>'\n"
        + "Help:  --limit <n>  Print at most <n> objects of each class.\n" + dumpUsage
    ),
    (
      ["migrate", "a"],
      "Error: Missing expected argument '--plan <plan>'\n"
        + "Help:  --plan <plan>  The migration plan (a JSON file).\n" + migrateUsage
    ),
    (
      ["migrate", "--plan", "p"],
      "Error: Missing expected argument '<file> ...'\n"
        + "Help:  <file>  The Realm files to migrate.\n" + migrateUsage
    ),
    (
      ["rename-property", "a", "b", "c"],
      """
      Error: Missing expected argument '<new>'
      Help:  <new>  The new name of the property.
      Usage: realmctl rename-property <file> <class> <old> <new> [--schema-version <n>] [--file-format <n>] [--key-file <path>] [--key <hex>]
        See 'realmctl rename-property --help' for more information.

      """
    ),
    (
      ["help", "--bogus"],
      "Error: Unknown option '--bogus'\nUsage: realmctl help [<subcommands> ...]\n"
    ),
  ]

  @Test("usage errors match swift-argument-parser byte for byte", arguments: cases)
  func matchesArgumentParser(words: [String], expected: String) {
    let (text, status) = stderr(words)
    expectEqual(text, expected)
    expectEqual(status, 64)
  }

  // MARK: - Where realmctl deliberately differs from swift-argument-parser

  @Test func rejectsNegativeCountsGivenWithEquals() {
    let (text, status) = stderr(["dump", "a", "--limit=-5"])
    expectEqual(status, 64)
    #expect(
      text
        == "Error: The value '-5' is invalid for '--limit <n>': must be 0 or more\n"
        + "Help:  --limit <n>  Print at most <n> objects of each class.\n" + Self.dumpUsage)
  }

  @Test func rejectsASingleValuedOptionGivenTwice() {
    let (text, status) = stderr(["dump", "a", "--offset", "3", "--offset=4"])
    expectEqual(status, 64)
    #expect(
      text
        == "Error: The option '--offset <n>' was given twice ('3' and '4'); give it once\n"
        + Self.dumpUsage)
  }

  @Test func reportsAnUnknownOptionBeforeAMissingArgument() {
    // SAP would say "Missing expected argument '--plan <plan>'" and hide the typo.
    let (text, _) = stderr(["migrate", "--plna", "p.json", "a.realm"])
    expectEqual(text, "Error: Unknown option '--plna'. Did you mean '--plan'?\n" + Self.migrateUsage)
  }

  @Test func colorsTheErrorPrefixOnlyWhenAsked() {
    let renderer = HelpRenderer(root: CommandRegistry.root)
    let error = UsageError.unexpectedArguments(["x"], command: nil)
    #expect(
      renderer.errorText(error, usesColor: true).hasPrefix("\u{1B}[1;31mError:\u{1B}[0m Unexpected")
    )
    #expect(renderer.errorText(error, usesColor: false).hasPrefix("Error: Unexpected"))
  }
}
