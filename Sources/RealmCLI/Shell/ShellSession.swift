import RealmModel
import RealmStorage
import RealmExport
import RealmQuery
import RealmEdit

/// The commands of `realmctl shell`, one line at a time, over one open Realm file.
///
/// A line is a dot command (`.classes`, `.schema [CLASS]`, `.count CLASS [WHERE …]`,
/// `.explain CLASS WHERE …`, `.mode`,
/// `.limit`, `.show`, `.help`, `.quit`) or a query, `CLASS` or `CLASS WHERE <query>`, printed
/// in the current mode. Queries run through the same code as `dump --class C --where Q`
/// (``ObjectDump``), so they understand the same Realm Query Language. The statements
/// `INSERT`, `UPSERT`, `UPDATE`, `DELETE`, `BEGIN`, `COMMIT` and `ROLLBACK` edit the file
/// (``ShellSession+Statements``).
final class ShellSession {
  /// What a line asks the loop to do next.
  enum Outcome: Equatable {
    case proceed
    case quit
  }

  /// The file's path as given.
  let path: String
  /// The file queries read: the realm, or the working copy of the open transaction.
  var file: RealmFile
  var schema: Schema
  let context: CommandContext
  /// The realm's encryption key, for edits and for reopening it after one.
  let key: EncryptionKey?
  /// The open `BEGIN` ... `COMMIT`, if any.
  var transaction: EditTransaction?
  /// Test hook for crash injection in `COMMIT` and in the writes of statements.
  var faultInjection: (@Sendable (FaultPoint) -> FaultAction)?
  /// How objects are printed.
  var mode: DumpCommand.Format
  /// At most this many objects per query (nil: all).
  var limit: Int?
  /// Counts the objects a query reads; cancelling it (Ctrl-C) stops the query.
  var progress: ProgressCounter?

  /// The dot commands with their arguments and help, in `.help` order.
  static let commands: [(name: String, arguments: String, help: String)] = [
    (".classes", "", "List the classes with their object counts"),
    (".schema", "[CLASS]", "Show the schema of every class, or of CLASS"),
    (".count", "CLASS [WHERE QUERY]", "Count the objects of CLASS (matching QUERY)"),
    (".explain", "CLASS WHERE QUERY", "Show how QUERY runs: indexes used, objects read, order"),
    (".mode", "[table|jsonl|json|csv|sql]", "Show or set how objects are printed"),
    (".limit", "[N|off]", "Show or set the most objects a query prints"),
    (".show", "", "Show the current settings"),
    (".help", "", "Show this help"),
    (".quit", "", "Leave the shell (also .exit, or Ctrl-D)"),
  ]

  /// Opens a session on `file`.
  init(
    path: String, file: RealmFile, context: CommandContext, mode: DumpCommand.Format, limit: Int?,
    key: EncryptionKey? = nil
  ) throws {
    self.path = path
    self.file = file
    self.key = key
    self.context = context
    self.mode = mode
    self.limit = limit
    schema = try RealmInput.schema(of: file)
  }

  /// Names of the top-level classes, in the file's order.
  var classNames: [String] { schema.classes.map(\.name) }

  /// Runs one line. Errors are thrown for the caller to print; the session stays usable.
  func execute(_ line: String) throws -> Outcome {
    var text = line.trimmingSpaces()
    while text.hasSuffix(";") { text = String(text.dropLast()).trimmingSpaces() }
    if text.isEmpty || text.hasPrefix("#") || text.hasPrefix("--") { return .proceed }
    if text.hasPrefix(".") { return try dotCommand(text) }
    if let statement = try Statement.parse(text) {
      try run(statement)
      return .proceed
    }
    let (className, query) = try Self.splitQuery(text)
    try runQuery(className, query)
    return .proceed
  }

  // MARK: - Dot commands

  private func dotCommand(_ text: String) throws -> Outcome {
    let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
    let name = words[0]
    let arguments = Array(words.dropFirst())
    switch name {
    case ".quit", ".exit", ".q":
      return .quit
    case ".help", ".h":
      try printHelp()
    case ".classes", ".tables":
      try expect(arguments, atMost: 0, name)
      try printClasses()
    case ".schema":
      try expect(arguments, atMost: 1, name)
      try printSchema(arguments.first)
    case ".count":
      let rest = text.dropFirst(name.count).trimmingSpaces()
      guard !rest.isEmpty else {
        throw UsageError(.missingArgument, ".count needs a class: .count CLASS [WHERE QUERY]")
      }
      let (className, query) = try Self.splitQuery(rest)
      try output("\(try count(className, query))")
    case ".explain":
      let rest = text.dropFirst(name.count).trimmingSpaces()
      guard !rest.isEmpty else {
        throw UsageError(.missingArgument, ".explain needs a query: .explain CLASS WHERE QUERY")
      }
      let (className, query) = try Self.splitQuery(rest)
      try output(try explain(className, query))
    case ".mode":
      try expect(arguments, atMost: 1, name)
      guard let value = arguments.first else {
        try output(mode.rawValue)
        return .proceed
      }
      guard let newMode = DumpCommand.Format(rawValue: value.lowercased()) else {
        let modes = DumpCommand.Format.allCases.map(\.rawValue)
        throw UsageError(
          .invalidValue,
          "unknown mode '\(value)'; the modes are \(modes.joined(separator: ", "))")
      }
      mode = newMode
    case ".limit":
      try expect(arguments, atMost: 1, name)
      guard let value = arguments.first else {
        try output(limit.map(String.init) ?? "off")
        return .proceed
      }
      if ["off", "none", "0"].contains(value.lowercased()) {
        limit = nil
      } else if let n = Int(value), n > 0 {
        limit = n
      } else {
        throw UsageError(.invalidValue, "'\(value)' is not a limit: give a positive number or 'off'")
      }
    case ".show":
      try expect(arguments, atMost: 0, name)
      try output(
        """
        file:  \(path)
        mode:  \(mode.rawValue)
        limit: \(limit.map(String.init) ?? "off")
        """)
    default:
      var message = "unknown command '\(name)'"
      if let close = Suggestion.closest(to: name, among: Self.commands.map(\.name), rule: .option) {
        message += " (did you mean '\(close)'?)"
      }
      throw UsageError(.unknownOption, message + "; .help lists the commands")
    }
    return .proceed
  }

  private func expect(_ arguments: [String], atMost count: Int, _ name: String) throws {
    guard arguments.count > count else { return }
    let usage = Self.commands.first { $0.name == name }.map { "\($0.name) \($0.arguments)" } ?? name
    throw UsageError(
      .unexpectedArgument,
      "unexpected '\(arguments[count])' after \(name); usage: \(usage.trimmingSpaces())")
  }

  private func printHelp() throws {
    let width = Self.commands.map { $0.name.count + 1 + $0.arguments.count }.max() ?? 0
    var lines = Self.commands.map { command -> String in
      let label = command.arguments.isEmpty ? command.name : "\(command.name) \(command.arguments)"
      return label + String(repeating: " ", count: width - label.count + 2) + command.help
    }
    lines += [
      "",
      "CLASS [WHERE QUERY]   Print the objects of CLASS (matching the Realm Query",
      "                      Language QUERY), e.g. Person WHERE age >= 18",
      "",
      "INSERT [INTO CLASS] JSON           Insert an object (a dump line)",
      "UPSERT [INTO CLASS] JSON           Insert it, or update the object with its key",
      "UPDATE CLASS SET P = EXPR[, ...] [WHERE QUERY]",
      "                                   Set properties (expressions as in plans)",
      "DELETE FROM CLASS [WHERE QUERY]    Delete objects (and their embedded objects)",
      "BEGIN, COMMIT, ROLLBACK            Group statements: all or nothing",
    ]
    try output(lines.joined(separator: "\n"))
  }

  private func printClasses() throws {
    let counts = file.objectCounts
    let width = classNames.map(\.count).max() ?? 0
    let lines = schema.classes.map { cls -> String in
      let n = counts[cls.name] ?? 0
      let padding = String(repeating: " ", count: width - cls.name.count + 2)
      return cls.name + padding + "\(n) object\(n == 1 ? "" : "s")" + (cls.isEmbedded ? " (embedded)" : "")
    }
    try output(lines.isEmpty ? "(no classes)" : lines.joined(separator: "\n"))
  }

  private func printSchema(_ className: String?) throws {
    var shown = schema
    if let className {
      shown.classes = [try RealmInput.objectSchema(named: className, in: schema, path: path)]
    }
    let counts = file.objectCounts
    try context.standardOutput.write(bytes: SchemaFormat.text.render(shown, objectCounts: counts))
  }

  // MARK: - Queries

  /// `Person` or `Person WHERE age > 3` (WHERE in any case): the class and the query.
  static func splitQuery(_ text: String) throws -> (className: String, query: String?) {
    let words = text.split(maxSplits: 1, whereSeparator: \.isWhitespace)
    let className = String(words[0])
    guard words.count > 1 else { return (className, nil) }
    let rest = words[1].trimmingSpaces()
    let keyword = rest.prefix { !$0.isWhitespace }
    guard keyword.lowercased() == "where" else {
      throw UsageError(
        .unexpectedArgument,
        "expected WHERE after the class name '\(className)', found '\(keyword)'; write CLASS WHERE QUERY")
    }
    let query = rest.dropFirst(keyword.count).trimmingSpaces()
    guard !query.isEmpty else { throw UsageError(.missingArgument, "WHERE needs a query: \(className) WHERE age > 3") }
    return (className, query)
  }

  /// Prints the objects of `className` matching `query` in the current mode and limit.
  func runQuery(_ className: String, _ query: String?) throws {
    let options = try dumpOptions(className, query, limit: limit.map { $0 + 1 })
    var dump = try ObjectDump(file: file, selection: options.selection)
    dump.progress = progress
    let out = context.standardOutput
    let inner = DumpCommand.makeWriter(
      options, classNames: dump.classes.map(\.0.name), sink: { bytes in try out.write(bytes: bytes) },
      terminalWidth: context.terminal.width)
    var writer = LimitedWriter(inner: inner, limit: limit)
    try dump.run(&writer)
    guard context.terminal.isStandardOutputTerminal else { return }
    if writer.cut {
      try context.standardOutput.flush()
      try context.standardError.writeLine(
        "(the first \(limit ?? 0) objects; .limit N or .limit off shows more)")
    }
    if let plan = dump.plan, plan.usesIndex || plan.note != nil {
      try context.standardOutput.flush()
      try context.standardError.writeLine("(\(plan.note ?? plan.summary))")
    }
  }

  /// How `query` runs on the objects of `className` (``QueryPlan``).
  func explain(_ className: String, _ query: String?) throws -> String {
    let options = try dumpOptions(className, query, limit: nil)
    let dump = try ObjectDump(file: file, selection: options.selection)
    return try (dump.plan ?? dump.scanPlan()).description
  }

  /// The number of objects of `className` matching `query`.
  func count(_ className: String, _ query: String?) throws -> Int {
    let options = try dumpOptions(className, query, limit: nil)
    if query == nil, let count = file.objectCount(ofClass: options.className ?? "") {
      return count
    }
    var dump = try ObjectDump(file: file, selection: options.selection)
    dump.progress = progress
    return try dump.counts().first?.1 ?? 0
  }

  /// The options of the `dump` that runs a query; a query that does not compile is reported
  /// with its column.
  private func dumpOptions(_ className: String, _ query: String?, limit: Int?) throws
    -> DumpCommand.Options
  {
    let cls = try RealmInput.objectSchema(named: className, in: schema, path: path)
    if cls.isEmbedded {
      throw RealmCtlError(
        .invalidInput, path: path,
        "class '\(cls.name)' is embedded: its objects are printed inside their parents; query the parent class instead")
    }
    if let query {
      do {
        _ = try ObjectDump.compileFilter(query, for: cls, in: schema)
      } catch {
        throw UsageError(.invalidValue, "invalid query '\(query)': \(error.description)")
      }
    }
    return DumpCommand.Options(
      file: path, format: mode, className: cls.name, limit: limit, offset: 0, query: query)
  }

  private func output(_ text: String) throws {
    try context.standardOutput.writeLine(text)
  }
}

/// Passes at most `limit` objects to `inner` and remembers whether there were more.
struct LimitedWriter: DumpWriter {
  var inner: any DumpWriter
  let limit: Int?
  private var written = 0
  /// Whether an object beyond the limit was seen.
  private(set) var cut = false

  init(inner: any DumpWriter, limit: Int?) {
    self.inner = inner
    self.limit = limit
  }

  mutating func begin(schema: Schema) throws { try inner.begin(schema: schema) }
  mutating func beginClass(_ objectSchema: ObjectSchema) throws { try inner.beginClass(objectSchema) }
  mutating func writeObject(key: Int64, values: [RealmValue]) throws {
    if let limit, written >= limit {
      cut = true
      return
    }
    written += 1
    try inner.writeObject(key: key, values: values)
  }
  mutating func endClass() throws { try inner.endClass() }
  mutating func finish() throws { try inner.finish() }
}

/// Counts objects instead of printing them.
struct CountingWriter: DumpWriter {
  private(set) var count = 0
  mutating func begin(schema: Schema) throws {}
  mutating func beginClass(_ objectSchema: ObjectSchema) throws {}
  mutating func writeObject(key: Int64, values: [RealmValue]) throws { count += 1 }
  mutating func endClass() throws {}
  mutating func finish() throws {}
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs.
  func trimmingSpaces() -> String {
    var slice = self[...]
    while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
    while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
    return String(slice)
  }
}
