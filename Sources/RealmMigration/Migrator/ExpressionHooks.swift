import RealmModel

/// A compiled value expression of a `transform` step, evaluated once per object.
///
/// The migrator depends on these small protocols rather than on the expression engine itself,
/// so that the two can be tested apart.
public protocol CompiledValueExpression: Sendable {
  /// The property the expression's values fit (type, collection, optionality), when known.
  var resultProperty: Property? { get }
  /// Evaluates against the object's values before the step (`old`, in the class's layout) and
  /// the values assigned earlier in the same step (`new`, in the order of the `newProperties`
  /// given at compile time).
  func evaluate(old: [RealmValue], new: [RealmValue?], objectKey: Int64) throws -> RealmValue
  /// The positions of `old` the expression reads; nil when unknown (everything may be read).
  var readsOld: Set<Int>? { get }
  /// False when the values do not depend on the order objects are evaluated in (no `uuid()`,
  /// `objectId()`), so that objects may be evaluated on several threads.
  var isOrderSensitive: Bool { get }
  /// The expression evaluated for a batch of objects at once (`old` and `new` as columns),
  /// when it can be; nil evaluates object by object. Its values are exactly those of
  /// ``evaluate(old:new:objectKey:)``; it throws ``KernelFallback`` when some object needs
  /// that path (to report an error).
  var columnKernel: ColumnKernel? { get }
}

extension CompiledValueExpression {
  /// None by default: evaluated object by object.
  public var columnKernel: ColumnKernel? { nil }
  /// Unknown by default: the column-wise path then decodes every column.
  public var readsOld: Set<Int>? { nil }
  /// Unknown by default: evaluated in order.
  public var isOrderSensitive: Bool { true }
}

/// A compiled `where` filter.
public protocol CompiledFilter: Sendable {
  /// True when the object matches.
  func matches(_ values: [RealmValue], objectKey: Int64) throws -> Bool
  /// The positions of the values the filter reads; nil when unknown.
  var readsOld: Set<Int>? { get }
  /// False when the result does not depend on the evaluation order.
  var isOrderSensitive: Bool { get }
  /// True when the filter selected its objects among those of the file before the migration
  /// (a query with SORT, DISTINCT or LIMIT): it must not follow a step that changes the class.
  var selectsFromFile: Bool { get }
}

extension CompiledFilter {
  /// Unknown by default: the column-wise path then decodes every column.
  public var readsOld: Set<Int>? { nil }
  /// Unknown by default: evaluated in order.
  public var isOrderSensitive: Bool { true }
  public var selectsFromFile: Bool { false }
}

/// Compiles expressions and filters for a class of the working schema.
public protocol ExpressionCompiling: Sendable {
  /// Compiles a value expression; errors carry the column in the source.
  func compileValue(
    _ source: String, in objectSchema: ObjectSchema, schema: Schema, newProperties: [Property]
  ) throws -> any CompiledValueExpression
  /// Compiles a `where` filter.
  func compileFilter(_ source: String, in objectSchema: ObjectSchema, schema: Schema) throws -> any CompiledFilter
}
