import RealmModel
import RealmJSON
import RealmMigration
import RealmStorage
import RealmDiff
import RealmExport

/// `realmctl diff OLD NEW [--format text|jsonl] [--stat] [--class NAME [--where QUERY]]` and
/// `realmctl diff FILE --schema APP-SCHEMA [--schema-version N] [--plan-skeleton]`.
public struct DiffCommand: Command {
  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "diff",
      abstract: "Compare two Realm files, or a file with an app's schema.",
      discussion: """
        With two files, prints what differs: the schema version, the file format, the \
        schema in Realm's own words ("Property 'Person.email' has been added."), then \
        the objects added (+), removed (-) and changed (~) in each class, with the old \
        and new value of each changed property. Objects are matched by primary key when \
        the class has the same one in both files, else by object key; embedded objects \
        compare inside their parent, links by the target's primary key (or key). Only \
        properties both files have are compared. Both files are read side by side in \
        key order, in flat memory.

        With --schema, answers whether an app with that schema and schema version opens \
        the file: Realm's exact message ("Migration is required due to the following \
        errors:"), or that no migration is needed, or that only additive changes are \
        (the SDK applies them itself). The schema file is a schema document (realmctl \
        schema --format json) or a migration plan; its schemaVersion is used unless \
        --schema-version is given. --plan-skeleton prints a migration plan to fill in \
        (the report then goes to standard error).

        Exit status, as diff(1): 0 the files are the same (or the app opens the file \
        without a migration), 1 they differ (or Realm would refuse the file: a migration \
        is needed), above 1 on trouble. --key-file and --key apply to both files; \
        --new-key-file or --new-key give <new-file> a key of its own.

        Examples:
          realmctl diff old.realm new.realm
          realmctl diff old.realm new.realm --stat
          realmctl diff old.realm new.realm --format jsonl --class Person
          realmctl diff old.realm new.realm --class Person --where "age >= 18"
          realmctl diff fixture.realm --schema app-schema.json --schema-version 3
          realmctl diff fixture.realm --schema app.json --plan-skeleton > plan.json
        """,
      arguments: [
        .positional("old", valueName: "file", completion: .realmFile, help: "The Realm file (the old one of two)."),
        .positional(
          "new", valueName: "new-file", isRequired: false, completion: .realmFile,
          help: "The new Realm file to compare with."),
        .option(
          "schema", valueName: "schema", completion: .files(extensions: ["json"]),
          help: "Check the file against this app schema (a schema document or a migration plan)."),
        .option(
          "schema-version", valueName: "n", type: .integer(minimum: 0),
          help: "The app's schema version (default: the schema file's schemaVersion)."),
        .flag("plan-skeleton", help: "With --schema: print a migration plan that leads to the app's schema."),
        .option(
          "format", valueName: "format", type: .choice(RealmDiffFormat.allCases.map(\.rawValue)),
          default: RealmDiffFormat.text.rawValue, help: "The output format: text, or jsonl (one change a line)."),
        .flag("stat", help: "Print the number of objects added, removed and changed per class."),
        .option("class", valueName: "name", completion: .text, help: "Compare only the class named <name>."),
        .option(
          "where", valueName: "query", completion: .text,
          help: "Compare only objects of --class matching this Realm Query Language filter in either file."),
        .quietFlag,
      ] + KeyOptions.arguments(purpose: "of the Realm file (of both files unless --new-key-file or --new-key is given)")
        + KeyOptions.arguments(new: true, purpose: "of <new-file>, when it is not the key of <file>"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let old = invocation.string("old") ?? ""
    let new = invocation.string("new")
    let schema = invocation.string("schema")
    if let problem = Self.usageProblem(invocation, new: new, schema: schema) {
      throw UsageError(.missingArgument, problem, command: spec.name)
    }
    let key = try KeyOptions.key(invocation, environment: context.environment, command: spec.name)
    if let schema {
      return try checkSchema(file: old, schemaPath: schema, invocation, key: key, context)
    }
    let newKey = try KeyOptions.key(invocation, environment: context.environment, command: spec.name, new: true)
    return try compare(old, new ?? "", invocation, key: key, newKey: newKey ?? key, context)
  }

  /// The usage error of a combination of options, nil when they fit.
  static func usageProblem(_ invocation: ParsedInvocation, new: String?, schema: String?) -> String? {
    switch (new, schema) {
    case (nil, nil): return "Give a second Realm file to compare with, or '--schema <schema>'"
    case (.some, .some): return "Compare two files or check one against --schema, not both"
    default: break
    }
    if schema == nil {
      for name in ["schema-version", "plan-skeleton"] where invocation.isGiven(name) {
        return "--\(name) needs '--schema <schema>'"
      }
    } else {
      for name in ["stat", "class", "where", "new-key-file", "new-key"] where invocation.isGiven(name) {
        return "--\(name) compares two files: it does not go with --schema"
      }
    }
    if invocation.isGiven("where") && !invocation.isGiven("class") {
      return "--where filters one class: add '--class <name>'"
    }
    return nil
  }

  // MARK: - FILE --schema

  private func checkSchema(
    file: String, schemaPath: String, _ invocation: ParsedInvocation, key: EncryptionKey?, _ context: CommandContext
  ) throws -> ExitCode {
    try InputFiles.requireReadableFile(schemaPath)
    let app: AppSchemaFile.Contents
    do {
      app = try AppSchemaFile.decode(try InputFiles.contents(of: schemaPath))
    } catch let error as MigrationError {
      throw RealmCtlError(.invalidInput, path: schemaPath, "'\(schemaPath)' is not a valid app schema: \(error)")
    }
    guard let version = invocation.integer("schema-version").map(Int64.init) ?? app.schemaVersion else {
      throw UsageError(
        .missingArgument, "'\(schemaPath)' states no schemaVersion: add '--schema-version <n>'", command: spec.name)
    }
    let realm = try RealmInput.open(file, key: key)
    let fileSchema = try RealmInput.schema(of: realm)
    let check = try AppSchemaCheck(fileSchema: fileSchema, appSchema: app.schema, appVersion: version)
      .checkingData(in: realm, fileSchema: fileSchema)
    let format = invocation.string("format").flatMap(RealmDiffFormat.init(rawValue:)) ?? .text
    let report = format == .jsonl ? Self.jsonReport(check) : check.report + "\n"
    if invocation.flag("plan-skeleton") {
      try context.standardOutput.write(bytes: PlanSkeleton.json(for: check, appSchema: app.schema))
      try context.standardOutput.flush()
      try context.standardError.write(bytes: Array(report.utf8))
    } else {
      try context.standardOutput.write(bytes: Array(report.utf8))
    }
    return check.needsMigration ? .failure : .success
  }

  /// The check as one JSON line: verdict, versions, Realm's message and every change.
  static func jsonReport(_ check: AppSchemaCheck) -> String {
    var w = JSONWriter(indent: 0, capacity: 256)
    w.beginObject()
    w.member("verdict", check.verdict.rawValue)
    w.member("needsMigration", check.needsMigration)
    w.member("fileVersion", check.fileVersion)
    w.member("appVersion", check.appVersion)
    w.member("message", check.realmMessage)
    w.member("changes", objects: check.changes) { w, c in
      w.member("class", c.className)
      w.member("message", c.realmMessage)
      w.member("needsMigration", c.needsMigration)
    }
    w.endObject()
    return String(decoding: w.buffer, as: UTF8.self) + "\n"
  }

  // MARK: - OLD NEW

  private func compare(
    _ oldPath: String, _ newPath: String, _ invocation: ParsedInvocation, key: EncryptionKey?, newKey: EncryptionKey?,
    _ context: CommandContext
  ) throws -> ExitCode {
    let old = try RealmInput.open(oldPath, key: key)
    let new = try RealmInput.open(newPath, key: newKey)
    let progress = ProgressCounter()
    let options = RealmDiff.Options(className: invocation.string("class"), query: invocation.string("where"), progress: progress)
    let diff: RealmDiff
    do {
      diff = try RealmDiff(old: old, new: new, options: options)
    } catch let failure as RealmDiff.Failure {
      throw error(failure, oldPath, query: options.query ?? "")
    }
    let output = context.standardOutput
    let sink: OutputSink = { try output.write(bytes: $0) }
    var writer: any RealmDiffWriter
    if invocation.flag("stat") {
      writer = DiffStatWriter(sink: sink)
    } else if invocation.string("format") == RealmDiffFormat.jsonl.rawValue {
      writer = DiffJSONLinesWriter(diff: diff, sink: sink)
    } else {
      let color = context.terminal.isStandardOutputTerminal && context.environment["NO_COLOR"] == nil
      writer = DiffTextWriter(diff: diff, color: color, sink: sink)
    }
    var differs = false
    let display = ProgressDisplay.start(
      "Comparing \(oldPath) and \(newPath)", counter: progress, context: context, quiet: invocation.flag("quiet"),
      resultsShareTheTerminal: true)
    defer { display?.finish() }
    do {
      try diff.run { change in
        differs = true
        try writer.write(change)
      }
    } catch let failure as RealmDiff.Failure {
      throw error(failure, oldPath, query: options.query ?? "")
    }
    try writer.finish()
    return differs ? .failure : .success
  }

  private func error(_ failure: RealmDiff.Failure, _ oldPath: String, query: String) -> any Error {
    switch failure {
    case .unknownClass:
      return RealmCtlError(.invalidInput, path: oldPath, "\(failure)")
    case .badQuery, .queryHasDescriptors:
      return UsageError(
        .invalidValue, "The value '\(query)' is invalid for '--where <query>': \(failure)",
        helpLine: "--where <query>  Compare only objects of --class matching this Realm Query Language filter in either file.",
        command: spec.name)
    }
  }
}
