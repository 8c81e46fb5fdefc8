import RealmFormat
import RealmJSON
import RealmMigration
import RealmStorage

/// The body of `realmctl dump`: which classes, which objects, in which writer.
///
/// Classes are the file's top-level classes in byte order of their names (or the one
/// `--class` names); objects come in key order straight from the file into the writer, which
/// hands 64 KiB chunks of encoded bytes to standard output, so memory stays flat whatever the
/// size of the file. `--offset` and `--limit` count the objects of each class that pass the
/// `--where` filter.
struct ObjectDump {
  /// The open file.
  var file: RealmFile
  /// The schema of the file.
  var schema: Schema
  /// The classes to print with their tables, in output order.
  var classes: [(ObjectSchema, Table)]
  /// Objects of each class to skip (after filtering).
  var offset: Int
  /// Objects of each class to print at most (after filtering), nil for all.
  var limit: Int?
  /// The `--where` filter, compiled for the one class.
  var filter: CompiledPredicate?
  /// Counts the objects read (its total is set by ``run(_:)``); cancelling it stops the dump
  /// with ``ProgressCancelled``.
  var progress: ProgressCounter?

  /// Prepares the dump of `file` for the options of one run.
  ///
  /// - Throws: ``RealmCtlError`` `invalidInput` for an unknown or embedded `--class`,
  ///   ``UsageError`` for a `--where` that does not compile, ``StorageError`` for a damaged file.
  init(file: RealmFile, options: DumpCommand.Options) throws {
    self.file = file
    let group = file.group
    schema = try RealmInput.reading(file) { () throws(FormatError) in try group.schema() }
    if let name = options.className {
      let cls = try RealmInput.objectSchema(named: name, in: schema, path: options.file)
      guard !cls.isEmbedded else {
        throw RealmCtlError(
          .invalidInput, path: options.file,
          "class '\(name)' is embedded: its objects are printed inside their parents; dump the parent class instead")
      }
      classes = [(cls, try ObjectDump.table(of: cls, in: file))]
    } else {
      classes = try schema.classes.filter { !$0.isEmbedded }.map { ($0, try ObjectDump.table(of: $0, in: file)) }
    }
    offset = options.offset
    limit = options.limit
    if let query = options.query, let (cls, _) = classes.first {
      do {
        filter = try ObjectDump.compileFilter(query, for: cls, in: schema)
      } catch {
        throw UsageError(
          .invalidValue, "The value '\(query)' is invalid for '--where <query>': \(error.description)",
          helpLine: "--where <query>  Print only objects of --class matching this Realm Query Language filter.",
          command: "dump")
      }
    }
  }

  /// Compiles a `--where` query for the objects of `cls`: the one place where `dump` and the
  /// shell turn Realm Query Language into a filter.
  static func compileFilter(_ query: String, for cls: ObjectSchema, in schema: Schema) throws(ExpressionError)
    -> CompiledPredicate
  {
    try ExpressionCompiler(schema: schema, objectSchema: cls).compilePredicate(query)
  }

  /// Writes every selected object with `writer`.
  func run(_ writer: inout some DumpWriter) throws {
    // Saturating: a damaged file may claim absurd counts (the walk itself is bounded).
    progress?.setTotal(classes.reduce(0) { $0.addingReportingOverflow($1.1.objectCount).overflow ? .max : $0 + $1.1.objectCount })
    try writer.begin(schema: schema)
    for (cls, table) in classes {
      try writer.beginClass(cls)
      try writeObjects(of: cls, table, to: &writer)
      try writer.endClass()
    }
    try writer.finish()
  }

  // MARK: - Private

  /// Thrown by the per-object body to end a class once `--limit` objects are printed.
  private struct LimitReached: Error {}

  private func writeObjects(of cls: ObjectSchema, _ table: Table, to writer: inout some DumpWriter) throws {
    if limit == 0 { return }
    let group = file.group
    var printed = 0
    var toSkip = offset
    var context = EvaluationContext(resolver: GroupObjectResolver(file: file))
    var ticker = ProgressTicker(progress)
    defer { ticker.flush() }
    if filter == nil { progress?.add(min(offset, table.objectCount)) }
    do {
      try RealmInput.readingObjects(file) {
        // Without a filter the reader skips leading objects without decoding them.
        try group.forEachObject(in: table, skip: filter == nil ? offset : 0) { key, values in
          try ticker.tickCheckingCancellation()
          if let filter {
            context.old = values
            defer { context.old = [] }
            let matches: Bool
            do throws(EvaluationError) {
              matches = try filter.matches(&context)
            } catch {
              // A damaged link target is the file's fault: report it as such.
              if let damage = error.underlying as? StorageError { throw damage }
              throw RealmCtlError(
                .invalidInput, path: file.path,
                "--where failed on \(cls.name) object \(key): \(error.description)")
            }
            guard matches else { return }
            if toSkip > 0 {
              toSkip -= 1
              return
            }
          }
          try writer.writeObject(key: key, values: values)
          printed += 1
          if let limit, printed >= limit { throw LimitReached() }
        }
      }
    } catch is LimitReached {
      return
    }
  }

  /// The table of a class of the schema (the schema was read from the same group).
  private static func table(of cls: ObjectSchema, in file: RealmFile) throws(StorageError) -> Table {
    guard let table = file.group.table(forClass: cls.name) else {
      throw StorageError.from(FormatError.corrupt("class '\(cls.name)' has no table"), path: file.path)
    }
    return table
  }
}

/// Follows links for `--where` paths such as `owner.name` by looking objects up in the file.
struct GroupObjectResolver: ObjectResolver {
  /// The open file.
  var file: RealmFile

  func values(of link: ObjectLink) throws -> [RealmValue]? {
    guard let table = file.group.table(forClass: link.className) else { return nil }
    return try RealmInput.reading(file) { () throws(FormatError) in
      try file.group.object(in: table, key: link.key)
    }
  }
}

extension RealmInput {
  /// Runs an object walk: a ``FormatError`` from the file becomes a ``StorageError`` naming
  /// it; errors of the caller's body (output, filter, limit) pass through unchanged.
  static func readingObjects(_ file: RealmFile, _ body: () throws -> Void) throws {
    do {
      try body()
    } catch let error as FormatError {
      throw StorageError.from(error, path: file.path)
    }
  }
}
