/// Connects the expression language (``ExpressionCompiler``) to the migrator's
/// ``ExpressionCompiling`` hooks, with links followed through `resolver`.
public struct ExpressionBridge: ExpressionCompiling, @unchecked Sendable {
  /// Follows links in expressions (`old.owner.name`); nil fails such expressions.
  public var resolver: (any ObjectResolver)?
  /// Clock and random source for `now()`, `uuid()` and `objectId()`.
  public var environment: ExpressionEnvironment

  /// Creates a bridge.
  public init(resolver: (any ObjectResolver)? = nil, environment: ExpressionEnvironment = ExpressionEnvironment()) {
    self.resolver = resolver
    self.environment = environment
  }

  public func compileValue(
    _ source: String, in objectSchema: ObjectSchema, schema: Schema, newProperties: [Property]
  ) throws -> any CompiledValueExpression {
    let compiler = ExpressionCompiler(schema: schema, objectSchema: objectSchema)
    let newValues = newProperties.map { NewValue(name: $0.name, type: ExpressionType($0, in: schema)) }
    let compiled = try compiler.compileValue(source, newValues: newValues)
    return BridgedValue(
      compiled: compiled, resultProperty: compiled.type.property(named: ""),
      context: ContextBox(EvaluationContext(resolver: resolver, environment: environment)))
  }

  public func compileFilter(_ source: String, in objectSchema: ObjectSchema, schema: Schema) throws -> any CompiledFilter {
    let compiled = try ExpressionCompiler(schema: schema, objectSchema: objectSchema).compilePredicate(source)
    return BridgedFilter(compiled: compiled, context: ContextBox(EvaluationContext(resolver: resolver, environment: environment)))
  }
}

/// One evaluation context reused for every object of a step (the migrator is single-threaded).
final class ContextBox: @unchecked Sendable {
  var context: EvaluationContext
  init(_ context: EvaluationContext) { self.context = context }
}

struct BridgedValue: CompiledValueExpression {
  let compiled: CompiledExpression
  let resultProperty: Property?
  let context: ContextBox

  func evaluate(old: [RealmValue], new: [RealmValue?], objectKey: Int64) throws -> RealmValue {
    context.context.old = old
    context.context.new = new.map { $0 ?? .null }
    return try compiled.evaluate(&context.context)
  }
}

struct BridgedFilter: CompiledFilter {
  let compiled: CompiledPredicate
  let context: ContextBox

  func matches(_ values: [RealmValue], objectKey: Int64) throws -> Bool {
    context.context.old = values
    context.context.new = []
    return try compiled.matches(&context.context)
  }
}
