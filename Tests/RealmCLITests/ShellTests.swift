import Foundation
import LineEditor
import RealmTestSupport
import Testing

@testable import RealmCLI
import RealmStorage

/// `realmctl shell`: its commands in-process, from a pipe (the built binary, standard input
/// not a terminal) and through a real pseudo-terminal (line editing, history, queries, modes).
@Suite struct ShellTests {
  static let tutorial = Snapshot.packageRoot.appendingPathComponent("Examples/seed/tutorial.realm").path

  /// Runs `lines` through a session in-process, as the pipe mode does.
  static func script(_ lines: [String], bail: Bool = false, terminal: Terminal = .plain) throws
    -> (stdout: String, stderr: String, status: ExitCode)
  {
    let out = TextOutput.memory()
    let err = TextOutput.memory()
    let context = CommandContext(standardOutput: out, standardError: err, terminal: terminal, environment: [:])
    let file = try RealmInput.open(tutorial)
    let session = try ShellSession(path: tutorial, file: file, context: context, mode: .jsonl, limit: nil)
    var remaining = lines[...]
    var source = ShellCommand.LineSource { remaining.popFirst() }
    let status = try ShellCommand.runScript(session, lines: &source, bail: bail)
    return (out.text, err.text, status)
  }

  static func dump(_ words: [String]) -> String {
    CommandTestSupport.run(["dump", tutorial, "--format", "jsonl"] + words).stdout
  }

  @Test func queriesPrintWhatDumpWherePrints() throws {
    let result = try Self.script(["User WHERE age > 60 AND name BEGINSWITH[c] 'b'", "User where age < 10;"])
    let expected =
      Self.dump(["--class", "User", "--where", "age > 60 AND name BEGINSWITH[c] 'b'"])
      + Self.dump(["--class", "User", "--where", "age < 10"])
    #expect(!expected.isEmpty)
    expectEqual(result.stdout, expected)
    expectEqual(result.stderr, "")
    expectEqual(result.status, .success)
  }

  @Test func dotCommands() throws {
    let all = Self.dump(["--class", "User"]).split(separator: "\n")
    let old = Self.dump(["--class", "User", "--where", "age >= 50"]).split(separator: "\n")
    let result = try Self.script([
      ".classes", ".count User", ".count User WHERE age >= 50", ".mode csv", ".limit 2", ".show",
      "User", ".limit off", ".mode", ".limit", ".help", ".schema User",
    ])
    let schema = CommandTestSupport.run(["schema", Self.tutorial, "--class", "User"]).stdout
    let csv = CommandTestSupport.run(["dump", Self.tutorial, "--class", "User", "--format", "csv", "--limit", "2"]).stdout
    #expect(result.stdout.hasPrefix("User  \(all.count) objects\n\(all.count)\n\(old.count)\n"))
    #expect(result.stdout.contains("mode:  csv\nlimit: 2\n" + csv + "csv\noff\n"))
    #expect(result.stdout.contains(".count CLASS [WHERE QUERY]"))
    #expect(result.stdout.hasSuffix(schema))
    expectEqual(result.status, .success)
  }

  @Test func errorsArePrintedAndTheSessionGoesOn() throws {
    let result = try Self.script(["Usr", ".frobnicate", "User WHERE agee > 3", "User SORTED", ".count User WHERE age > 98"])
    let lines = result.stderr.split(separator: "\n")
    expectEqual(lines.count, 4)
    #expect(lines[0].hasPrefix("Error: line 1: class 'Usr' not found") && lines[0].hasSuffix("(did you mean 'User'?)"))
    expectEqual(lines[1], "Error: line 2: unknown command '.frobnicate'; .help lists the commands")
    #expect(lines[2].hasPrefix("Error: line 3: invalid query 'agee > 3': column 1:"))
    #expect(lines[3].hasPrefix("Error: line 4: expected WHERE after the class name 'User'"))
    let expected = Self.dump(["--class", "User", "--where", "age > 98"]).split(separator: "\n").count
    expectEqual(result.stdout, "\(expected)\n")
    // The first failure decides the status: an unknown class is bad data (65).
    expectEqual(result.status, .dataError)
  }

  @Test func bailStopsAtTheFirstErrorAndQuitEndsTheScript() throws {
    let bailed = try Self.script([".count User", ".nope", ".count User"], bail: true)
    expectEqual(bailed.stdout.split(separator: "\n").count, 1)
    expectEqual(bailed.status, .usage)
    let quit = try Self.script([".count User", ".quit", ".nope"])
    expectEqual(quit.stderr, "")
    expectEqual(quit.status, .success)
  }

  @Test func completionOffersCommandsClassesAndProperties() throws {
    let context = CommandContext(standardOutput: .memory(), standardError: .memory(), terminal: .plain, environment: [:])
    let session = try ShellSession(
      path: Self.tutorial, file: try RealmInput.open(Self.tutorial), context: context, mode: .jsonl, limit: nil)
    #expect(session.completion(line: ".sc", cursor: 3).candidates.contains(".schema"))
    #expect(session.completion(line: "U", cursor: 1).candidates.contains("User"))
    expectEqual(session.completion(line: ".count ", cursor: 7).candidates, ["User"])
    expectEqual(session.completion(line: ".mode t", cursor: 7).candidates, ["csv", "json", "jsonl", "sql", "table"])
    expectEqual(session.completion(line: "User ", cursor: 5).candidates, ["WHERE"])
    let inQuery = session.completion(line: "User WHERE na", cursor: 13)
    #expect(inQuery.start == 11 && inQuery.candidates.contains("name") && inQuery.candidates.contains("age"))
    #expect(session.completion(line: "UP", cursor: 2).candidates.contains("UPDATE"))
    expectEqual(session.completion(line: "DELETE FROM ", cursor: 12).candidates, ["User"])
    expectEqual(session.completion(line: "UPDATE ", cursor: 7).candidates, ["User"])
  }

  // MARK: - The built binary

  /// Runs the binary with `input` on standard input (a pipe).
  static func runPiped(_ arguments: [String], input: String) throws -> (stdout: String, stderr: String, status: Int32) {
    let process = Process()
    let executable = try #require(EndToEndTests.executable, "build realmctl first (swift build)")
    process.executableURL = executable
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    // Small outputs: reading one pipe after the other cannot block here.
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self), process.terminationStatus)
  }

  @Test func readsCommandsFromAPipe() throws {
    let result = try Self.runPiped(["shell", Self.tutorial], input: ".count User\nUser WHERE age > 95\n")
    let expected = Self.dump(["--class", "User", "--where", "age > 95"])
    expectEqual(result.stdout, "\(Self.dump(["--class", "User"]).split(separator: "\n").count)\n" + expected)
    expectEqual(result.stderr, "")
    expectEqual(result.status, 0)
    let failing = try Self.runPiped(["shell", Self.tutorial], input: ".count User\n.count Nobody\n")
    #expect(failing.stderr.hasPrefix("Error: line 2: class 'Nobody' not found"))
    expectEqual(failing.status, 65)
  }

  // MARK: - A real terminal

  @Test func aSessionAtATerminal() throws {
    let executable = try #require(EndToEndTests.executable, "build realmctl first (swift build)")
    let home = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    let historyFile = home.appendingPathComponent(".realmctl_history").path
    try "User WHERE age > 98\n".write(toFile: historyFile, atomically: true, encoding: .utf8)
    let pty = try PseudoTerminal(
      [executable.path, "shell", Self.tutorial],
      environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"], width: 100, height: 40)
    try pty.waitFor("the prompt") { $0.cursorLine == "realm>" }
    #expect(pty.screen.lines.joined().contains("shell on \(Self.tutorial): 1 class, file format 24"))

    // Typing and editing a line: a typo fixed in the middle, a word removed at the end.
    pty.type("Usr WHERE age > 97 junk")
    pty.type("\u{17}")  // Ctrl-W: kill the word before the cursor
    pty.type("\u{01}\u{1B}[C\u{1B}[C")  // Ctrl-A, Right, Right
    pty.type("e")
    try pty.waitFor("the edited line") { $0.cursorLine == "realm> User WHERE age > 97" }
    expectEqual(pty.screen.column, "realm> Use".count)
    pty.type("\r")
    // A query at a terminal prints a table.
    let older = Self.dump(["--class", "User", "--where", "age > 97"]).split(separator: "\n")
    try pty.waitFor("the table") { $0.text.contains("(\(older.count) object") && $0.cursorLine == "realm>" }
    #expect(pty.screen.text.contains("$key │ name"))

    // .mode changes the output; Up recalls the history, including the saved file's line.
    pty.type(".mode jsonl\r")
    try pty.waitFor("the second prompt") { $0.lines.filter { $0.hasPrefix("realm>") }.count == 3 }
    pty.type("\u{1B}[A\u{1B}[A")
    try pty.waitFor("the recalled line") { $0.cursorLine == "realm> User WHERE age > 97" }
    pty.type("\u{1B}[A")
    try pty.waitFor("the saved line") { $0.cursorLine == "realm> User WHERE age > 98" }
    pty.type("\r")
    let newest = Self.dump(["--class", "User", "--where", "age > 98"]).split(separator: "\n")
    // Typing waits for the next prompt: the editor puts the terminal in raw mode before it draws
    // the prompt, and a Ctrl-R typed while the terminal is still cooked (the query's output on
    // the screen, the prompt not yet) is the line discipline's "reprint", never the editor's.
    try pty.waitFor("the JSON lines and the next prompt") { screen in
      newest.allSatisfy { screen.text.contains($0) } && screen.cursorLine == "realm>"
    }

    // Ctrl-R finds an older line; an error is printed and the session goes on.
    pty.type("\u{12}mode")
    try pty.waitFor("the search") { $0.cursorLine.hasPrefix("(reverse-i-search)`mode': .mode jsonl") }
    pty.type("\u{07}.count Nobody\r")
    try pty.waitFor("the error") { $0.text.contains("Error: class 'Nobody' not found") && $0.cursorLine == "realm>" }

    pty.type(".quit\r")
    try expectEqual(pty.waitForExit(), 0)
    let saved = try String(contentsOfFile: historyFile, encoding: .utf8)
    #expect(
      saved == "User WHERE age > 98\nUser WHERE age > 97 \n.mode jsonl\nUser WHERE age > 98\n.count Nobody\n.quit\n")
  }

  @Test func ctrlDLeavesAndAnEmptyHistoryVariableKeepsNoHistory() throws {
    let executable = try #require(EndToEndTests.executable, "build realmctl first (swift build)")
    let home = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: home) }
    let pty = try PseudoTerminal(
      [executable.path, "shell", Self.tutorial],
      environment: ["HOME": home.path, "REALMCTL_HISTORY": ""])
    try pty.waitFor("the prompt") { $0.cursorLine == "realm>" }
    let count = Self.dump(["--class", "User"]).split(separator: "\n").count
    pty.type(".count User\r")
    try pty.waitFor("the count") { $0.lines.contains("\(count)") }
    pty.type("\u{04}")
    try expectEqual(pty.waitForExit(), 0)
    #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent(".realmctl_history").path))
  }
}
