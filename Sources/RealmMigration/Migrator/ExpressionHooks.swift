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
}

/// A compiled `where` filter.
public protocol CompiledFilter: Sendable {
  /// True when the object matches.
  func matches(_ values: [RealmValue], objectKey: Int64) throws -> Bool
  /// True when the filter selected its objects among those of the file before the migration
  /// (a query with SORT, DISTINCT or LIMIT): it must not follow a step that changes the class.
  var selectsFromFile: Bool { get }
}

extension CompiledFilter {
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
