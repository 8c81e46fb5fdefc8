import RealmModel
import RealmMigration
import RealmStorage
import RealmEdit

/// The options every editing command shares, and how they run.
enum EditOptions {
  /// `--dry-run`, `--backup`, `--json`, `--quiet` and the key options.
  static func arguments(purpose: String) -> [ArgumentSpec] {
    [
      .flag("dry-run", help: "Check everything and report, but write nothing."),
      .option("backup", valueName: "path", help: "Copy the original file to <path> before changing it."),
      .flag("json", help: "Print the report as JSON (for CI)."),
      .quietFlag,
    ] + KeyOptions.arguments(purpose: purpose)
  }

  /// The library options from the checked arguments.
  static func migrationOptions(_ invocation: ParsedInvocation, context: CommandContext, command: String) throws -> MigrationOptions {
    var o = MigrationOptions()
    o.dryRun = invocation.flag("dry-run")
    o.backupPath = invocation.string("backup")
    o.encryptionKey = try KeyOptions.key(invocation, environment: context.environment, command: command)
    if let backup = o.backupPath { try InputFiles.requireAbsent(backup) }
    return o
  }

  /// Runs `edit` with a progress display and prints its report.
  static func run(
    _ invocation: ParsedInvocation, context: CommandContext, verb: String, file: String,
    options: MigrationOptions, _ edit: (MigrationOptions) throws -> EditResult
  ) throws -> ExitCode {
    let progress = ProgressCounter()
    var o = options
    o.progress = progress
    let display = ProgressDisplay.start(
      "\(verb.prefix(1).uppercased() + verb.dropFirst()) \(file)", counter: progress, context: context,
      quiet: invocation.flag("quiet"))
    let result: EditResult
    do {
      defer { display?.finish() }
      result = try edit(o)
    }
    if invocation.flag("json") {
      try context.standardOutput.write(bytes: EditReport.json(result))
    } else {
      try context.standardOutput.writeLine(EditReport.text(result, verb: verb))
    }
    return .success
  }
}
