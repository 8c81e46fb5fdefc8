import RealmModel
import RealmStorage
import RealmExport
import RealmQuery
import RealmJSON

/// `realmctl dump FILE [--format jsonl|json|csv|table|sql] [--class NAME] [--limit N] [--offset N]
/// [--where QUERY]`.
public struct DumpCommand: Command {
  /// How the objects are printed.
  public enum Format: String, Sendable, CaseIterable {
    /// Canonical JSON Lines, one object per line, streamed.
    case jsonl
    /// One pretty JSON document grouped by class.
    case json
    /// CSV of one class.
    case csv
    /// A table for people, cut to the terminal width.
    case table
    /// A SQLite script: tables, rows, indexes.
    case sql
  }

  /// The checked arguments of one run.
  public struct Options: Sendable, Equatable {
    /// The Realm file.
    public var file: String
    /// The output format (already defaulted from the terminal).
    public var format: Format
    /// Only this class, when given.
    public var className: String?
    /// At most this many objects (per class), when given.
    public var limit: Int?
    /// Objects to skip first (per class).
    public var offset: Int
    /// A Realm Query Language filter, when given.
    public var query: String?
    /// No progress on standard error.
    public var quiet = false
    /// Print the number of selected objects instead of the objects.
    public var count = false
    /// Print the keys of the selected objects, one a line, instead of the objects.
    public var keysOnly = false
    /// Print how the query would run instead of running it.
    public var explain = false
    /// The stable dump for line diffs (`--for-diff`).
    public var forDiff = false
  }

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "dump",
      abstract: "Print the objects of a Realm file.",
      discussion: """
        Objects are printed class by class (classes in name order, objects in key \
        order); embedded objects appear inside their parent. The file is opened \
        read-only.

        Formats:
          jsonl  canonical JSON Lines: one object per line, with its class and key;
                 streamed in constant memory; 'create' reads it back
          json   one pretty JSON document grouped by class
          csv    one class (needs --class) with a header row; collections and links
                 are JSON in their cell
          table  aligned columns for people, cut to the terminal width
          sql    a SQLite script: one table per class, child tables for lists,
                 sets and dictionaries, foreign keys for links; load it with
                 'sqlite3 new.db < dump.sql'

        The default format is table when standard output is a terminal and jsonl \
        otherwise (a pipe or a file). --limit and --offset count objects of each class \
        after the --where filter. Without --class, --where filters every class that has \
        the properties it names and leaves out the others (a note on stderr says which). It is \
        Realm Query Language, as Realm itself reads it, with SORT(...), DISTINCT(...) \
        and LIMIT(n) deciding which objects come out and in which order. --class may \
        name an embedded class: its objects are then listed on their own, with their \
        keys in the class's table.

        --count prints how many objects would be printed (with --class, the number \
        alone; otherwise one 'Class count' line per class) and --keys-only their keys, \
        one a line; neither decodes the objects. --explain prints how --where runs \
        instead of running it: the search indexes it uses (a primary key or an \
        indexed property compared with ==, IN or BEGINSWITH narrows the objects read), \
        the objects it reads and the order of the result.

        Examples:
          realmctl dump app.realm
          realmctl dump app.realm --class Person --limit 20
          realmctl dump app.realm --format jsonl > app.jsonl
          realmctl dump app.realm --format sql | sqlite3 app.sqlite
          realmctl dump app.realm --class Person --where "age >= 18"
          realmctl dump app.realm --class Person \\
            --where "name BEGINSWITH[c] 'a' AND dogs.@count > 0"
          realmctl dump app.realm --class Person --where "age > 30 SORT(age DESC) LIMIT(3)"
          realmctl dump app.realm --class Person --where "age >= 18" --count
          realmctl dump app.realm --class Person --where "id == 42" --explain
          realmctl dump app.realm --for-diff
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The Realm file to read."),
        .option(
          "format", valueName: "format", type: .choice(Format.allCases.map(\.rawValue)),
          help: "The output format (default: table on a terminal, jsonl otherwise)."),
        .option("class", valueName: "name", completion: .text, help: "Print only objects of the class <name>."),
        .option(
          "limit", valueName: "n", type: .integer(minimum: 0),
          help: "Print at most <n> objects of each class."),
        .option(
          "offset", valueName: "n", type: .integer(minimum: 0), default: "0",
          help: "Skip the first <n> objects of each class."),
        .option(
          "where", valueName: "query", completion: .text,
          help: "Print only objects matching this Realm Query Language filter."),
        .flag("count", help: "Print the number of selected objects instead of the objects."),
        .flag("keys-only", help: "Print the keys of the selected objects, one a line."),
        .flag("explain", help: "Print how --where would run (indexes, objects read, order); run nothing."),
        .flag("for-diff", help: "Print a stable dump for line diffs: sorted, one object a line, no object keys."),
        .quietFlag,
      ] + KeyOptions.arguments())
  }

  /// Reads the options from checked arguments; the format defaults from `terminal`.
  public func options(_ invocation: ParsedInvocation, terminal: Terminal) -> Options {
    let defaultFormat: Format = terminal.isStandardOutputTerminal ? .table : .jsonl
    return Options(
      file: invocation.string("file") ?? "",
      format: invocation.string("format").flatMap(Format.init(rawValue:)) ?? defaultFormat,
      className: invocation.string("class"), limit: invocation.integer("limit"),
      offset: invocation.integer("offset") ?? 0, query: invocation.string("where"),
      quiet: invocation.flag("quiet"), count: invocation.flag("count"), keysOnly: invocation.flag("keys-only"),
      explain: invocation.flag("explain"), forDiff: invocation.flag("for-diff"))
  }

  /// The writer format of RealmJSON for a `--format` value.
  static func dumpFormat(_ format: Format) -> DumpFormat {
    switch format {
    case .jsonl: .jsonl
    case .json: .json
    case .csv: .csv
    case .table: .table
    case .sql: .sql
    }
  }

  /// The writer of `options.format` for a dump of `classNames`: the SQL script creates the
  /// tables of those classes only, and says when `--limit`, `--offset` or `--where` leave
  /// objects out.
  static func makeWriter(
    _ options: Options, classNames: [String], sink: @escaping OutputSink, terminalWidth: Int
  ) -> any DumpWriter {
    guard options.format == .sql else {
      return dumpFormat(options.format).makeWriter(sink: sink, terminalWidth: terminalWidth)
    }
    return SQLDumpWriter(
      sink: sink,
      options: SQLDumpWriter.Options(
        classNames: classNames,
        isPartial: options.limit != nil || options.offset > 0 || options.query != nil))
  }

  /// The top-level classes whose objects hold objects of the embedded class `name`, directly
  /// or through other embedded objects.
  static func topLevelHolders(of name: String, in schema: Schema) -> [String] {
    var found: [String] = []
    var seen: Set<String> = [name]
    var queue = [name]
    while let target = queue.popLast() {
      for c in schema.classes where c.properties.contains(where: { $0.type == .object && $0.objectType == target }) {
        guard seen.insert(c.name).inserted else { continue }
        if c.isEmbedded { queue.append(c.name) } else { found.append(c.name) }
      }
    }
    return found.sorted()
  }

  /// `1 class`, `3 classes`.
  static func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let options = options(invocation, terminal: context.terminal)
    if options.format == .csv && options.className == nil {
      throw UsageError(
        .missingArgument, "The csv format prints one class: add '--class <name>'",
        command: spec.name)
    }
    if [options.count, options.keysOnly, options.explain].filter({ $0 }).count > 1 {
      throw UsageError(
        .invalidValue, "--count, --keys-only and --explain each replace the output: give one of them",
        command: spec.name)
    }
    if options.explain && options.className == nil {
      throw UsageError(.missingArgument, "--explain shows how one class is queried: add '--class <name>'", command: spec.name)
    }
    let key = try KeyOptions.key(invocation, environment: context.environment, command: spec.name)
    if options.forDiff {
      for name in ["format", "limit", "offset", "where", "count", "keys-only", "explain"] where invocation.isGiven(name) {
        throw UsageError(.unexpectedArgument, "--for-diff prints every object in its own form: it does not go with --\(name)", command: spec.name)
      }
      return try writeForDiff(options, key: key, context)
    }
    let file = try RealmInput.open(options.file, key: key)
    var dump: ObjectDump
    do {
      dump = try ObjectDump(file: file, selection: options.selection)
    } catch let error as QueryError {
      // A query is checked against the file, like a plan: a data error, not a usage error.
      throw RealmCtlError(.invalidInput, "--where: \(error.description)")
    }
    if let note = dump.plan?.note, !options.explain {
      try context.standardError.writeLine("realmctl: warning: \(options.file): \(note)")
    }
    if !dump.skippedByFilter.isEmpty {
      let shown = dump.classes.map(\.0.name)
      let skipped = dump.skippedByFilter
      let left = skipped.count <= 5 ? skipped.joined(separator: ", ") : Self.count(skipped.count, "class", "other classes")
      try context.standardError.writeLine(
        "realmctl: note: --where filters \(shown.joined(separator: ", ")); it leaves out \(left), "
          + "which lack\(skipped.count == 1 ? "s" : "") a property it names")
    }
    if options.explain || options.count || options.keysOnly {
      return try runWithoutObjects(dump, options, context)
    }
    if options.format == .sql, let embedded = dump.classes.first(where: { $0.0.isEmbedded })?.0 {
      // Its rows need the keys of the objects that hold them: they come with those.
      let holders = Self.topLevelHolders(of: embedded.name, in: dump.schema)
      throw RealmCtlError(
        .invalidInput, path: options.file,
        "class '\(embedded.name)' is embedded: the SQL export writes its objects with those of the classes "
          + "that hold them (\(holders.map { "--class \($0)" }.joined(separator: ", ")))")
    }
    let output = context.standardOutput
    let sink: OutputSink = { bytes in try output.write(bytes: bytes) }
    var writer = Self.makeWriter(
      options, classNames: dump.classes.map(\.0.name), sink: sink, terminalWidth: context.terminal.width)
    let progress = ProgressCounter()
    dump.progress = progress
    let display = ProgressDisplay.start(
      "Dumping \(options.file)", counter: progress, context: context, quiet: options.quiet,
      resultsShareTheTerminal: true)
    defer { display?.finish() }
    try dump.run(&writer)
    return .success
  }

  /// `--explain`, `--count` and `--keys-only`: text about the selected objects, not the objects.
  private func runWithoutObjects(_ dump: ObjectDump, _ options: Options, _ context: CommandContext) throws -> ExitCode {
    let out = context.standardOutput
    if options.explain {
      let plan = try dump.plan ?? dump.scanPlan()
      try out.writeLine(plan.description)
      return .success
    }
    if options.count {
      let counts = try dump.counts()
      if options.className != nil, let (_, n) = counts.first {
        try out.writeLine("\(n)")
      } else {
        for (cls, n) in counts { try out.writeLine("\(cls.name) \(n)") }
      }
      return .success
    }
    var text = JSONWriter(capacity: 1 << 16 + 32)
    try dump.forEachSelectedKey { _, key in
      text.writeInt(key)
      text.buffer.append(0x0A)
      if text.buffer.count >= 1 << 16 {
        try out.write(bytes: text.buffer)
        text.buffer.removeAll(keepingCapacity: true)
      }
    }
    try out.write(bytes: text.buffer)
    return .success
  }

  /// `--for-diff`: the ``StableDump``.
  private func writeForDiff(_ options: Options, key: EncryptionKey?, _ context: CommandContext) throws -> ExitCode {
    let file = try RealmInput.open(options.file, key: key)
    let schema = try RealmInput.schema(of: file)
    if let name = options.className {
      _ = try RealmInput.objectSchema(named: name, in: schema, path: options.file)
    }
    let output = context.standardOutput
    try RealmInput.reading(file.path) {
      try StableDump(file: file, schema: schema, className: options.className).run { try output.write(bytes: $0) }
    }
    return .success
  }
}

extension DumpCommand.Options {
  /// The objects these options select.
  var selection: ObjectDump.Selection {
    ObjectDump.Selection(className: className, query: query, offset: offset, limit: limit)
  }
}
