import Synchronization

/// The expression engine in the shape the migrator calls it (``ExpressionCompiling``):
/// evaluation without a context argument. It keeps the one ``ExpressionEnvironment`` of a migration (so `now()` is the same
/// instant for every object and `uuid()`/`objectId()` never repeat) and the link resolver,
/// behind a lock, so compiled expressions stay `Sendable`.
public final class MigrationExpressionEngine: ExpressionCompiling {
  private struct State {
    var environment: ExpressionEnvironment
    var resolver: (any ObjectResolver & Sendable)?
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
    state = Mutex(State(environment: environment, resolver: nil))
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

  /// Compiles a `where` filter for `objectSchema`.
  public func compileFilter(
    _ source: String, in objectSchema: ObjectSchema, schema: Schema
  ) throws(ExpressionError) -> any CompiledFilter {
    let compiler = ExpressionCompiler(schema: schema, objectSchema: objectSchema)
    return BoundFilter(predicate: try compiler.compilePredicate(source), engine: self)
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

  /// The positions of `old` the expression reads.
  public var readsOld: Set<Int>? { expression.readsOld }

  /// True when the expression draws `uuid()`/`objectId()` values.
  public var isOrderSensitive: Bool { expression.drawsFromEnvironment }

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

/// A compiled `where` filter bound to its engine.
public struct BoundFilter: CompiledFilter {
  /// The compiled filter.
  public let predicate: CompiledPredicate
  let engine: MigrationExpressionEngine

  /// The positions of the values the filter reads.
  public var readsOld: Set<Int>? { predicate.readsOld }

  /// True when the filter draws `uuid()`/`objectId()` values.
  public var isOrderSensitive: Bool { predicate.drawsFromEnvironment }

  /// True when the object with these values matches.
  public func matches(_ values: [RealmValue], objectKey: Int64) throws(EvaluationError) -> Bool {
    if case .bool(true) = try engine.run(
      predicate.evaluator, old: values, new: [], objectKey: objectKey, drawsFromEnvironment: predicate.drawsFromEnvironment)
    { return true }
    return false
  }
}
