#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Dispatch
import LineEditor
import RealmModel
import RealmStorage
import Synchronization

/// `realmctl shell FILE [--bail]`: an interactive session over one Realm file, or the same
/// commands read from standard input when it is not a terminal.
public struct ShellCommand: Command {
  /// The prompt.
  static let prompt = "realm> "
  /// Objects a query prints at a terminal before `.limit` is changed.
  static let terminalLimit = 100

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "shell",
      abstract: "Explore a Realm file interactively.",
      discussion: """
        Opens the file and reads commands: a class name prints its objects, 'CLASS \
        WHERE QUERY' those matching a Realm Query Language query (as dump --where), \
        and dot commands show the classes, the schema and counts, or change the output \
        mode. The statements INSERT, UPSERT, UPDATE ... SET ... WHERE and DELETE FROM \
        ... WHERE edit the objects as the insert, update and delete commands do; each \
        is committed on its own, or, between BEGIN and COMMIT, all together (ROLLBACK, \
        a failing statement or leaving the shell drop them all). At a terminal, lines can be edited (arrows, Ctrl-A/E/K/U/W, \
        Tab completion) and earlier lines recalled (Up, Ctrl-R); they are kept in \
        ~/.realmctl_history. Ctrl-C stops a long query, Ctrl-D leaves. At a terminal, \
        a query served by a search index says so after its objects.

        When standard input is not a terminal, the commands are read from it one per \
        line, without prompts: errors are printed with their line number and the exit \
        status is the first error's (0 when every line succeeded).

        Commands:
          .classes                 the classes with their object counts
          .schema [CLASS]          the schema of every class, or of CLASS
          .count CLASS [WHERE Q]   the number of objects (matching Q)
          .explain CLASS WHERE Q   how Q runs: the indexes it uses, objects read
          .mode table|jsonl|json|csv|sql
          .limit N|off             the most objects a query prints
          .show  .help  .quit
          INSERT [INTO CLASS] {"$class":...}   UPSERT [INTO CLASS] {...}
          UPDATE CLASS SET P = EXPR [, ...] [WHERE QUERY]
          DELETE FROM CLASS [WHERE QUERY]
          BEGIN  COMMIT  ROLLBACK

        Examples:
          realmctl shell app.realm
          echo 'Person WHERE age >= 18' | realmctl shell app.realm
          realmctl shell app.realm < checks.txt
          echo "UPDATE Person SET age = old.age + 1 WHERE age < 18" | realmctl shell app.realm
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The Realm file to explore."),
        .flag("bail", help: "Stop at the first failing command (when reading standard input)."),
      ] + KeyOptions.arguments())
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let path = invocation.string("file") ?? ""
    let key = try KeyOptions.key(invocation, environment: context.environment, command: spec.name)
    // A session reads the file for every line: each pass has its own read budget.
    let file = try RealmInput.openForSession(path, key: key)
    let interactive = TerminalLineReader.isInteractive(0, environment: context.environment)
    let mode: DumpCommand.Format = context.terminal.isStandardOutputTerminal ? .table : .jsonl
    let session = try ShellSession(
      path: path, file: file, context: context, mode: mode,
      limit: interactive && context.terminal.isStandardOutputTerminal ? Self.terminalLimit : nil, key: key)
    if interactive { return try runInteractive(session, context: context) }
    let lines = try LineReader(path: "/dev/stdin")
    var source = LineSource { try lines.next().map { String(decoding: $0, as: UTF8.self) } }
    return try Self.runScript(session, lines: &source, bail: invocation.flag("bail"))
  }

  /// Lines for ``runScript(_:lines:bail:)``.
  struct LineSource {
    var next: () throws -> String?
  }

  /// Runs commands one per line; returns the exit code of the first failing line (success
  /// when none failed). With `bail`, stops at the first failure.
  static func runScript(_ session: ShellSession, lines: inout LineSource, bail: Bool) throws -> ExitCode {
    var status = ExitCode.success
    var number = 0
    while let line = try lines.next() {
      number += 1
      do {
        let outcome = try session.execute(line)
        try session.context.standardOutput.flush()
        if outcome == .quit { break }
      } catch let error as RealmCtlError where error.code == .brokenPipe {
        throw error
      } catch {
        let code = try report(error, line: number, context: session.context)
        if status == .success { status = code }
        if bail { break }
      }
    }
    try session.end()
    return status
  }

  /// Prints a failed line's error (`Error: line 3: …`) and returns its exit code.
  @discardableResult
  static func report(_ error: any Error, line: Int?, context: CommandContext) throws -> ExitCode {
    let message = (error as? UsageError)?.message ?? RealmCtl.errorMessage(for: error)
    try context.standardOutput.flush()
    try context.standardError.writeLine(
      HelpRenderer.errorPrefix(usesColor: context.terminal.usesColor)
        + (line.map { "line \($0): " } ?? "") + message)
    try context.standardError.flush()
    return ExitCode.forError(error)
  }

  // MARK: - Interactive

  private func runInteractive(_ session: ShellSession, context: CommandContext) throws -> ExitCode {
    let historyPath = Self.historyPath(environment: context.environment)
    let history = historyPath.map { History.load(from: $0) } ?? History()
    // The editor draws where a person looks: standard output, or standard error when the
    // results go to a file.
    let reader = TerminalLineReader(input: 0, output: isatty(1) == 1 ? 1 : 2, history: history)
    reader.editor.completer = { line, cursor in session.completion(line: line, cursor: cursor) }
    let interrupts = InterruptGate()
    defer { interrupts.close() }
    let classes = session.schema.classes.count
    try context.standardOutput.writeLine(
      "realmctl \(RealmCtl.version) shell on \(session.path): \(classes) class\(classes == 1 ? "" : "es"), "
        + "file format \(session.file.fileFormat)")
    try context.standardOutput.writeLine("Enter .help for the commands, .quit or Ctrl-D to leave.")
    try context.standardOutput.flush()
    while true {
      switch reader.readLine(prompt: Self.prompt) {
      case .endOfFile:
        try session.end()
        return .success
      case .interrupted:
        continue
      case .line(let line):
        if let historyPath { reader.editor.history.save(to: historyPath) }
        let progress = ProgressCounter()
        session.progress = progress
        interrupts.watch(progress)
        defer { interrupts.watch(nil) }
        do {
          let outcome = try session.execute(line)
          try context.standardOutput.flush()
          if outcome == .quit {
            try session.end()
            return .success
          }
        } catch is ProgressCancelled {
          try context.standardOutput.flush()
          try context.standardError.writeLine("Interrupted")
          try context.standardError.flush()
        } catch let error as RealmCtlError where error.code == .brokenPipe {
          throw error
        } catch {
          try Self.report(error, line: nil, context: context)
        }
      }
    }
  }

  /// `$REALMCTL_HISTORY` (empty: no history), else `~/.realmctl_history`; nil without a home.
  static func historyPath(environment: [String: String]) -> String? {
    if let path = environment["REALMCTL_HISTORY"] { return path.isEmpty ? nil : path }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + (home.hasSuffix("/") ? "" : "/") + ".realmctl_history"
  }
}

/// Turns Ctrl-C during a query into a cancelled ``ProgressCounter`` instead of the end of the
/// process: SIGINT is caught by a dispatch source for the length of the session.
final class InterruptGate {
  /// The counter of the running query, shared with the signal handler's queue.
  private final class Current: Sendable {
    let counter = Mutex<ProgressCounter?>(nil)
  }
  private let current = Current()
  private let source: any DispatchSourceSignal

  init() {
    signal(SIGINT, SIG_IGN)
    source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    let current = self.current
    source.setEventHandler { current.counter.withLock { $0?.cancel() } }
    source.resume()
  }

  /// Cancels `counter` on the next Ctrl-C (nil: nothing to cancel).
  func watch(_ counter: ProgressCounter?) { current.counter.withLock { $0 = counter } }

  /// Stops catching SIGINT.
  func close() {
    source.cancel()
    signal(SIGINT, SIG_DFL)
  }
}
