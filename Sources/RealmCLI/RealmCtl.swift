#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RealmModel
import RealmStorage

/// The realmctl command layer entry point: parse, dispatch, report, return the exit status.
///
/// Everything is testable in-process: ``run(arguments:standardOutput:standardError:environment:terminal:)``
/// writes only to the outputs it is given. `main.swift` calls ``main()``.
public enum RealmCtl {
  /// The version printed by `realmctl --version` (``ReleaseVersion/number``).
  public static let version = ReleaseVersion.number

  /// The parser for every command.
  public static let parser = CommandLineParser(root: CommandRegistry.root)

  /// Runs one command line and returns the exit status; nothing is printed after it returns
  /// (both outputs are flushed).
  ///
  /// - Parameters:
  ///   - arguments: the words after the program name.
  ///   - standardOutput: results (help, version, dumps).
  ///   - standardError: diagnostics.
  ///   - environment: the process environment (`NO_COLOR`, `COLUMNS`, …).
  ///   - terminal: the terminal description (width for help, colour, `dump`'s default).
  public static func run(
    arguments: [String], standardOutput: TextOutput, standardError: TextOutput,
    environment: [String: String] = [:], terminal: Terminal = .plain
  ) -> Int32 {
    let renderer = HelpRenderer(root: parser.root, width: terminal.width)
    let context = CommandContext(
      standardOutput: standardOutput, standardError: standardError, terminal: terminal,
      environment: environment)
    var status: ExitCode
    do {
      status = try dispatch(arguments, renderer: renderer, context: context)
    } catch {
      status = report(error, renderer: renderer, context: context)
    }
    do {
      try standardOutput.flush()
    } catch {
      // A closed pipe keeps the command's own status; a failed write is reported, and turns
      // success into 74.
      if error.code != .brokenPipe {
        let code = report(error, renderer: renderer, context: context)
        if status == .success { status = code }
      }
    }
    try? standardError.flush()
    return status.rawValue
  }

  /// Runs the process's own command line on file descriptors 1 and 2.
  public static func main() -> Int32 {
    // A closed pipe must surface as EPIPE (handled quietly), not kill the process.
    signal(SIGPIPE, SIG_IGN)
    let environment = ProcessEnvironment.current()
    return run(
      arguments: Array(CommandLine.arguments.dropFirst()), standardOutput: .standardOutput(),
      standardError: .standardError(), environment: environment,
      terminal: .current(environment: environment))
  }

  /// The one-line message printed after `Error: ` for a failure that is not a usage error.
  ///
  /// Errors of unknown types are bugs (exit 70) and say so.
  public static func errorMessage(for error: any Error) -> String {
    if let error = error as? StorageError, error.code == .misuse {
      // Its text already says it is an internal error to report: not twice.
      return error.description.prefix(1).uppercased() + error.description.dropFirst()
    }
    if ExitCode.forError(error) == .software && !(error is RealmCtlError) {
      return "Internal error: \(error); please report it"
    }
    // The storage layer knows no options: name the ways to give (or drop) a key here.
    if let error = error as? StorageError {
      switch error.code {
      case .encrypted: return error.description + " with --key-file or REALMCTL_KEY"
      case .notEncrypted: return error.description + " (no --key-file, --key or REALMCTL_KEY)"
      default: break
      }
    }
    return String(describing: error)
  }

  // MARK: - Private

  private static func dispatch(
    _ arguments: [String], renderer: HelpRenderer, context: CommandContext
  ) throws -> ExitCode {
    switch parser.parse(arguments) {
    case .failure(let error):
      throw error
    case .success(.help(let command)):
      try context.standardOutput.write(renderer.help(for: command))
      return .success
    case .success(.version(let verbose)):
      let report = VersionReport.current()
      try context.standardOutput.write(verbose ? report.verboseText : report.line)
      return .success
    case .success(.run(let invocation)):
      guard let command = CommandRegistry.command(named: invocation.command.name) else {
        throw RealmCtlError(
          .internalError,
          "internal error: no body for command '\(invocation.command.name)'; please report it")
      }
      return try command.run(invocation, in: context)
    }
  }

  /// Prints `error` on standard error in its proper shape and returns its exit code.
  private static func report(_ error: any Error, renderer: HelpRenderer, context: CommandContext)
    -> ExitCode
  {
    let code = ExitCode.forError(error)
    let colour = context.terminal.usesColor
    let text: String
    switch error {
    case let error as RealmCtlError where error.code == .brokenPipe:
      // `realmctl dump x | head`: the reader has what it wanted; stop quietly.
      return .success
    case let error as UsageError:
      text = renderer.errorText(error, usesColor: colour)
    default:
      text = HelpRenderer.errorPrefix(usesColor: colour) + errorMessage(for: error) + "\n"
    }
    // Anything the command already wrote goes first, so the error comes last on a terminal.
    try? context.standardOutput.flush()
    try? context.standardError.write(text)
    return code
  }
}
