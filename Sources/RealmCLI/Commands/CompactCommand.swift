import RealmStorage
import RealmModel
import RealmRewrite

/// `realmctl compact FILE`: rewrite a Realm file without free space.
public struct CompactCommand: Command {
  /// The checked arguments of one run.
  public struct Options: Sendable, Equatable {
    /// The Realm file.
    public var file: String
    /// No progress on standard error.
    public var quiet = false
    /// The file format to write (nil: the file's own).
    public var fileFormat: WritableFileFormat?
  }

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "compact",
      abstract: "Rewrite a Realm file without free space.",
      discussion: """
        Like Realm's compact-on-launch or writeCopy: the live data is written to a new \
        file with no free space, which then replaces the original atomically. The old \
        and new sizes are printed. The file keeps its format (\(FileFormatText.writable())), \
        or takes the one --file-format names; \(FileFormatText.rewrittenFormats), as Realm \
        upgrades a file before compacting it (see 'realmctl upgrade'). The file must not be \
        open in a Realm app.

        Example:
          realmctl compact app.realm
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The Realm file to compact."),
        FileFormatOption.argument(default: FileFormatText.keptDefault()),
        .quietFlag,
      ] + KeyOptions.arguments(purpose: "of the Realm file (the compacted file keeps it)"))
  }

  /// Reads the options from checked arguments.
  public func options(_ invocation: ParsedInvocation) throws -> Options {
    Options(
      file: invocation.string("file") ?? "", quiet: invocation.flag("quiet"),
      fileFormat: try FileFormatOption.format(invocation, command: spec.name))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let options = try options(invocation)
    try InputFiles.requireReadableFile(options.file)
    let key = try KeyOptions.key(invocation, environment: context.environment, command: spec.name)
    let progress = ProgressCounter(unit: .bytes)
    let display = ProgressDisplay.start(
      "Compacting \(options.file)", counter: progress, context: context, quiet: options.quiet)
    let r: RewriteSummary
    do {
      defer { display?.finish() }
      r = try Compaction.compact(path: options.file, key: key, progress: progress, fileFormat: options.fileFormat)
    }
    let formats = FileFormatOption.sizeSuffix(from: r.fromFormat, to: r.toFormat)
    try FileFormatOption.warnIfOldSDKsLeft(from: r.fromFormat, to: r.toFormat, path: options.file, context: context)
    try context.standardOutput.writeLine("Compacted \(options.file): \(r.sizeBefore) -> \(r.sizeAfter) bytes\(formats)")
    return .success
  }
}
