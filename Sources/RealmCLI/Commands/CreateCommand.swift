import RealmJSON
import RealmStorage
import RealmMigration
import RealmExport
import RealmFormat

/// `realmctl create OUT --schema SCHEMA.json [--data DATA.jsonl] [--schema-version N]`.
public struct CreateCommand: Command {
  /// The checked arguments of one run.
  public struct Options: Sendable, Equatable {
    /// The Realm file to write.
    public var output: String
    /// The schema JSON file.
    public var schema: String
    /// The canonical JSON Lines data, when given.
    public var data: String?
    /// The schema version to record (default 0).
    public var schemaVersion: Int?
    /// No progress on standard error.
    public var quiet = false
  }

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "create",
      abstract: "Write a new Realm file from a schema and JSON Lines data.",
      discussion: """
        Builds a Realm file (file format 24) from the schema JSON that 'realmctl schema \
        --format json' prints and, optionally, the canonical JSON Lines that 'realmctl \
        dump --format jsonl' prints, so test fixtures can live in git as reviewable text. \
        Dumping the new file gives the data back. The output must not exist yet.

        Examples:
          realmctl create people.realm --schema schema.json --data people.jsonl
          realmctl create empty.realm --schema schema.json --schema-version 3
        """,
      arguments: [
        .positional("out", completion: .realmFile, help: "The Realm file to create."),
        .option(
          "schema", valueName: "schema", isRequired: true, completion: .files(extensions: ["json"]),
          help: "The schema JSON file (as printed by 'schema --format json')."),
        .option(
          "data", valueName: "data", completion: .files(extensions: ["jsonl", "json"]),
          help: "Objects to insert, as canonical JSON Lines (as printed by 'dump --format jsonl')."),
        .option(
          "schema-version", valueName: "n", type: .integer(minimum: 0),
          help: "The schema version of the new file (default: the schema JSON's 'schemaVersion')."),
        .quietFlag,
      ] + KeyOptions.arguments(purpose: "to encrypt the new file with"))
  }

  /// Reads the options from checked arguments.
  public func options(_ invocation: ParsedInvocation) -> Options {
    Options(
      output: invocation.string("out") ?? "", schema: invocation.string("schema") ?? "",
      data: invocation.string("data"), schemaVersion: invocation.integer("schema-version"),
      quiet: invocation.flag("quiet"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let options = options(invocation)
    try InputFiles.requireReadableFile(options.schema)
    if let data = options.data { try InputFiles.requireReadableFile(data) }
    try InputFiles.requireAbsent(options.output)
    let key = try KeyOptions.key(invocation, environment: context.environment, command: spec.name)
    var schema: Schema
    do {
      schema = try SchemaJSON.decode(try InputFiles.contents(of: options.schema))
    } catch let e as CanonicalDecodingError {
      throw RealmCtlError(.invalidInput, path: options.schema, "'\(options.schema)' is not a valid schema: \(e)")
    }
    if let version = options.schemaVersion { schema.schemaVersion = Int64(version) }
    let summary: RealmFileCreator.Summary
    let progress = ProgressCounter(unit: .bytes)
    let display = ProgressDisplay.start(
      "Creating \(options.output)", counter: progress, context: context, quiet: options.quiet)
    do {
      defer { display?.finish() }
      summary = try RealmFileCreator.create(
        output: options.output, schema: schema, dataPath: options.data, key: key, progress: progress)
    } catch let e as StorageError where e.code == .alreadyExists {
      throw RealmCtlError(.cannotCreateOutput, path: options.output, e.detail)
    }
    let counts = schema.classes.filter { !$0.isEmbedded }.map { "\($0.name) \(summary.perClass[$0.name] ?? 0)" }
    try context.standardOutput.writeLine(
      "Created \(options.output): schema version \(schema.schemaVersion.map(String.init) ?? "none"), "
        + "\(summary.objects) object\(summary.objects == 1 ? "" : "s")"
        + (counts.isEmpty ? "" : " (\(counts.joined(separator: ", ")))") + ", \(summary.fileSize) bytes"
        + (key == nil ? "" : ", encrypted"))
    return .success
  }
}
