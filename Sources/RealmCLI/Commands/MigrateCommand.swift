import RealmJSON
import RealmMigration
import RealmStorage
import RealmModel

/// `realmctl migrate --plan PLAN FILE... [--dry-run] [--backup PATH] [--reset-if-needed] [--json]`.
public struct MigrateCommand: Command {
  /// The checked arguments of one run.
  public struct Options: Sendable, Equatable {
    /// The migration plan (JSON).
    public var plan: String
    /// The Realm files, each migrated on its own.
    public var files: [String]
    /// Do everything but the final write.
    public var dryRun: Bool
    /// Where to keep a copy of the original, when given.
    public var backup: String?
    /// Replace the file by an empty one with the target schema when a migration is needed.
    public var resetIfNeeded: Bool
    /// Print the report as JSON.
    public var json: Bool
    /// No progress on standard error.
    public var quiet = false
  }

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "migrate",
      abstract: "Migrate Realm files to a new schema with a JSON plan.",
      discussion: """
        The plan gives the target schema version, the complete target schema and the \
        steps that lead to each version (rename, add, remove, transform, delete), like \
        an app's migration block (see docs/migration-plans.md). Pending versions are \
        applied in order, then the file is reconciled with the target schema: new \
        classes and properties are added, properties missing from the schema are \
        removed with their data. The report gives, per class, what changed and how many \
        objects were touched, and the schema versions before and after.

        A target version lower than the file's, or changes that need a new version \
        without one, are refused (exit status 65) with Realm's own messages.

        The plan is checked completely before anything is written; errors name their \
        place in the plan (migrations[1].steps[0].from). Each file is changed \
        atomically: after a crash it is either exactly as before or fully migrated. A \
        file open in a Realm app (its .lock is held) is refused and left unchanged \
        (exit status 75).

        With several files, each is migrated on its own and a summary follows; the exit \
        status is 1 when any of them failed.

        Examples:
          realmctl migrate --plan plan.json app.realm
          realmctl migrate --plan plan.json app.realm --dry-run
          realmctl migrate --plan plan.json --backup app.realm.bak app.realm
          realmctl migrate --plan plan.json --json fixtures/*.realm
        """,
      arguments: [
        .option(
          "plan", valueName: "plan", isRequired: true, completion: .files(extensions: ["json"]),
          help: "The migration plan (a JSON file)."),
        .positional(
          "files", valueName: "file", isRepeating: true, completion: .realmFile, help: "The Realm files to migrate."),
        .flag("dry-run", help: "Check and report everything, but write nothing."),
        .option(
          "backup", valueName: "path",
          help: "Copy the original file to <path> before changing it."),
        .flag(
          "reset-if-needed",
          help: """
            When a migration would be needed, replace the file with an empty one \
            with the target schema and version, deleting all data (like \
            deleteRealmIfMigrationNeeded in the SDKs).
            """),
        .flag("json", help: "Print the report as JSON (for CI)."),
        FileFormatOption.argument(default: FileFormatText.keptDefault("each file's")),
        .quietFlag,
      ] + KeyOptions.arguments(purpose: "of the Realm files (the migrated files keep it)"))
  }

  /// Reads the options from checked arguments.
  public func options(_ invocation: ParsedInvocation) -> Options {
    Options(
      plan: invocation.string("plan") ?? "", files: invocation.strings("files"),
      dryRun: invocation.flag("dry-run"), backup: invocation.string("backup"),
      resetIfNeeded: invocation.flag("reset-if-needed"), json: invocation.flag("json"),
      quiet: invocation.flag("quiet"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let options = options(invocation)
    if options.backup != nil && options.files.count > 1 {
      throw UsageError(
        .unexpectedArgument, "'--backup <path>' names one copy, so it takes a single file",
        command: spec.name)
    }
    try InputFiles.requireReadableFile(options.plan)
    let plan = try PlanDecoder.decode(try InputFiles.contents(of: options.plan))
    var migrationOptions = MigrationOptions()
    migrationOptions.dryRun = options.dryRun
    migrationOptions.backupPath = options.backup
    migrationOptions.resetIfNeeded = options.resetIfNeeded
    migrationOptions.fileFormat = try FileFormatOption.format(invocation, command: spec.name)
    migrationOptions.encryptionKey = try KeyOptions.key(
      invocation, environment: context.environment, command: spec.name)
    var json = JSONWriter(indent: 2)
    json.beginObject()
    json.key("files")
    json.beginArray()
    var failed = 0
    var firstFailure: ExitCode = .success
    for file in options.files {
      do {
        try InputFiles.requireReadableFile(file)
        let progress = ProgressCounter()
        var fileOptions = migrationOptions
        fileOptions.progress = progress
        let display = ProgressDisplay.start(
          "Migrating \(file)", counter: progress, context: context, quiet: options.quiet)
        let result: MigrationResult
        do {
          defer { display?.finish() }
          result = try Migrator.migrate(path: file, plan: plan, options: fileOptions)
        }
        try FileFormatOption.warnIfOldSDKsLeft(
          from: result.fromFileFormat, to: result.toFileFormat, path: file, context: context)
        if options.json {
          MigrationReport.json(result, into: &json)
        } else {
          try context.standardOutput.writeLine(MigrationReport.text(result))
        }
      } catch {
        // One file: its error is the command's. Several: report it and go on.
        if options.files.count == 1 && !options.json { throw error }
        failed += 1
        let code = try context.reportError(error, subject: options.files.count == 1 ? nil : file)
        if firstFailure == .success { firstFailure = code }
        MigrationReport.jsonFailure(
          file: file, message: RealmCtl.errorMessage(for: error), exitCode: code.rawValue, into: &json)
      }
    }
    json.endArray()
    json.member("migrated", Int64(options.files.count - failed))
    json.member("failed", Int64(failed))
    json.endObject()
    if options.json {
      json.buffer.append(0x0A)
      try context.standardOutput.write(bytes: json.buffer)
    } else if options.files.count > 1 {
      try context.standardOutput.writeLine(
        "\(options.files.count - failed) of \(options.files.count) files migrated, \(failed) failed")
    }
    if failed == 0 { return .success }
    return options.files.count == 1 ? firstFailure : .failure
  }
}
