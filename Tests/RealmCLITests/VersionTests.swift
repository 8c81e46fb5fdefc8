import Foundation
import RealmJSON
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

/// `--version`, `--version --verbose` and `realmctl version [--json]`: one version, defined once
/// and read by the Makefile and the man page; the build stamp `make` writes; and the file
/// formats the report lists are the ones the reader accepts and the writers write.
@Suite struct VersionTests {
  static let tutorial = Snapshot.packageRoot.appendingPathComponent("Examples/seed/tutorial.realm").path
  static let report = VersionReport.current()

  static func tool(_ name: String) -> String? { CompletionTests.tool(name) }

  @Test func theVersionLineNamesTheBuildOrSaysItIsUnknown() {
    let output = CommandTestSupport.run(["--version"])
    expectEqual(output.status, 0)
    expectEqual(output.stderr, "")
    if let stamp = BuildInfo.stamp {
      expectEqual(output.stdout, "\(ReleaseVersion.number) (commit \(stamp.commit), built \(stamp.date))\n")
    } else {
      expectEqual(output.stdout, "\(ReleaseVersion.number) (commit unknown: not built by make from a git checkout)\n")
    }
  }

  @Test func theVersionIsSemanticVersioning() {
    let parts = ReleaseVersion.number.split(separator: ".", omittingEmptySubsequences: false)
    expectEqual(parts.count, 3)
    #expect(parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) && ($0 == "0" || !$0.hasPrefix("0")) })
  }

  @Test func verboseVersionAndTheVersionCommandPrintTheSameReport() {
    let verbose = CommandTestSupport.run(["--version", "--verbose"])
    let command = CommandTestSupport.run(["version"])
    let onACommand = CommandTestSupport.run(["dump", "x.realm", "--verbose", "--version"])
    #expect(verbose.status == 0 && command.status == 0 && onACommand.status == 0)
    expectEqual(verbose.stdout, command.stdout)
    expectEqual(onACommand.stdout, command.stdout)
    let lines = command.stdout.split(separator: "\n").map(String.init)
    expectEqual(lines.first, "realmctl \(ReleaseVersion.number)")
    let labels: [String] = lines.dropFirst().map { (line: String) -> String in String(line.prefix { $0 != ":" }) }
    expectEqual(labels, ["build", "swift", "platform", "file formats"])
    #expect(lines.contains("file formats:  reads 2-11, 20-24; writes 20, 22, 23, 24 (new files: 24)"))
    expectEqual(VersionReport.ranges([2, 3, 4, 7, 9, 10, 11]), "2-4, 7, 9-11")
  }

  @Test func theJSONReport() throws {
    let output = CommandTestSupport.run(["version", "--json"])
    expectEqual(output.status, 0)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    #expect(json["version"] as? String == ReleaseVersion.number)
    if let stamp = BuildInfo.stamp {
      #expect(json["commit"] as? String == stamp.commit)
      #expect(json["buildDate"] as? String == stamp.date)
    } else {
      #expect(json["commit"] is NSNull)
      #expect(json["buildDate"] is NSNull)
    }
    let platform = try #require(json["platform"] as? [String: Any])
    #if os(Linux)
      #expect(platform["system"] as? String == "Linux")
    #elseif os(macOS)
      #expect(platform["system"] as? String == "macOS")
    #endif
    if let uname = Self.tool("uname") {
      let machine = try CompletionTests.run(uname, ["-m"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(platform["machine"] as? String == machine)
      let kernel = try CompletionTests.run(uname, ["-sr"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(platform["kernel"] as? String == kernel)
    }
    let formats = try #require(json["fileFormats"] as? [String: Any])
    #expect(formats["read"] as? [Int] == Array(2...11) + Array(20...24))
    #expect(formats["written"] as? [Int] == [20, 22, 23, 24])
    #expect(formats["default"] as? Int == 24)
  }

  /// The formats the report says are read are exactly those the reader does not refuse: the
  /// tutorial file with its format bytes set to each of 0 to 40.
  @Test func theReportedReadFormatsAreWhatTheReaderAccepts() throws {
    let original = try TestFiles.bytes(Self.tutorial)
    try CommandTestSupport.inScratchDirectory { dir in
      for format in 2...40 {
        var bytes = original
        bytes[20] = UInt8(format)
        bytes[21] = UInt8(format)
        let path = dir.appendingPathComponent("f\(format).realm").path
        try TestFiles.write(bytes, to: path)
        let output = CommandTestSupport.run(["open", path])
        let refused = output.stderr.contains("file format \(format) is not supported")
        expectEqual(refused, !Self.report.formatsRead.contains(format), "format \(format): \(output.stderr)")
        if refused {
          expectEqual(output.status, 65)
          #expect(output.stderr.contains("(realmctl reads formats 2 to 11 and 20 to 24"))
        }
      }
    }
  }

  /// The formats the report says are written are those `convert` writes (and `open` then
  /// shows); the others are refused as usage errors.
  @Test func theReportedWrittenFormatsAreWhatConvertWrites() throws {
    try CommandTestSupport.inScratchDirectory { dir in
      for format in 19...25 {
        let path = dir.appendingPathComponent("c\(format).realm").path
        try TestFiles.write(try TestFiles.bytes(Self.tutorial), to: path)
        let converted = CommandTestSupport.run(["convert", path, "--file-format", String(format)])
        if Self.report.formatsWritten.contains(format) {
          expectEqual(converted.status, 0, "format \(format): \(converted.stderr)")
          let opened = CommandTestSupport.run(["open", path])
          #expect(opened.stdout.contains("File format:     \(format) "), "format \(format)")
        } else {
          expectEqual(converted.status, 64, "format \(format): \(converted.stderr)")
        }
      }
    }
  }

  /// The Makefile, the man page and the archives' names read the one definition.
  @Test(.enabled(if: tool("make") != nil, "make is not installed"))
  func theMakefileReadsTheVersion() throws {
    let make = try #require(Self.tool("make"))
    let result = try CompletionTests.run(make, ["-s", "-C", Snapshot.packageRoot.path, "version"])
    expectEqual(result.status, 0)
    expectEqual(result.stdout, ReleaseVersion.number + "\n")
  }

  @Test func theManPageCarriesTheVersion() {
    let page = ManualPage.render(root: CommandRegistry.root, date: "2026-01-31")
    #expect(page.contains(".TH REALMCTL 1 2026-01-31 \"realmctl \(ReleaseVersion.number)\""))
  }

  /// scripts/build-stamp.sh in a scratch git repository: the commit, `-dirty` after a change,
  /// SOURCE_DATE_EPOCH's day, and no stamp outside a git checkout.
  @Test(.enabled(if: tool("git") != nil && tool("bash") != nil, "git or bash is not installed"))
  func theBuildStampNamesTheCommit() throws {
    let git = try #require(Self.tool("git"))
    let bash = try #require(Self.tool("bash"))
    try CommandTestSupport.inScratchDirectory { dir in
      let scripts = dir.appendingPathComponent("scripts")
      let version = dir.appendingPathComponent("Sources/RealmCLI/Version")
      try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: Snapshot.packageRoot.appendingPathComponent("scripts/build-stamp.sh"),
        to: scripts.appendingPathComponent("build-stamp.sh"))
      try "tracked\n".write(to: dir.appendingPathComponent("file.txt"), atomically: true, encoding: .utf8)
      let stamp = version.appendingPathComponent("BuildStamp.generated.swift")
      let env = ["SOURCE_DATE_EPOCH": "951782400", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"]

      // Outside a git checkout: no stamp.
      try "stale".write(to: stamp, atomically: true, encoding: .utf8)
      try expectEqual(CompletionTests.run(bash, ["scripts/build-stamp.sh"], in: dir, environment: env).status, 0)
      #expect(!FileManager.default.fileExists(atPath: stamp.path))

      for step in [["init", "-q"], ["add", "file.txt", "scripts"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]] {
        try expectEqual(CompletionTests.run(git, step, in: dir, environment: env).status, 0)
      }
      let head = try CompletionTests.run(git, ["rev-parse", "--short=12", "HEAD"], in: dir, environment: env).stdout
        .trimmingCharacters(in: .whitespacesAndNewlines)
      try expectEqual(CompletionTests.run(bash, ["scripts/build-stamp.sh"], in: dir, environment: env).status, 0)
      var text = try String(contentsOf: stamp, encoding: .utf8)
      #expect(text.contains("extension BuildInfo: BuildStamped {"))
      #expect(text.contains("static let commit = \"\(head)\"\n"))
      #expect(text.contains("static let date = \"2000-02-29\"\n"))

      try "changed\n".write(to: dir.appendingPathComponent("file.txt"), atomically: true, encoding: .utf8)
      try expectEqual(CompletionTests.run(bash, ["scripts/build-stamp.sh"], in: dir, environment: env).status, 0)
      text = try String(contentsOf: stamp, encoding: .utf8)
      #expect(text.contains("static let commit = \"\(head)-dirty\"\n"))
    }
  }
}
