import Foundation
import Testing

@testable import RealmCLI

/// docs/CLI.md and docs/exit-codes.md carry generated sections between markers
/// (`<!-- generated:NAME -->` … `<!-- /generated:NAME -->`): the help of every command and the
/// exit-code table. These tests fail when a section differs from what the code renders;
/// `RECORD_SNAPSHOTS=1` rewrites the sections.
@Suite(.serialized) struct DocsSyncTests {
  static let cliDoc = Snapshot.packageRoot.appendingPathComponent("docs/CLI.md")
  static let exitCodesDoc = Snapshot.packageRoot.appendingPathComponent("docs/exit-codes.md")

  /// The help of `command` (`nil`: root) at 80 columns, as a fenced block.
  static func helpBlock(_ command: String?) -> String {
    let out = TextOutput.memory()
    _ = RealmCtl.run(
      arguments: command.map { [$0, "--help"] } ?? ["--help"], standardOutput: out,
      standardError: .memory())
    return "```text\n$ realmctl \(command.map { $0 + " " } ?? "")--help\n" + out.text + "```"
  }

  /// The exit-code table in Markdown.
  static var exitCodeTable: String {
    "| Code | Name | When |\n| --- | --- | --- |\n"
      + ExitCode.allCases.map { "| \($0.rawValue) | \($0.name) | \($0.meaning) |" }
      .joined(separator: "\n")
  }

  static var cliSections: [(String, String)] {
    [("help-realmctl", helpBlock(nil))]
      + CommandRegistry.all.map { ("help-\($0.spec.name)", helpBlock($0.spec.name)) }
      + [("exit-codes", exitCodeTable)]
  }

  @Test func cliDocShowsTheCurrentHelpOfEveryCommand() throws {
    try check(Self.cliDoc, sections: Self.cliSections)
  }

  @Test func exitCodeDocShowsTheCurrentTable() throws {
    try check(Self.exitCodesDoc, sections: [("exit-codes", Self.exitCodeTable)])
  }

  private func check(_ url: URL, sections: [(String, String)]) throws {
    var text = try String(contentsOf: url, encoding: .utf8)
    for (name, generated) in sections {
      let content = generated + "\n"
      let begin = "<!-- generated:\(name) -->\n"
      let end = "<!-- /generated:\(name) -->"
      guard let start = text.range(of: begin),
        let stop = text.range(of: end, range: start.upperBound..<text.endIndex)
      else {
        Issue.record("\(url.lastPathComponent) has no section '\(name)'")
        continue
      }
      let current = String(text[start.upperBound..<stop.lowerBound])
      if Snapshot.isRecording {
        text.replaceSubrange(start.upperBound..<stop.lowerBound, with: content)
      } else {
        #expect(
          current == content,
          "\(url.lastPathComponent) section '\(name)' is out of date; RECORD_SNAPSHOTS=1 rewrites it"
        )
      }
    }
    if Snapshot.isRecording { try text.write(to: url, atomically: true, encoding: .utf8) }
  }
}
