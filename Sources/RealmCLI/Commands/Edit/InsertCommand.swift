import RealmStorage
import RealmEdit

/// `realmctl insert FILE DATA [--upsert] [--class C] [--format jsonl|csv] [--dry-run] [--backup PATH] [--json]`.
public struct InsertCommand: Command {
  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "insert",
      abstract: "Insert or upsert objects from JSON Lines or CSV into a Realm file.",
      discussion: """
        Reads objects in the shape 'realmctl dump --format jsonl' prints ($class on every \
        line, links as {"$ref":"Dog","$key":3}, embedded objects inline; $key optional), \
        or, with --class, the rows of a CSV file whose header names the properties. \
        Properties a line leaves out are null (optional), empty (collections) or an \
        error (required).

        New objects get the keys Realm gives (or their $key); existing objects keep \
        theirs. An object whose primary key (or $key, for a class without a primary key) \
        exists is an error naming it, unless --upsert is given: then the properties the \
        line gives are set on the existing object. Everything is checked before anything \
        is written: types, required properties, primary keys, link targets; the first \
        bad value is reported with its line, property and reason, and the file is left \
        untouched (exit status 65). The schema and its version never change; the file is \
        replaced atomically.

        Examples:
          realmctl insert app.realm people.jsonl
          realmctl insert app.realm fixes.jsonl --upsert --dry-run
          realmctl insert app.realm people.csv --class Person
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The Realm file to change."),
        .positional(
          "data", completion: .files(extensions: ["jsonl", "json", "csv"]),
          help: "The objects: JSON Lines in the dump's shape, or CSV with --class."),
        .flag("upsert", help: "Update objects whose primary key (or $key) exists; insert the others."),
        .option(
          "class", valueName: "name", completion: .text,
          help: "The class of the rows of a CSV file (header row = property names)."),
        .option(
          "format", valueName: "format", type: .choice(["jsonl", "csv"]),
          help: "The data's format (default: csv for a .csv file or with --class, else jsonl)."),
      ] + EditOptions.arguments(purpose: "of the Realm file"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let file = invocation.string("file") ?? ""
    let data = invocation.string("data") ?? ""
    try InputFiles.requireReadableFile(file)
    try InputFiles.requireReadableFile(data)
    let className = invocation.string("class")
    let isCSV = invocation.string("format").map { $0 == "csv" } ?? (className != nil || data.lowercased().hasSuffix(".csv"))
    if isCSV && className == nil {
      throw UsageError(.missingArgument, "CSV data needs '--class <name>': the class of its rows", command: spec.name)
    }
    if !isCSV && className != nil {
      throw UsageError(
        .unexpectedArgument, "'--class' names the class of CSV rows; JSON Lines name theirs with $class", command: spec.name)
    }
    let mode: InsertMode = invocation.flag("upsert") ? .upsert : .insert
    let options = try EditOptions.migrationOptions(invocation, context: context, command: spec.name)
    return try EditOptions.run(invocation, context: context, verb: "insert", file: file, options: options) { o in
      guard let className else { return try DataEditor.insert(path: file, jsonLines: data, mode: mode, options: o) }
      return try DataEditor.insert(path: file, mode: mode, options: o) { schema in
        try CSVObjectDecoder.objects(path: data, className: className, schema: schema)
      }
    }
  }
}
