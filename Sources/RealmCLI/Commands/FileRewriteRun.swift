import RealmModel
import RealmStorage
import RealmRewrite

/// The run shared by `upgrade`, `convert` and `unsync`, which rewrite a whole file: in place
/// (keeping a `--backup` copy when asked), to `--output`, or only counted for `--dry-run`.
struct FileRewriteRun {
  /// The checked arguments.
  var options: UpgradeCommand.Options
  /// What the file becomes, in usage errors: `upgraded`, `converted`.
  var verb: String
  /// The command's name, for usage errors.
  var command: String

  /// Refuses `--backup` with `--output`, and an `--output` that is the file itself (`inPlace`
  /// says what to do instead: `write it in place`).
  func checkOutput(inPlace: String) throws {
    if options.backup != nil && options.output != nil {
      throw UsageError(
        .unexpectedArgument,
        "'--backup <path>' keeps a copy of a file \(verb) in place; with '--output <new>' the original is not changed",
        command: command)
    }
    if let output = options.output, output == options.file {
      throw UsageError(
        .invalidValue,
        "The value '\(output)' is invalid for '--output <new>': it is the file being \(verb); leave out --output to \(inPlace)",
        command: command)
    }
  }

  /// The library's options for the readable file: key, dry run, backup and output.
  func rewriteOptions(_ invocation: ParsedInvocation, context: CommandContext) throws -> UpgradeOptions {
    try InputFiles.requireReadableFile(options.file)
    var rewrite = UpgradeOptions()
    rewrite.encryptionKey = try KeyOptions.key(invocation, environment: context.environment, command: command)
    rewrite.dryRun = options.dryRun
    rewrite.backupPath = options.backup
    rewrite.outputPath = options.output
    return rewrite
  }

  /// Runs `rewrite` with `rewriteOptions` under a progress display titled `title`; a file that
  /// needed no rewrite (`rewritten` false) is copied unchanged to `--output`.
  func run<Result>(
    _ rewriteOptions: UpgradeOptions, title: String, context: CommandContext,
    rewrite: (UpgradeOptions) throws -> Result, rewritten: (Result) -> Bool
  ) throws -> Result {
    var rewriteOptions = rewriteOptions
    let progress = ProgressCounter(unit: .bytes)
    rewriteOptions.progress = progress
    let display = ProgressDisplay.start(
      title, counter: progress, context: context, quiet: options.quiet || options.dryRun)
    let result: Result
    do {
      defer { display?.finish() }
      result = try rewrite(rewriteOptions)
    }
    if !rewritten(result), let output = options.output, !options.dryRun {
      try FileCopy.copy(from: options.file, to: output)
    }
    return result
  }

  /// `--output`, `--backup` and `--dry-run` of a command that rewrites a file: `result` names
  /// what it writes (`the upgraded file`), `report` what a dry run reports.
  static func arguments(result: String, report: String = "what would be written") -> [ArgumentSpec] {
    [
      .option(
        "output", valueName: "new",
        help: "Write \(result) to <new> (which must not exist) and leave the original unchanged."),
      .option("backup", valueName: "path", help: "Copy the original file to <path> before replacing it."),
      .flag("dry-run", help: "Read the whole file and report \(report), but write nothing."),
    ]
  }

  /// `12 objects in 3 classes and 1 other table`: what a rewrite carries over, in its report.
  static func contents(objects: Int, classes: Int, otherTables: Int) -> String {
    var what = "\(objects) object\(objects == 1 ? "" : "s") in \(classes) class\(classes == 1 ? "" : "es")"
    if otherTables > 0 {
      what += " and \(otherTables) other table\(otherTables == 1 ? "" : "s")"
    }
    return what
  }

  /// What a report that has nothing to rewrite adds when `--output` was given: the file is
  /// copied there unchanged (or would be, in a dry run).
  static func unchangedCopy(to output: String?, dryRun: Bool) -> String {
    output.map { dryRun ? "; it would be copied unchanged to \($0)" : "; copied unchanged to \($0)" } ?? ""
  }
}
