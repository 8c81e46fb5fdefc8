import Foundation
import RealmTestSupport
import Testing

@testable import RealmCLI

/// `realmctl completion` and the man page: every command and option of the declarations
/// appears (so a command added later is checked without touching this file), bash's
/// completion really runs, zsh and fish load the scripts, and man renders the page.
@Suite struct CompletionTests {
  static let root = CommandRegistry.root
  static let commands = root.visibleSubcommands

  /// The shell at `name` on the PATH, if any.
  static func tool(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// Runs `executable` with `arguments` in `directory` (also its `HOME`), with `environment`
  /// added; returns stdout, stderr and the status.
  static func run(
    _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
  ) throws -> (stdout: String, stderr: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var env = ProcessInfo.processInfo.environment
    env["HOME"] = directory?.path ?? NSTemporaryDirectory()
    process.environment = env.merging(environment) { $1 }
    let out = Pipe()
    let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errURL) }
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try err.close()
    return (String(decoding: data, as: UTF8.self), try String(contentsOf: errURL, encoding: .utf8), process.terminationStatus)
  }

  static func write(_ text: String, named name: String, in directory: URL) throws -> String {
    let path = directory.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  // MARK: - Every declaration appears

  @Test("every command and option appears in the script", arguments: CompletionCommand.Shell.allCases)
  func everyDeclarationAppears(shell: CompletionCommand.Shell) {
    let script = CompletionCommand.script(for: shell)
    for command in Self.commands {
      #expect(script.contains(command.name), "\(shell): command \(command.name)")
      for argument in command.arguments where !argument.isPositional {
        if let long = argument.longName {
          let form = shell == .fish ? "-l \(long)" : "--\(long)"
          #expect(script.contains(form), "\(shell): \(command.name) --\(long)")
        }
        if let short = argument.shortName {
          let form = shell == .fish ? "-s \(short)" : "-\(short)"
          #expect(script.contains(form), "\(shell): \(command.name) -\(short)")
        }
        if case .values(let values) = argument.completion {
          for value in values { #expect(script.contains(value), "\(shell): \(command.name) value \(value)") }
        }
      }
    }
    for hidden in Self.root.subcommands where hidden.isHidden {
      #expect(!script.contains(hidden.name), "\(shell) lists the hidden \(hidden.name)")
    }
  }

  @Test func everyDeclarationAppearsInTheManPage() {
    let page = ManualPage.render(root: Self.root, date: "2026-01-31")
    for command in Self.commands {
      #expect(page.contains(".SS \"realmctl \(ManualPage.escape(command.name))\""), "\(command.name)")
      for argument in command.arguments {
        let name = argument.longName.map { "\\fB\\-\\-\(ManualPage.escape($0))\\fR" } ?? "\\fI\(ManualPage.escape(argument.valueName))\\fR"
        #expect(page.contains(".TP\n" + name) || page.contains(", " + name), "\(command.name) \(argument.key)")
      }
    }
    for code in ExitCode.allCases { #expect(page.contains(".B \(code.rawValue)\n")) }
  }

  // MARK: - bash runs it

  /// What bash's completion function puts in COMPREPLY for the words (the last one is being
  /// completed), sorted.
  static func bashComplete(_ words: [String], in directory: URL) throws -> [String] {
    let bash = try #require(tool("bash"))
    let script = try write(CompletionCommand.script(for: .bash), named: "realmctl.bash", in: directory)
    // bash splits `--opt=value` at the `=` (COMP_WORDBREAKS): so do the words given here.
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let program = """
      source '\(script)'
      COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
      _realmctl
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let result = try run(bash, ["--norc", "-c", program], in: directory)
    expectEqual(result.stderr, "", "bash: \(result.stderr)")
    expectEqual(result.status, 0)
    return result.stdout.split(separator: "\n").map(String.init).sorted()
  }

  @Test(.enabled(if: tool("bash") != nil, "bash is not installed"))
  func bashCompletesCommandsOptionsAndValues() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let names = Self.commands.map(\.name)
    try expectEqual(Self.bashComplete(["realmctl", ""], in: dir), (names + ["help", "--help", "-h", "--version"]).sorted())
    let first = try #require(names.first)
    try expectEqual(Self.bashComplete(["realmctl", String(first.prefix(2))], in: dir), names.filter { $0.hasPrefix(first.prefix(2)) }.sorted())
    for command in Self.commands {
      let options = command.arguments.compactMap { $0.longName.map { "--" + $0 } } + ["--help", "--version"]
      try expectEqual(Self.bashComplete(["realmctl", command.name, "--"], in: dir), options.sorted(), "\(command.name)")
      for argument in command.arguments where argument.kind == .option {
        guard case .values(let values) = argument.completion, let long = argument.longName else { continue }
        try expectEqual(Self.bashComplete(["realmctl", command.name, "x.realm", "--" + long, ""], in: dir), values.sorted())
        let first = try #require(values.first)
        let prefix = String(first.prefix(1))
        #expect(
          try Self.bashComplete(["realmctl", command.name, "--" + long, "=", prefix], in: dir)
            == values.filter { $0.hasPrefix(prefix) }.sorted())
      }
    }
    try expectEqual(Self.bashComplete(["realmctl", "help", "sch"], in: dir), names.filter { $0.hasPrefix("sch") })
  }

  @Test(.enabled(if: tool("bash") != nil, "bash is not installed"))
  func bashCompletesRealmFilesWhereARealmFileIsExpected() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for name in ["app.realm", "plan.json", "notes.txt"] { _ = try Self.write("", named: name, in: dir) }
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("more"), withIntermediateDirectories: true)
    // Every command whose first positional is a Realm file.
    for command in Self.commands where command.positionals.first?.completion == .realmFile {
      var words = ["realmctl", command.name]
      // Required options before the file, so the file is what is being completed.
      for option in command.arguments where option.kind == .option && option.isRequired {
        words += ["--" + (option.longName ?? ""), "plan.json"]
      }
      try expectEqual(Self.bashComplete(words + [""], in: dir), ["app.realm", "more"], "\(command.name)")
    }
    // An option taking a JSON file, and an option whose value is free text.
    try expectEqual(Self.bashComplete(["realmctl", "migrate", "--plan", ""], in: dir), ["more", "plan.json"])
    try expectEqual(Self.bashComplete(["realmctl", "dump", "app.realm", "--where", ""], in: dir), [])
  }

  // MARK: - zsh and fish load it

  @Test(.enabled(if: tool("zsh") != nil, "zsh is not installed"))
  func zshLoadsTheScriptAndCompletes() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = try Self.write(CompletionCommand.script(for: .zsh), named: "_realmctl", in: dir)
    let result = try Self.run(
      try #require(Self.tool("zsh")),
      ["-f", "-c", "autoload -U compinit; compinit -u -D; source '\(script)'; print -r -- ${_comps[realmctl]}"],
      in: dir)
    expectEqual(result.stderr, "")
    expectEqual(result.status, 0)
    expectEqual(result.stdout, "_realmctl\n")
  }

  @Test(.enabled(if: tool("fish") != nil, "fish is not installed"))
  func fishLoadsTheScriptAndCompletes() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = try Self.write(CompletionCommand.script(for: .fish), named: "realmctl.fish", in: dir)
    let fish = try #require(Self.tool("fish"))
    let commands = try Self.run(fish, ["--no-config", "-c", "source '\(script)'; complete -C'realmctl '"], in: dir)
    expectEqual(commands.stderr, "")
    let offered = Set(commands.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
    #expect(offered.isSuperset(of: Self.commands.map(\.name)))
    let dump = try #require(Self.commands.first { $0.name == "dump" })
    guard case .values(let formats) = dump.arguments.first(where: { $0.longName == "format" })?.completion else {
      Issue.record("dump has no --format choices")
      return
    }
    let values = try Self.run(fish, ["--no-config", "-c", "source '\(script)'; complete -C'realmctl dump --format '"], in: dir)
    expectEqual(Set(values.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }), Set(formats))
  }

  // MARK: - man renders the page

  @Test func manPageDates() {
    expectEqual(ManualPage.date(secondsSinceEpoch: 0), "1970-01-01")
    expectEqual(ManualPage.date(secondsSinceEpoch: 951_782_400), "2000-02-29")
    expectEqual(ManualPage.date(secondsSinceEpoch: 1_767_225_599), "2025-12-31")
  }

  @Test(.enabled(if: tool("mandoc") != nil || tool("groff") != nil, "neither mandoc nor groff is installed"))
  func theManPageRendersWithoutWarnings() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let page = try Self.write(ManualPage.render(root: Self.root, date: "2026-01-31"), named: "realmctl.1", in: dir)
    if let mandoc = Self.tool("mandoc") {
      let lint = try Self.run(mandoc, ["-T", "lint", "-W", "warning", page])
      expectEqual(lint.stdout + lint.stderr, "", "mandoc: \(lint.stdout)\(lint.stderr)")
    }
    if let groff = Self.tool("groff") {
      let rendered = try Self.run(groff, ["-man", "-Tutf8", "-ww", page])
      expectEqual(rendered.stderr, "", "groff: \(rendered.stderr)")
      #expect(rendered.stdout.contains("realmctl"))
      for command in Self.commands { #expect(rendered.stdout.contains("realmctl\u{8}") || rendered.stdout.contains(command.name)) }
    }
  }
}
