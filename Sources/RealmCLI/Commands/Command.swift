/// A `realmctl` subcommand: its declaration and its body.
///
/// The body receives arguments already checked against ``spec`` and returns the exit code for
/// a normal end (``ExitCode/success``, or ``ExitCode/failure`` when the answer is "no"); any
/// failure is thrown and turned into a message and a code by ``RealmCtl``.
public protocol Command: Sendable {
  /// The declaration read by the parser and the help renderer.
  var spec: CommandSpec { get }
  /// Runs the command.
  func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode
}

/// What a command body may use: the output streams, the terminal and the environment.
public final class CommandContext {
  /// Results only (dumps, schemas, reports), so they can be piped.
  public let standardOutput: TextOutput
  /// Diagnostics and progress.
  public let standardError: TextOutput
  /// The terminal (decides defaults such as `dump`'s format, and colour).
  public let terminal: Terminal
  /// The process environment.
  public let environment: [String: String]

  /// Creates a context.
  public init(
    standardOutput: TextOutput, standardError: TextOutput, terminal: Terminal,
    environment: [String: String]
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.terminal = terminal
    self.environment = environment
  }

  /// Prints `Error: <message>` for `error` on standard error, as when a command fails, and
  /// returns its exit code: for commands that go on after a failure (`migrate` with several
  /// files reports each failed file and a summary, then returns ``ExitCode/failure``).
  ///
  /// - Parameter subject: a prefix naming what failed (`a.realm`), printed as `a.realm: `.
  @discardableResult
  public func reportError(_ error: any Error, subject: String? = nil) throws(RealmCtlError)
    -> ExitCode
  {
    let prefix = HelpRenderer.errorPrefix(usesColor: terminal.usesColor)
    let message = RealmCtl.errorMessage(for: error)
    try standardOutput.flush()
    try standardError.writeLine(prefix + (subject.map { "\($0): " } ?? "") + message)
    return ExitCode.forError(error)
  }

  /// Writes `warning: <message>` on standard error.
  public func warn(_ message: String) throws(RealmCtlError) {
    let prefix = terminal.usesColor ? "\u{1B}[1;33mwarning:\u{1B}[0m " : "warning: "
    try standardError.writeLine(prefix + message)
  }
}

/// Every command of `realmctl`, in the order the root help lists them.
public enum CommandRegistry {
  /// The commands.
  public static let all: [any Command] = [
    OpenCommand(), SchemaCommand(), DumpCommand(), DiffCommand(), MigrateCommand(), RenamePropertyCommand(),
    CreateCommand(), InsertCommand(), UpdateCommand(), DeleteCommand(), CompactCommand(), UpgradeCommand(),
    ConvertCommand(), UnsyncCommand(), EncryptCommand(), DecryptCommand(),
    ShellCommand(), StudioCommand(), CompletionCommand(), VersionCommand(), GenerateManualCommand(),
  ]

  /// The command called `name`.
  public static func command(named name: String) -> (any Command)? {
    all.first { $0.spec.name == name }
  }

  /// The root declaration: the tool with every command as a subcommand.
  public static let root = CommandSpec(
    name: "realmctl",
    abstract: "Inspect, migrate and create Realm database files.",
    discussion: """
      realmctl reads and writes Realm files directly, without an app or the Realm SDK: \
      look inside a file, dump its objects as JSON Lines, JSON, CSV or a table, migrate \
      it to a new schema with a JSON plan, build files from text, and upgrade old files.

      \(FileFormatText.overview)

      Start with:
        realmctl open app.realm
        realmctl schema app.realm
        realmctl dump app.realm --class Person --limit 10

      Exit status: 0 success, 1 the answer is "no", 64 usage error, 65 bad or corrupt \
      data, 66 missing input, 70 internal error, 73 cannot create output, 74 I/O error, \
      75 file in use by another process, 77 permission denied.
      """,
    subcommands: all.map(\.spec),
    version: RealmCtl.version)
}
