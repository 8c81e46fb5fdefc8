import RealmJSON
import RealmStorage
import RealmModel
import RealmEdit

/// `realmctl create OUT --schema SCHEMA.json [--data DATA.jsonl|DATA.csv --class C]... [--schema-version N]`.
public struct CreateCommand: Command {
  /// The checked arguments of one run.
  public struct Options: Sendable, Equatable {
    /// The Realm file to write.
    public var output: String
    /// The schema JSON file.
    public var schema: String
    /// The data files (canonical JSON Lines, or CSV with `--class`), in order.
    public var data: [String]
    /// The classes of the CSV data files, in order.
    public var classes: [String] = []
    /// The schema version to record (default 0).
    public var schemaVersion: Int?
    /// No progress on standard error.
    public var quiet = false
    /// The file format to write (default 24).
    public var fileFormat: WritableFileFormat = .current
  }

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "create",
      abstract: "Write a new Realm file from a schema and JSON Lines data.",
      discussion: """
        Builds a Realm file (file format 24, or the one --file-format names) from the schema JSON that 'realmctl schema \
        --format json' prints and, optionally, the canonical JSON Lines that 'realmctl \
        dump --format jsonl' prints, so test fixtures can live in git as reviewable text. \
        Dumping the new file gives the data back. The output must not exist yet.

        --data may be given several times. A .csv file holds the rows of one class, \
        named by --class (one --class per CSV file, in the same order, or one for all): \
        a header row of property names (and $key, optionally), then one object per row, \
        as 'realmctl dump --format csv' prints them.

        Examples:
          realmctl create people.realm --schema schema.json --data people.jsonl
          realmctl create seed.realm --schema schema.json --data people.csv --class Person
          realmctl create empty.realm --schema schema.json --schema-version 3
          realmctl create app.realm --schema schema.json --data app.jsonl --file-format 23
        """,
      arguments: [
        .positional("out", completion: .realmFile, help: "The Realm file to create."),
        .option(
          "schema", valueName: "schema", isRequired: true, completion: .files(extensions: ["json"]),
          help: "The schema JSON file (as printed by 'schema --format json')."),
        .option(
          "data", valueName: "data", isRepeating: true, completion: .files(extensions: ["jsonl", "json", "csv"]),
          help: "Objects to insert, as canonical JSON Lines (as printed by 'dump --format jsonl') or CSV (with --class); may be repeated."),
        .option(
          "class", valueName: "name", isRepeating: true, completion: .text,
          help: "The class of the rows of each CSV data file, in order."),
        .option(
          "schema-version", valueName: "n", type: .integer(minimum: 0),
          help: "The schema version of the new file (default: the schema JSON's 'schemaVersion')."),
        FileFormatOption.argument(default: "Default: \(WritableFileFormat.current)."),
        .quietFlag,
      ] + KeyOptions.arguments(purpose: "to encrypt the new file with"))
  }

  /// Reads the options from checked arguments.
  public func options(_ invocation: ParsedInvocation) throws -> Options {
    Options(
      output: invocation.string("out") ?? "", schema: invocation.string("schema") ?? "",
      data: invocation.strings("data"), classes: invocation.strings("class"), schemaVersion: invocation.integer("schema-version"),
      quiet: invocation.flag("quiet"),
      fileFormat: try FileFormatOption.format(invocation, command: spec.name) ?? .current)
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let options = try options(invocation)
    try InputFiles.requireReadableFile(options.schema)
    for data in options.data { try InputFiles.requireReadableFile(data) }
    let dataFiles = try self.dataFiles(options)
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
        output: options.output, schema: schema, data: dataFiles, fileFormat: options.fileFormat, key: key,
        progress: progress)
    } catch let e as StorageError where e.code == .alreadyExists {
      throw RealmCtlError(.cannotCreateOutput, path: options.output, e.detail)
    }
    let counts = schema.classes.filter { !$0.isEmbedded }.map { "\($0.name) \(summary.perClass[$0.name] ?? 0)" }
    try context.standardOutput.writeLine(
      "Created \(options.output): schema version \(schema.schemaVersion.map(String.init) ?? "none"), "
        + "\(summary.objects) object\(summary.objects == 1 ? "" : "s")"
        + (counts.isEmpty ? "" : " (\(counts.joined(separator: ", ")))") + ", \(summary.fileSize) bytes"
        + (key == nil ? "" : ", encrypted") + (options.fileFormat == .current ? "" : ", file format \(options.fileFormat)"))
    return .success
  }

  /// The data files with their kinds: `.csv` files take the `--class` values in order (or the
  /// single one given).
  func dataFiles(_ options: Options) throws -> [RealmFileCreator.DataFile] {
    let csvCount = options.data.filter { $0.lowercased().hasSuffix(".csv") }.count
    guard options.classes.count == csvCount || (options.classes.count == 1 && csvCount > 0) else {
      throw UsageError(
        .invalidValue,
        csvCount == 0
          ? "'--class' names the class of CSV data files, and no --data file ends in .csv"
          : "\(csvCount) CSV data file\(csvCount == 1 ? "" : "s") need\(csvCount == 1 ? "s" : "") \(csvCount == 1 ? "a" : "one") '--class <name>' each (or one for all), \(options.classes.count) given",
        command: spec.name)
    }
    var next = 0
    return options.data.map { path in
      guard path.lowercased().hasSuffix(".csv") else { return .jsonLines(path) }
      defer { next += 1 }
      return .csv(path, className: options.classes.count == 1 ? options.classes[0] : options.classes[next])
    }
  }
}
