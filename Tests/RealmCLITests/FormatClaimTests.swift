import Foundation
import RealmModel
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmCLI

/// Every text a user reads about file formats and SDK releases agrees with the tables
/// (`WritableFileFormat`, `FileFormatDescription`, `SDKReleases`): the README, docs/, the DocC
/// catalogs, the help of every command and the man page. `FormatClaims` says what is checked.
@Suite struct FormatClaimTests {
  /// The Markdown documents: README.md, docs/ and the DocC catalogs.
  static var documents: [(name: String, text: String)] {
    let root = Snapshot.packageRoot
    var paths = ["README.md"]
    let fm = FileManager.default
    for dir in ["docs", "Sources"] {
      guard let walker = fm.enumerator(atPath: root.appendingPathComponent(dir).path) else { continue }
      for case let path as String in walker where path.hasSuffix(".md") {
        if dir == "Sources" && !path.contains(".docc/") { continue }
        paths.append("\(dir)/\(path)")
      }
    }
    return paths.sorted().compactMap { path in
      (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)).map { (path, $0) }
    }
  }

  /// The help of the tool and of every command, as `--help` prints it at 80 columns.
  static var helpTexts: [(name: String, text: String)] {
    [("realmctl --help", DocsSyncTests.helpBlock(nil))]
      + CommandRegistry.all.map { ("realmctl \($0.spec.name) --help", DocsSyncTests.helpBlock($0.spec.name)) }
  }

  /// The man page, with the roff escapes that matter for words undone.
  static var manualPage: String {
    ManualPage.render(root: CommandRegistry.root, date: "2026-01-01")
      .replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\(aq", with: "'")
      .replacingOccurrences(of: "\\fB", with: "").replacingOccurrences(of: "\\fI", with: "")
      .replacingOccurrences(of: "\\fR", with: "").replacingOccurrences(of: "\\e", with: "\\")
  }

  @Test func docsAgreeWithTheTables() {
    let texts = Self.documents
    #expect(texts.count > 30 && texts.contains { $0.name.hasSuffix("RealmFormat.docc/RealmFormat.md") })
    for (name, text) in texts {
      for problem in FormatClaims.problems(in: text, name: name) { Issue.record(Comment(rawValue: problem)) }
    }
  }

  @Test func helpAndManualPageAgreeWithTheTables() {
    for (name, text) in Self.helpTexts + [("realmctl.1", Self.manualPage)] {
      for problem in FormatClaims.problems(in: text, name: name) { Issue.record(Comment(rawValue: problem)) }
    }
  }

  /// `--help`, the man page, the README and the DocC overviews say which formats are written
  /// as `WritableFileFormat` has them: all of them, and what becomes of the others.
  @Test func helpNamesEveryWrittenFormatAndTheRewrites() {
    let root = DocsSyncTests.helpBlock(nil).replacingOccurrences(of: "\n", with: " ")
    let writable = WritableFileFormat.allCases.map(\.description)
    #expect(root.contains("(\(writable.dropLast().joined(separator: ", ")) or \(writable.last!))"), "\(root)")
    #expect(root.contains("a file of format 21 is written as 22, one of formats 2 to 11 as 24"), "\(root)")
    #expect(!root.contains("Every file realmctl writes"))
    for name in ["compact", "migrate", "unsync", "rename-property", "encrypt", "decrypt"] {
      let help = DocsSyncTests.helpBlock(name).replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
      #expect(help.contains("own format (20, 22, 23 or 24); a file of format 21 is written as 22, one of formats 2 to 11 as 24"), "\(name)")
    }
  }

  /// `convert --help` lists the releases of each writable format from the table (which settles
  /// the SDK ranges it names).
  @Test func convertHelpNamesTheReleasesOfEachFormatFromTheTable() {
    let help = DocsSyncTests.helpBlock("convert").replacingOccurrences(of: "\n", with: " ")
    for format in WritableFileFormat.allCases {
      let releases = SDKReleases.text(SDKReleases.joined(SDKReleases.openingAsIs(format: format.rawValue)))
      #expect(help.contains("Format \(format) (\(format.realmCore)): \(releases)."), "format \(format)")
    }
    #expect(help.contains("Realm Swift 10.49.0-10.54.6 and 20.0.0-20.0.6"))
  }

  /// The check fails on the stale statements issue 29 found, and passes their fixes.
  @Test func theCheckFindsStaleStatements() {
    let stale = [
      "Every file realmctl writes is format 24, the one current SDKs open.",
      "| `RealmFormat` | Realm's file format, no I/O, and the encoders that write format 24 |",
      "The file keeps its format (20, 22, 23 or 24), or takes the one --file-format names; a file of a format realmctl does not write (2 to 11) is written as format 24.",
      "Default: the file's own format (24 for formats 2 to 11).",
      "A file of formats 20 to 23 is written as format 24 when it is compacted.",
      "format 23 in Core 13 and later (Realm Java, Realm JS 11-12.5, Realm Swift before 10.50)",
      "It writes formats 20, 21, 22 and 24.",
      "```\nOpens as is in:  Realm Swift 10.49.0-10.54.6, Realm Kotlin 1.15.0-2.3.0, Realm JS 12.7.0-12.15.0, Realm .NET 12.0.0-12.5.0, Realm Dart 2.0.0-3.4.2\n```",
      "```\nFile format:     24 (Realm Core 14, 2024 on: the current SDKs)\n```",
    ]
    for text in stale {
      #expect(!FormatClaims.problems(in: text, name: "t").isEmpty, "\(text)")
    }
    let sound = [
      "The file keeps its format (20, 22, 23 or 24); a file of format 21 is written as 22, one of formats 2 to 11 as 24.",
      "A file of a format realmctl does not write (2 to 11, 21) gets the nearest one it does.",
      "`upgrade` writes formats 2 to 23 as format 24.",
      "format 23 (Realm Java 10.14-10.19, Realm JS 11.3-12.6, Realm Swift before 10.49)",
      "Realm Swift 3-4, Realm Swift 2.5-2.10, Realm JS 10.0.0-10.3.0 and 10.4.1-10.4.2",
      "`create` writes format 24 unless --file-format names 20, 22 or 23.",
      "```\nFile format:     24 (\(FileFormatDescription(24).writtenBy))\n```",
    ]
    for text in sound {
      #expect(FormatClaims.problems(in: text, name: "t").isEmpty, "\(FormatClaims.problems(in: text, name: "t"))")
    }
  }

  /// The table of docs/file-formats.md ("Which SDK opens which format") is `SDKReleases.ranges`
  /// row by row: SDK, releases and their number, Realm Core, format and Device Sync.
  @Test func fileFormatsDocTableIsTheSDKTable() throws {
    let text = try String(contentsOf: Snapshot.packageRoot.appendingPathComponent("docs/file-formats.md"), encoding: .utf8)
    let rows = text.split(separator: "\n").filter { $0.hasPrefix("| Realm ") }.map { row in
      row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "**", with: "") }
    }
    try #require(rows.count == SDKReleases.ranges.count, "\(rows.count) rows for \(SDKReleases.ranges.count) ranges")
    for (row, range) in zip(rows, SDKReleases.ranges) {
      #expect(row[0].hasPrefix(range.sdk.name), "\(row) for \(range.text)")
      let versions = range.first == range.last ? range.first : "\(range.first) to \(range.last)"
      expectEqual(row[1], "\(versions) (\(range.releases))", "\(row) for \(range.text)")
      let (from, to) = (String(range.firstDate.prefix(7)), String(range.lastDate.prefix(7)))
      expectEqual(row[2], (from == to ? from : "\(from) to \(to)"), "\(row)")
      if let core = range.realmCore { #expect(row[3].contains(core), "\(row) for Realm Core \(core)") }
      expectEqual(row[4], String(range.fileFormat), "\(row) for format \(range.fileFormat)")
      expectEqual(row[5], (range.deviceSync ? "yes" : "no"), "\(row): Device Sync")
    }
  }
}
