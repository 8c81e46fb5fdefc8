import RealmFormat
import RealmModel
import RealmStorage
import RealmQuery

/// The body of `realmctl dump`: which classes, which objects, in which writer.
///
/// Classes are the file's top-level classes in byte order of their names (or the one
/// `--class` names, which may be an embedded class: its objects are then listed on their own,
/// with their keys in the class's table); objects come in key order straight from the file
/// into the writer, which hands 64 KiB chunks of encoded bytes to standard output, so memory
/// stays flat whatever the size of the file. `--where` is a Realm Query Language query
/// (`RealmQuery`); `--offset` and `--limit` count the objects it selects. Without `--class`
/// the query filters every class that has the properties it names, and the others are left
/// out (``skippedByFilter``). A query with
/// SORT, DISTINCT or LIMIT is run first (it reads only the properties it needs and keeps the
/// selected keys), then its objects are read by key in the query's order. Formats that encode
/// objects independently go through ``ParallelDump`` (every object, or those a scanning query
/// selects, without `--offset` or `--limit`).
public struct ObjectDump {
  /// Which objects a dump prints.
  public struct Selection: Sendable {
    /// The one class to print (top-level or embedded), nil for every top-level class.
    public var className: String?
    /// A Realm Query Language filter on ``className``'s objects, nil for all. Without a
    /// class, it filters each class that has the properties it names.
    public var query: String?
    /// Objects of each class to skip (after filtering).
    public var offset: Int
    /// Objects of each class to print at most (after filtering), nil for all.
    public var limit: Int?

    /// A selection; by default every object of every top-level class.
    public init(className: String? = nil, query: String? = nil, offset: Int = 0, limit: Int? = nil) {
      self.className = className
      self.query = query
      self.offset = offset
      self.limit = limit
    }
  }

  /// The open file.
  public var file: RealmFile
  /// The schema of the file.
  public var schema: Schema
  /// The classes to print with their tables, in output order.
  public var classes: [(ObjectSchema, Table)]
  /// Objects of each class to skip (after filtering).
  public var offset: Int
  /// Objects of each class to print at most (after filtering), nil for all.
  public var limit: Int?
  /// The filter, compiled for the first class (the one class of `--class`). Setting it
  /// filters that class (its objects are then scanned: no ``plan``).
  public var query: RealmQuery? {
    get { classes.first.flatMap { filters[$0.0.name]?.query } }
    set {
      guard let name = classes.first?.0.name else { return }
      filters[name] = newValue.map { ($0, nil) }
    }
  }
  /// How the query finds the first class's objects (index lookups or a scan), made once when
  /// the dump is prepared.
  public var plan: QueryPlan? { classes.first.flatMap { filters[$0.0.name]?.plan } }
  /// The filter of each class and how it runs (nil: a scan), by class name.
  public var filters: [String: (query: RealmQuery, plan: QueryPlan?)] = [:]
  /// The classes a filter without `--class` leaves out, in file order: they lack a property
  /// the query names.
  public var skippedByFilter: [String] = []
  /// Counts the objects read (its total is set by ``run(_:)``); cancelling it stops the dump
  /// with `ProgressCancelled`.
  public var progress: ProgressCounter?
  /// Encodes classes on every core when the format allows it (see ``ParallelDump``); nil
  /// dumps object by object.
  public var parallel: ParallelDump? = ParallelDump.processorCount > 1 ? ParallelDump() : nil

  /// Prepares the dump of `file` for one selection.
  ///
  /// - Throws: `InputError` `invalidInput` for an unknown class, `QueryError` for a filter
  ///   that does not compile (without a class: for a class that has the properties it names,
  ///   or for every class), `StorageError` for a damaged file.
  public init(file: RealmFile, selection options: Selection) throws {
    self.file = file
    let group = file.group
    schema = try RealmInput.reading(file) { () throws(FormatError) in try group.schema() }
    if let name = options.className {
      let cls = try RealmInput.objectSchema(named: name, in: schema, path: file.path)
      classes = [(cls, try ObjectDump.table(of: cls, in: file))]
    } else {
      classes = try schema.classes.filter { !$0.isEmbedded }.map { ($0, try ObjectDump.table(of: $0, in: file)) }
    }
    offset = options.offset
    limit = options.limit
    guard let text = options.query else { return }
    if options.className != nil {
      for (cls, _) in classes {
        let query = try ObjectDump.compileFilter(text, for: cls, in: schema, group: group)
        filters[cls.name] = (query, try ObjectDump.plan(query, file: file))
      }
      return
    }
    var missing: [QueryError] = []
    var kept: [(ObjectSchema, Table)] = []
    for (cls, table) in classes {
      let query: RealmQuery
      do {
        query = try ObjectDump.compileFilter(text, for: cls, in: schema, group: group)
      } catch where error.missingProperty != nil {
        missing.append(error)
        skippedByFilter.append(cls.name)
        continue
      } catch {
        // The class has what the query names, but the query does not fit it.
        throw QueryError(column: error.column, message: "\(error.message) (in class '\(cls.name)')")
      }
      filters[cls.name] = (query, try ObjectDump.plan(query, file: file))
      kept.append((cls, table))
    }
    if kept.isEmpty, let first = missing.first {
      // Every class lacks something: the error with a suggestion is the likeliest typo.
      let best = missing.first { $0.message.contains("did you mean") } ?? first
      throw QueryError(
        column: best.column, message: "no class has every property the query names: \(best.message)",
        missingProperty: best.missingProperty)
    }
    classes = kept
  }

  /// The filter of `cls`, nil when its objects are not filtered.
  func filter(_ cls: ObjectSchema) -> (query: RealmQuery, plan: QueryPlan?)? { filters[cls.name] }

  /// The plan of `query` in `file`; a class missing from the file is a damaged file.
  static func plan(_ query: RealmQuery, file: RealmFile) throws -> QueryPlan {
    do {
      return try query.plan(in: file.group)
    } catch {
      throw StorageError.from(FormatError.corrupt(error.description), path: file.path)
    }
  }

  /// Compiles a filter for the objects of `cls`: the one place where a dump (and the shell)
  /// turns Realm Query Language into a query.
  public static func compileFilter(_ query: String, for cls: ObjectSchema, in schema: Schema, group: Group? = nil)
    throws(QueryError) -> RealmQuery
  {
    try RealmQuery(query, className: cls.name, schema: schema, group: group)
  }

  /// Writes every selected object with `writer`.
  public func run(_ writer: inout some DumpWriter) throws {
    // Saturating: a damaged file may claim absurd counts (the walk itself is bounded).
    progress?.setTotal(classes.reduce(0) { $0.addingReportingOverflow($1.1.objectCount).overflow ? .max : $0 + $1.1.objectCount })
    try writer.begin(schema: schema)
    for (cls, table) in classes {
      // A damaged tree is reported by the walk below.
      try writer.beginClass(cls, largestKey: (try? file.group.largestObjectKey(in: table)) ?? nil)
      if let (query, plan) = filter(cls), query.hasDescriptors {
        try writeSelected(by: query, plan: plan, cls, table, to: &writer)
      } else {
        try writeObjects(of: cls, table, to: &writer)
      }
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
    let (query, plan) = (filter(cls)?.query, filter(cls)?.plan ?? nil)
    if let parallel, limit == nil, offset == 0, let encoder = writer.chunkEncoder() {
      // Every object, or those a query's scan selects: filtered, decoded and encoded on
      // every core, written in key order.
      var scan: RealmQuery.ScanFilter?
      if let query, let plan { try evaluating(cls) { scan = try query.scanFilter(in: group, plan: plan) } }
      if query == nil || scan != nil {
        try RealmInput.reading(file.path) {
          try evaluating(cls) {
            try parallel.writeObjects(of: table, in: group, encoder: encoder, matching: scan, progress: progress, to: &writer)
          }
        }
        return
      }
    }
    var printed = 0
    var toSkip = offset
    do {
      try RealmInput.reading(file.path) {
        if let query {
          try evaluating(cls) {
            try query.forEachMatch(in: group, plan: plan, progress: progress) { key, values in
              if toSkip > 0 {
                toSkip -= 1
                return
              }
              try writer.writeObject(key: key, values: values)
              printed += 1
              if let limit, printed >= limit { throw LimitReached() }
            }
          }
          return
        }
        var ticker = ProgressTicker(progress)
        defer { ticker.flush() }
        progress?.add(min(offset, table.objectCount))
        // Without a filter the reader skips leading objects without decoding them.
        try group.forEachObject(in: table, skip: offset) { key, values in
          try ticker.tickCheckingCancellation()
          try writer.writeObject(key: key, values: values)
          printed += 1
          if let limit, printed >= limit { throw LimitReached() }
        }
      }
    } catch is LimitReached {
      return
    }
  }

  /// Runs `body`, turning a failure of the query's evaluation into an input error naming
  /// the class (damage, cancellation and the caller's own errors pass through).
  private func evaluating(_ cls: ObjectSchema, _ body: () throws -> Void) throws {
    do {
      try body()
    } catch let failure as QueryEvaluationError {
      throw InputError(.invalidInput, path: file.path, "--where failed on \(cls.name): \(failure)")
    }
  }

  /// Calls `body` with the key of every object the dump selects, in output order, without
  /// decoding the objects (only the properties the query reads).
  public func forEachSelectedKey(_ body: (_ cls: ObjectSchema, _ key: Int64) throws -> Void) throws {
    for (cls, table) in classes {
      if limit == 0 { continue }
      let (query, plan) = (filter(cls)?.query, filter(cls)?.plan ?? nil)
      try RealmInput.reading(file.path) {
        try evaluating(cls) {
          let keys: [Int64]
          if let query, query.hasDescriptors {
            keys = try query.objectKeys(in: file.group, plan: plan, progress: progress)
          } else if let query {
            var selected = 0
            var toSkip = offset
            do {
              try query.forEachMatchingKey(in: file.group, plan: plan, progress: progress) { key in
                if toSkip > 0 {
                  toSkip -= 1
                  return
                }
                try body(cls, key)
                selected += 1
                if let limit, selected >= limit { throw LimitReached() }
              }
            } catch is LimitReached {}
            return
          } else {
            var n = 0
            do {
              try file.group.forEachObject(in: table, skip: offset, columns: []) { key, _ in
                try body(cls, key)
                n += 1
                if let limit, n >= limit { throw LimitReached() }
              }
            } catch is LimitReached {}
            return
          }
          for key in keys.dropFirst(offset).prefix(limit ?? Int.max) { try body(cls, key) }
        }
      }
    }
  }

  /// The plan of a dump without `--where`: a scan of the one class.
  public func scanPlan() throws -> QueryPlan {
    guard let (cls, _) = classes.first else { throw InputError(.invalidInput, path: file.path, "no class to explain") }
    let query = try ObjectDump.compileFilter("TRUEPREDICATE", for: cls, in: schema, group: file.group)
    return try ObjectDump.plan(query, file: file)
  }

  /// The number of objects the dump selects in each class, without decoding objects.
  public func counts() throws -> [(ObjectSchema, Int)] {
    var out: [(ObjectSchema, Int)] = []
    for (cls, table) in classes {
      let n: Int
      if let (query, plan) = filter(cls) {
        if !query.hasDescriptors, offset == 0, limit == nil {
          n = try RealmInput.reading(file.path) {
            var count = 0
            try evaluating(cls) { count = try query.count(in: file.group, plan: plan, progress: progress) }
            return count
          }
        } else {
          var count = 0
          try forEachSelectedKey { c, _ in if c.name == cls.name { count += 1 } }
          n = count
        }
      } else {
        n = min(limit ?? Int.max, max(0, table.objectCount - offset))
      }
      out.append((cls, n))
    }
    return out
  }

  /// Runs a query with SORT, DISTINCT or LIMIT, then prints its objects in its order.
  private func writeSelected(
    by query: RealmQuery, plan: QueryPlan?, _ cls: ObjectSchema, _ table: Table, to writer: inout some DumpWriter
  ) throws {
    let group = file.group
    try RealmInput.reading(file.path) {
      var keys: [Int64] = []
      try evaluating(cls) { keys = try query.objectKeys(in: group, plan: plan, progress: progress) }
      for key in keys.dropFirst(offset).prefix(limit ?? Int.max) {
        guard let values = try group.object(in: table, key: key) else { continue }
        try writer.writeObject(key: key, values: values)
      }
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
