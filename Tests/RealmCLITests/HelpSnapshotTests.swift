import RealmTestSupport
import Testing

@testable import RealmCLI

/// The help of every command, compared with `Snapshots/help-<command>.txt` (80 columns).
///
/// The snapshots were checked byte for byte against swift-argument-parser 1.8.2's output for
/// a reference tool with the same declarations.
@Suite struct HelpSnapshotTests {
  static let commandNames = CommandRegistry.all.map(\.spec.name)

  private func run(_ words: [String]) -> (stdout: String, stderr: String, status: Int32) {
    let out = TextOutput.memory()
    let err = TextOutput.memory()
    let status = RealmCtl.run(arguments: words, standardOutput: out, standardError: err)
    return (out.text, err.text, status)
  }

  @Test func rootHelpMatchesSnapshot() throws {
    let output = run(["--help"])
    expectEqual(output.status, 0)
    #expect(output.stderr.isEmpty)
    try Snapshot.assertMatches(output.stdout, named: "help-realmctl.txt")
  }

  @Test("command help matches its snapshot", arguments: commandNames)
  func commandHelpMatchesSnapshot(name: String) throws {
    let output = run([name, "--help"])
    expectEqual(output.status, 0)
    #expect(output.stderr.isEmpty)
    try Snapshot.assertMatches(output.stdout, named: "help-\(name).txt")
  }

  @Test func helpCommandHelpMatchesSnapshot() throws {
    try Snapshot.assertMatches(run(["help", "help"]).stdout, named: "help-help.txt")
  }

  @Test("every way of asking prints the same help", arguments: commandNames)
  func everyWayOfAskingIsTheSame(name: String) {
    let reference = run([name, "--help"]).stdout
    expectEqual(run([name, "-h"]).stdout, reference)
    expectEqual(run(["help", name]).stdout, reference)
    expectEqual(run(["help", name, "--help"]).stdout, reference)
    expectEqual(run([name, "some.realm", "--help"]).stdout, reference)
    expectEqual(run([name, "--no-such-option", "-h"]).stdout, reference)
  }

  @Test func rootHelpIsPrintedForNoArgumentsHelpAndDoubleDash() {
    let reference = run(["--help"]).stdout
    #expect(reference.hasPrefix("OVERVIEW: Inspect, migrate and create Realm database files."))
    #expect(reference.hasSuffix("\n\n  See 'realmctl help <subcommand>' for detailed help.\n"))
    for words in [[], ["-h"], ["help"], ["--"], ["help", "no-such-command"]] {
      let output = run(words)
      expectEqual(output.stdout, reference, "\(words)")
      expectEqual(output.status, 0)
    }
  }

  @Test func rootHelpListsEveryCommandWithItsAbstract() {
    let help = run(["help"]).stdout
    for command in CommandRegistry.all {
      #expect(
        help.contains("\n  \(command.spec.name)") != command.spec.isHidden, "\(command.spec.name)")
    }
    #expect(!help.contains("\n  help "))
  }

  @Test func versionIsPrintedFromAnywhere() {
    for words in [["--version"], ["schema", "--version"], ["dump", "x.realm", "--version"]] {
      let output = run(words)
      expectEqual(output.stdout, VersionReport.current().line)
      #expect(output.stdout.hasPrefix(RealmCtl.version + " ("))
      expectEqual(output.status, 0)
    }
  }

  @Test func helpWrapsToTheTerminalWidth() {
    let out = TextOutput.memory()
    _ = RealmCtl.run(
      arguments: ["schema", "--help"], standardOutput: out, standardError: .memory(),
      terminal: Terminal(width: 50))
    // swift-argument-parser 1.8.2 with COLUMNS=50 prints exactly this section (checked when
    // the values were text, json and swift; the same greedy wrapping, with the values of now).
    // (The key options, added since, sit between --class and --version.)
    #expect(
      out.text.contains(
        """
        OPTIONS:
          --format <format>       The output format.
                                  (values: text, json,
                                  swift, kotlin, java,
                                  javascript, typescript,
                                  dart, csharp; default:
                                  text)
          --class <name>          Print only the class
                                  named <name>.

        """))
    #expect(
      out.text.hasSuffix(
        """
                                  REALMCTL_KEY.
          --version               Show the version.
          -h, --help              Show help information.


        """))
  }
}
