import Synchronization
import RealmFormat
import RealmModel
import RealmQuery

/// The expression engine in the shape the migrator calls it (``ExpressionCompiling``):
/// evaluation without a context argument. It keeps the one ``ExpressionEnvironment`` of a migration (so `now()` is the same
/// instant for every object and `uuid()`/`objectId()` never repeat) and the link resolver,
/// behind a lock, so compiled expressions stay `Sendable`.
public final class MigrationExpressionEngine: ExpressionCompiling {
  private struct State {
    var environment: ExpressionEnvironment
    var resolver: (any ObjectResolver & Sendable)?
    /// The file whose objects `where` queries follow links into (and select from, for
    /// SORT/DISTINCT/LIMIT).
    var file: (group: Group, schema: Schema)?
  }
  private let state: Mutex<State>
  /// Bumped by ``setResolver(_:)``: a ``Snapshot`` taken at this generation is still current.
  private let generation = Atomic<Int>(0)

  /// What evaluations that draw nothing from the environment (no `uuid()`, `objectId()`)
  /// read: they need no lock while the generation has not changed, so several threads can
  /// evaluate at once.
  struct Snapshot: Sendable {
    let generation: Int
    let environment: ExpressionEnvironment
    let resolver: (any ObjectResolver & Sendable)?
  }

  func snapshot() -> Snapshot {
    state.withLock { Snapshot(generation: generation.load(ordering: .acquiring), environment: $0.environment, resolver: $0.resolver) }
  }

  /// True while `snapshot` is current.
  func isCurrent(_ snapshot: Snapshot) -> Bool { generation.load(ordering: .acquiring) == snapshot.generation }

  /// An engine with its environment (the current time and a random seed by default).
  public init(environment: ExpressionEnvironment = ExpressionEnvironment()) {
    state = Mutex(State(environment: environment, resolver: nil, file: nil))
  }

  /// Sets the resolver that follows links (`old.owner.name`) in later evaluations.
  public func setResolver(_ resolver: (any ObjectResolver & Sendable)?) {
    state.withLock {
      $0.resolver = resolver
      generation.add(1, ordering: .releasing)
    }
  }

  /// Compiles a `transform.set` expression for `objectSchema` (as it is before the step);
  /// `newProperties` are the properties assigned earlier in the same step, in order.
  public func compileValue(
    _ source: String, in objectSchema: ObjectSchema, schema: Schema, newProperties: [Property]
  ) throws(ExpressionError) -> any CompiledValueExpression {
    let compiler = ExpressionCompiler(schema: schema, objectSchema: objectSchema)
    let newValues = newProperties.map { NewValue(name: $0.name, type: ExpressionType($0, in: schema)) }
    return BoundValueExpression(expression: try compiler.compileValue(source, newValues: newValues), engine: self, snapshot: snapshot())
  }

  /// Sets the file the migration reads: `where` queries follow links and backlinks into
  /// its objects (as they are before the migration), and queries with SORT, DISTINCT or
  /// LIMIT select among its objects.
  public func setFile(group: Group, schema: Schema) {
    state.withLock { $0.file = (group, schema) }
  }

  /// Compiles a `where` filter for `objectSchema`: a Realm Query Language query
  /// (`RealmQuery`), against `schema` with `objectSchema` as it is at that step.
  ///
  /// A query with SORT, DISTINCT or LIMIT selects among the objects of the class as they are
  /// in the file: it is run here, once, and the filter matches the objects it selected (see
  /// ``CompiledFilter/selectsFromFile``). It needs the file (``setFile(group:schema:)``) and
  /// the class as the file has it.
  public func compileFilter(
    _ source: String, in objectSchema: ObjectSchema, schema: Schema
  ) throws(ExpressionError) -> any CompiledFilter {
    var classes = schema.classes.filter { $0.name != objectSchema.name }
    classes.append(objectSchema)
    let querySchema = Schema(schemaVersion: schema.schemaVersion, fileFormat: schema.fileFormat, classes: classes)
    let file = state.withLock { $0.file }
    let query = try RealmQuery(source, className: objectSchema.name, schema: querySchema, group: file?.group)
    guard query.hasDescriptors else {
      let objects = file.map { MigrationQuerySource(group: $0.group, fileSchema: $0.schema, workingSchema: querySchema) }
      return QueryFilter(query: query, source: objects)
    }
    guard let file else {
      throw ExpressionError(column: 1, message: "SORT, DISTINCT and LIMIT select among the objects of the file, which is not open here")
    }
    guard let inFile = file.schema.objectSchema(named: objectSchema.name), inFile.properties == objectSchema.properties else {
      throw ExpressionError(
        column: 1,
        message: "SORT, DISTINCT and LIMIT select among the objects as they are in the file, but '\(objectSchema.name)' has changed earlier in the plan; put this step first")
    }
    do {
      let keys = try query.objectKeys(in: file.group)
      return SelectionFilter(keys: Set(keys), source: source)
    } catch {
      throw ExpressionError(column: 1, message: "running the query on the file failed: \(error)")
    }
  }

  fileprivate func run(
    _ evaluator: Evaluator, old: [RealmValue], new: [RealmValue?], objectKey: Int64, drawsFromEnvironment: Bool = true
  ) throws(EvaluationError) -> RealmValue {
    do {
      if !drawsFromEnvironment {
        // Nothing to write back: evaluate outside the lock (threads may evaluate at once).
        let (resolver, environment) = state.withLock { ($0.resolver, $0.environment) }
        var context = EvaluationContext(
          old: old, new: new.isEmpty ? [] : new.map { $0 ?? .null }, resolver: resolver, environment: environment)
        return try evaluator(&context)
      }
      return try state.withLock { (s: inout State) throws(EvaluationError) -> RealmValue in
        var context = EvaluationContext(
          old: old, new: new.isEmpty ? [] : new.map { $0 ?? .null }, resolver: s.resolver, environment: s.environment)
        defer { s.environment = context.environment }
        return try evaluator(&context)
      }
    } catch {
      var e = error
      e.objectKey = objectKey
      throw e
    }
  }
}

/// A compiled value expression bound to its engine.
public struct BoundValueExpression: CompiledValueExpression {
  /// The compiled expression (its `type` is the static type).
  public let expression: CompiledExpression
  let engine: MigrationExpressionEngine
  /// The engine's state when the expression was bound (see ``MigrationExpressionEngine/Snapshot``).
  let snapshot: MigrationExpressionEngine.Snapshot

  /// The property the values fit (named ""), nil when the type is unknown (`null`).
  public var resultProperty: Property? { expression.type.property(named: "") }

  /// The static type of the values (the compiled expression's `type`).
  public var resultType: ExpressionType? { expression.type }

  /// The positions of `old` the expression reads.
  public var readsOld: Set<Int>? { expression.readsOld }

  /// True when the expression draws `uuid()`/`objectId()` values.
  public var isOrderSensitive: Bool { expression.drawsFromEnvironment }

  /// The expression over a batch's columns (it reads neither the environment nor links).
  public var columnKernel: ColumnKernel? { expression.kernel }

  /// The value for one object: `old` in the class's property order, `new` in the order of
  /// the `newProperties` given at compile time (nil reads as null).
  public func evaluate(old: [RealmValue], new: [RealmValue?], objectKey: Int64) throws(EvaluationError) -> RealmValue {
    if !expression.drawsFromEnvironment && engine.isCurrent(snapshot) {
      var context = EvaluationContext(
        old: old, new: new.isEmpty ? [] : new.map { $0 ?? .null }, resolver: snapshot.resolver, environment: snapshot.environment)
      do {
        return try expression.evaluator(&context)
      } catch {
        var e = error
        e.objectKey = objectKey
        throw e
      }
    }
    return try engine.run(
      expression.evaluator, old: old, new: new, objectKey: objectKey, drawsFromEnvironment: expression.drawsFromEnvironment)
  }
}

/// A `where` filter: a Realm Query Language query evaluated on each object.
public struct QueryFilter: CompiledFilter {
  /// The compiled query.
  public let query: RealmQuery
  let source: MigrationQuerySource?

  /// The positions of the object's values the query reads (a column-wise pass needs only
  /// these).
  public var readsOld: Set<Int>? { query.propertiesRead }
  /// Queries draw nothing from the migration's environment: objects may be tested in any
  /// order, on several threads.
  public var isOrderSensitive: Bool { false }

  /// True when the object with these values (its class's layout at this step) matches.
  public func matches(_ values: [RealmValue], objectKey: Int64) throws -> Bool {
    try query.matches(values: values, key: objectKey, source: source)
  }
}

/// A `where` filter with SORT, DISTINCT or LIMIT: the objects the query selected in the file.
public struct SelectionFilter: CompiledFilter {
  /// The selected object keys.
  public let keys: Set<Int64>
  /// The query text.
  public let source: String

  /// A filter that selects the objects with `keys`; `source` describes them.
  package init(keys: Set<Int64>, source: String) {
    self.keys = keys
    self.source = source
  }

  public var selectsFromFile: Bool { true }
  /// Only the object key is tested.
  public var readsOld: Set<Int>? { [] }
  /// The selection is fixed before the step runs.
  public var isOrderSensitive: Bool { false }

  public func matches(_ values: [RealmValue], objectKey: Int64) throws -> Bool { keys.contains(objectKey) }
}

/// The file's objects for `where` queries during a migration: objects are read as they are
/// in the file and presented in the layout the plan's working schema gives their class at
/// the step (properties matched by name; a property the file does not have reads as null).
final class MigrationQuerySource: QueryObjectSource, Sendable {
  let file: GroupQuerySource
  let layouts: [String: [Int?]]

  init(group: Group, fileSchema: Schema, workingSchema: Schema) {
    file = GroupQuerySource(group: group, schema: fileSchema)
    var layouts: [String: [Int?]] = [:]
    for cls in workingSchema.classes {
      guard let inFile = fileSchema.objectSchema(named: cls.name) else { continue }
      let map = cls.properties.map { p in inFile.properties.firstIndex { $0.name == p.name } }
      if map != Array(0..<inFile.properties.count).map(Optional.some) { layouts[cls.name] = map }
    }
    self.layouts = layouts
  }

  func values(ofClass className: String, key: Int64, properties: Set<Int>?) throws -> [RealmValue]? {
    guard let layout = layouts[className] else { return try file.values(ofClass: className, key: key, properties: properties) }
    guard let values = try file.values(ofClass: className, key: key, properties: nil) else { return nil }
    return layout.map { $0.map { values[$0] } ?? .null }
  }

  func backlinks(from originClass: String, property: String, to targetClass: String, key: Int64) throws -> [Int64] {
    try file.backlinks(from: originClass, property: property, to: targetClass, key: key)
  }

  func backlinkCount(to className: String, key: Int64) throws -> Int {
    try file.backlinkCount(to: className, key: key)
  }

  func objectKey(ofClass className: String, primaryKey value: RealmValue) throws -> Int64? {
    try file.objectKey(ofClass: className, primaryKey: value)
  }

  func fullTextKeys(ofClass className: String, property: String, search: FullTextSearch) throws -> [Int64]? {
    try file.fullTextKeys(ofClass: className, property: property, search: search)
  }
}
