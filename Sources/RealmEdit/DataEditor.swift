import RealmFormat
import RealmModel
import RealmQuery
import RealmStorage
import RealmMigration
import RealmRewrite

/// Edits the objects of a realm without touching its schema: the library behind
/// `realmctl insert`, `update` and `delete` and the shell's `INSERT`, `UPDATE` and `DELETE`.
///
/// Every edit holds the realm's lock from the first read to the end of the write, checks
/// everything before writing, keeps the schema version, and writes through the migrator's
/// paths (the in-place column edit where it fits, else the rewrite that atomically replaces
/// the file), so an error or a crash leaves the file as it was.
public enum DataEditor {
  /// One `prop = EXPR` of an update.
  public struct Assignment: Sendable, Equatable {
    /// The property set.
    public var property: String
    /// The expression (the language of a plan's `transform`).
    public var expression: String
    /// Creates an assignment.
    public init(property: String, expression: String) {
      self.property = property
      self.expression = expression
    }

    /// Parses `prop = EXPR` (spaces around `=` optional); nil when there is no `=` after a name.
    public static func parse(_ text: String) -> Assignment? {
      guard let eq = text.firstIndex(of: "=") else { return nil }
      let name = text[..<eq].trimmingCharacters(in: " \t")
      let expr = text[text.index(after: eq)...].trimmingCharacters(in: " \t")
      guard !name.isEmpty, !expr.isEmpty, !expr.hasPrefix("=") else { return nil }
      return Assignment(property: name, expression: expr)
    }
  }

  /// Sets properties of the objects of `className` (those matching `filter`, a Realm query,
  /// when given) to the values of expressions, as a plan's `transform` step does.
  public static func update(
    path: String, className: String, assignments: [Assignment], filter: String? = nil,
    options: MigrationOptions = MigrationOptions()
  ) throws -> EditResult {
    guard !assignments.isEmpty else { throw MigrationError(.invalidPlan, "nothing to set: give at least one 'property = expression'") }
    for (i, a) in assignments.enumerated() where assignments[..<i].contains(where: { $0.property == a.property }) {
      throw MigrationError(.invalidPlan, path: "set \(a.property)", "the property is set twice")
    }
    let step = PlanStep(
      operation: .transform(
        className: className,
        assignments: assignments.map { Assignment.plan($0) }, filter: filter),
      path: "update")
    return try run(path: path, steps: [step], options: options) { group, fileSchema, engine in
      try checkTopLevel(className, fileSchema, verb: "update")
      for a in assignments {
        guard let p = fileSchema.objectSchema(named: className)?.property(named: a.property) else {
          let names = fileSchema.objectSchema(named: className)?.properties.map(\.name) ?? []
          var message = "'\(className)' has no property '\(a.property)'"
          if let s = Suggestion.closest(to: a.property, among: names) { message += " (did you mean '\(s)'?)" }
          throw MigrationError(.invalidPlan, path: "set \(a.property)", message + "; update sets existing properties only")
        }
        _ = p
      }
      var counts = EditResult.ClassCounts(name: className)
      counts.updated = try matchingObjects(group, className, filter, fileSchema, engine).count
      return [counts]
    }
  }

  /// Deletes the objects of `className` (those matching `filter` when given), as a plan's
  /// `deleteObjects` step does: links to them become null, they leave lists, sets and
  /// dictionaries, and their embedded objects go with them. Objects that own embedded objects
  /// are deleted only with `cascadeEmbedded` (so nothing is lost by surprise).
  public static func delete(
    path: String, className: String, filter: String? = nil, cascadeEmbedded: Bool = false,
    options: MigrationOptions = MigrationOptions()
  ) throws -> EditResult {
    let step = PlanStep(operation: .deleteObjects(className: className, filter: filter), path: "delete")
    return try run(path: path, steps: [step], options: options) { group, fileSchema, engine in
      try checkTopLevel(className, fileSchema, verb: "delete")
      let matched = try matchingObjects(group, className, filter, fileSchema, engine)
      var counts = EditResult.ClassCounts(name: className)
      counts.deleted = matched.count
      counts.embeddedDeleted = matched.embedded
      if counts.embeddedDeleted > 0 && !cascadeEmbedded {
        throw MigrationError(
          .constraintViolated,
          "the \(matched.count) object(s) of '\(className)' to delete own \(matched.embedded) embedded object(s), which would be deleted with them; give --cascade-embedded to delete them too")
      }
      return [counts]
    }
  }

  /// Deletes the objects of `className` whose keys are `keys` (the objects a user selected),
  /// exactly as ``delete(path:className:filter:cascadeEmbedded:options:)`` deletes the objects
  /// of a filter: links to them become null, they leave collections, and objects that own
  /// embedded objects are deleted only with `cascadeEmbedded`. A key without an object is an
  /// error naming it; nothing is written then.
  public static func delete(
    path: String, className: String, keys: [Int64], cascadeEmbedded: Bool = false,
    options: MigrationOptions = MigrationOptions()
  ) throws -> EditResult {
    let selected = Set(keys)
    let description = "$key IN {\(keys.prefix(5).map(String.init).joined(separator: ", "))\(keys.count > 5 ? ", …" : "")}"
    let step = PlanStep(operation: .deleteObjects(className: className, filter: description), path: "delete")
    return try run(path: path, steps: [step], options: options, selection: selected) { group, fileSchema, _ in
      try checkTopLevel(className, fileSchema, verb: "delete")
      guard let table = group.table(forClass: className), let cls = fileSchema.objectSchema(named: className) else { return [] }
      var counts = EditResult.ClassCounts(name: className)
      for key in selected.sorted() {
        let values = try namingFile(path) { try group.object(in: table, key: key) }
        guard let values else { throw MigrationError(.invalidData, "'\(className)' has no object with key \(key)") }
        counts.deleted += 1
        for (p, v) in zip(cls.properties, values) where p.type == .object { counts.embeddedDeleted += embeddedCount(v) }
      }
      if counts.embeddedDeleted > 0 && !cascadeEmbedded {
        throw MigrationError(
          .constraintViolated,
          "the \(counts.deleted) object(s) of '\(className)' to delete own \(counts.embeddedDeleted) embedded object(s), which would be deleted with them; give --cascade-embedded to delete them too")
      }
      return [counts]
    }
  }

  // MARK: - Shared

  /// Locks and reads the file, compiles `steps` against its schema, lets `count` check and
  /// count the objects concerned, then writes the program unless it is a dry run.
  static func run(
    path: String, steps: [PlanStep], options: MigrationOptions, selection: Set<Int64>? = nil,
    count: (Group, Schema, MigrationExpressionEngine) throws -> [EditResult.ClassCounts]
  ) throws -> EditResult {
    let stopwatch = Stopwatch()
    let (lock, file, fileSchema) = try Migrator.openForEdit(path: path, options: options)
    defer { lock.release() }
    let group = file.group
    let engine = MigrationExpressionEngine(environment: options.environment)
    engine.setResolver(GroupResolver(group: group))
    engine.setFile(group: group, schema: fileSchema)
    var classes = try count(group, fileSchema, engine)
    // A selection by key: its steps' filters are the keys, whatever their text says.
    let expressions: any ExpressionCompiling = selection.map { KeySelection(base: engine, keys: $0) } ?? engine
    let planner = MigrationPlanner(
      expressions: expressions, decodeDefault: { _, _, path in throw MigrationError.plan(path, "no defaults here") })
    let program = try planner.program(forDataSteps: steps, fileSchema: fileSchema)
    let touched = classes.reduce(0) { $0 + $1.updated + $1.deleted }
    var writePath = MigrationResult.WritePath.none
    if touched > 0 {
      let (path_, reports) = try Migrator.writeDataProgram(program, group: group, path: path, lock: lock, options: options)
      writePath = path_
      for i in classes.indices {
        guard let r = reports.first(where: { $0.name == classes[i].name }) else { continue }
        classes[i].objectsBefore = r.objectsBefore
        classes[i].objectsAfter = r.objectsAfter
      }
    } else {
      for i in classes.indices {
        let n = group.table(forClass: classes[i].name)?.objectCount ?? 0
        classes[i].objectsBefore = n
        classes[i].objectsAfter = n
      }
    }
    return EditResult(
      path: path, schemaVersion: fileSchema.schemaVersion, fileFormat: group.fileFormat, writePath: writePath,
      dryRun: options.dryRun, classes: classes, seconds: stopwatch.elapsedSeconds)
  }

  /// Refuses a class the file does not have, and embedded classes (their objects live inside
  /// their parents).
  static func checkTopLevel(_ className: String, _ schema: Schema, verb: String) throws {
    guard let c = schema.objectSchema(named: className) else {
      var message = "the file has no class '\(className)'"
      if let s = Suggestion.closest(to: className, among: schema.classes.map(\.name)) { message += " (did you mean '\(s)'?)" }
      throw MigrationError(.invalidPlan, message)
    }
    if c.isEmbedded {
      throw MigrationError(
        .unsupported,
        "'\(className)' is an embedded class: its objects live inside their parents; \(verb) the parents (class with a property of type '\(className)') instead")
    }
  }

  /// The number of objects of the class the filter selects, and how many embedded objects they own.
  static func matchingObjects(
    _ group: Group, _ className: String, _ filter: String?, _ schema: Schema, _ engine: MigrationExpressionEngine
  ) throws -> (count: Int, embedded: Int) {
    guard let table = group.table(forClass: className), let cls = schema.objectSchema(named: className) else { return (0, 0) }
    let compiled: (any CompiledFilter)?
    do {
      compiled = try filter.map { try engine.compileFilter($0, in: cls, schema: schema) }
    } catch let e as ExpressionError {
      throw MigrationError(.invalidPlan, path: "where, column \(e.column)", e.message)
    }
    let ownsEmbedded = cls.properties.contains { p in p.objectType.map { schema.objectSchema(named: $0)?.isEmbedded == true } ?? false }
    if compiled == nil && !ownsEmbedded { return (table.objectCount, 0) }
    var count = 0
    var embedded = 0
    try group.forEachObject(in: table) { key, values in
      guard try compiled?.matches(values, objectKey: key) ?? true else { return }
      count += 1
      if ownsEmbedded { for v in values { embedded += embeddedCount(v) } }
    }
    return (count, embedded)
  }

  /// Embedded objects inside a value, nested ones included.
  static func embeddedCount(_ value: RealmValue) -> Int {
    switch value {
    case .embedded(let e): return 1 + e.properties.reduce(0) { $0 + embeddedCount($1.value) }
    case .list(let items), .set(let items): return items.reduce(0) { $0 + embeddedCount($1) }
    case .dictionary(let entries): return entries.reduce(0) { $0 + embeddedCount($1.value) }
    default: return 0
    }
  }
}

extension DataEditor.Assignment {
  /// The plan's assignment for this one.
  static func plan(_ a: DataEditor.Assignment) -> RealmMigration.Assignment {
    RealmMigration.Assignment(property: a.property, expression: a.expression, path: "set \(a.property)")
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> String {
    var s = self
    while let f = s.first, set.contains(f) { s.removeFirst() }
    while let l = s.last, set.contains(l) { s.removeLast() }
    return String(s)
  }
}

/// Compiles the filters of an edit of objects chosen by key: each filter is the keys (its text
/// only describes them); values compile as the engine compiles them.
struct KeySelection: ExpressionCompiling {
  let base: MigrationExpressionEngine
  let keys: Set<Int64>

  func compileValue(
    _ source: String, in objectSchema: ObjectSchema, schema: Schema, newProperties: [Property]
  ) throws -> any CompiledValueExpression {
    try base.compileValue(source, in: objectSchema, schema: schema, newProperties: newProperties)
  }

  func compileFilter(_ source: String, in objectSchema: ObjectSchema, schema: Schema) throws -> any CompiledFilter {
    SelectionFilter(keys: keys, source: source)
  }
}
