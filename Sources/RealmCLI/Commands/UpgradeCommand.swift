import RealmModel
import RealmRewrite

/// `realmctl upgrade FILE [--output NEW] [--backup PATH] [--dry-run]`.
public struct UpgradeCommand: Command {
  /// The checked arguments of one run.
  public struct Options: Sendable, Equatable {
    /// The Realm file.
    public var file: String
    /// Where to write the upgraded file instead of replacing the original.
    public var output: String?
    /// Where to keep a copy of the original.
    public var backup: String?
    /// Do everything but the write.
    public var dryRun: Bool
    /// No progress on standard error.
    public var quiet = false
  }

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "upgrade",
      abstract: "Convert an old Realm file to the current format (24).",
      discussion: """
        Realm files of formats 2 to 9 (written by Realm SDKs before 2020) cannot be opened \
        by the Realm SDKs of 2024 and later, and files of formats 10 to 23 are upgraded by \
        the SDKs the first time they open them. upgrade writes the file as format 24 the \
        way Realm's own upgrade does: the same classes, objects and object keys, primary \
        keys taken from the old 'pk' table and given a search index, lists of primitives, \
        links and dates converted. The file is replaced atomically (after a crash it is \
        either exactly as before or fully upgraded), or written to --output, leaving the \
        original as it is. A file already at format 24 is left alone. An encrypted file \
        is read with its key and the upgraded file is encrypted with the same key. The \
        file must not be open in a Realm app.

        Examples:
          realmctl upgrade old.realm
          realmctl upgrade old.realm --dry-run
          realmctl upgrade old.realm --output new.realm
          realmctl upgrade old.realm --backup old.realm.bak
          realmctl upgrade app.realm --key-file app.key
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The Realm file to upgrade.")
      ] + FileRewriteRun.arguments(result: "the upgraded file") + [
        FileFormatOption.argument(default: "Default: 24 ('realmctl convert' is the same command)."),
        .quietFlag,
      ] + KeyOptions.arguments(purpose: "of the Realm file (the upgraded file keeps it)"))
  }

  /// Reads the options from checked arguments.
  public func options(_ invocation: ParsedInvocation) -> Options {
    Options(
      file: invocation.string("file") ?? "", output: invocation.string("output"), backup: invocation.string("backup"),
      dryRun: invocation.flag("dry-run"), quiet: invocation.flag("quiet"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let format = try FileFormatOption.format(invocation, command: spec.name) ?? .current
    let result = try Self.rewrite(
      options(invocation), format: format, invocation: invocation, context: context, command: spec.name)
    try context.standardOutput.writeLine(format == .current ? UpgradeCommand.report(result) : ConvertCommand.report(result))
    return .success
  }

  /// The run shared with `convert`: checks the options and rewrites the file as `format`
  /// (in place, to `--output`, or counted for `--dry-run`).
  static func rewrite(
    _ options: Options, format: WritableFileFormat, invocation: ParsedInvocation, context: CommandContext,
    command: String
  ) throws -> UpgradeResult {
    let run = FileRewriteRun(options: options, verb: command == "upgrade" ? "upgraded" : "converted", command: command)
    try run.checkOutput(inPlace: "write it in place")
    var upgradeOptions = try run.rewriteOptions(invocation, context: context)
    upgradeOptions.fileFormat = format
    return try run.run(
      upgradeOptions, title: "\(command == "upgrade" ? "Upgrading" : "Converting") \(options.file)", context: context,
      rewrite: { try Upgrader.upgrade(path: options.file, options: $0) }, rewritten: \.upgraded)
  }

  /// The one-line report.
  static func report(_ r: UpgradeResult) -> String {
    let name = r.path
    guard r.upgraded else {
      let copy = FileRewriteRun.unchangedCopy(to: r.outputPath, dryRun: r.dryRun)
      if r.fromFormat == 0 {
        return "\(name) has never been written to (it has no file format yet): nothing to upgrade\(copy)"
      }
      return "\(name) is already at file format \(r.fromFormat), the current format: nothing to upgrade\(copy)"
    }
    let what = FileRewriteRun.contents(
      objects: (r.classes + r.otherTables).map(\.objects).saturatingSum, classes: r.classes.count,
      otherTables: r.otherTables.count)
    let sizes = "\(r.sizeBefore) -> \(r.sizeAfter) bytes"
    let formats = "file format \(r.fromFormat) -> \(r.toFormat)"
    let time = MigrationReport.seconds(r.seconds)
    if r.dryRun {
      let target = r.outputPath.map { " to \($0)" } ?? ""
      return "\(name): \(formats) would be written\(target) (dry run: nothing written): \(what), \(sizes)"
    }
    if let output = r.outputPath {
      return "Upgraded \(name) to \(output): \(formats), \(what), \(sizes) in \(time)"
    }
    return "Upgraded \(name): \(formats), \(what), \(sizes) in \(time)"
  }
}
