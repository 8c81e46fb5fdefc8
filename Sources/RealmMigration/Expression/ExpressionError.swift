import RealmQuery

/// A fault found while compiling an expression or a `where` filter: a syntax error, an
/// unknown name, a type mismatch or a limit.
///
/// It is RealmQuery's `QueryError` (`column`, 1-based, counting characters of the source, and
/// `message`): a `where` filter is a query, and the expression language reports its faults in
/// the same two parts. The migrator prefixes the plan's JSON path:
/// `migrations[1].steps[0].set.fullName, column 12: ...`.
public typealias ExpressionError = QueryError

/// A fault while evaluating a compiled expression on one object: a failed conversion,
/// an integer overflow, a division by zero, a value of the wrong type in a `mixed`
/// property, or an error from the link resolver.
///
/// The migrator adds the class and object key.
public struct EvaluationError: Error, Sendable, CustomStringConvertible {
  /// 1-based column of the failing operation in the expression source.
  public var column: Int
  /// One sentence naming the failing function or operator and the value.
  public var message: String
  /// The resolver's error, when following a link failed.
  public var underlying: (any Error)?
  /// The object being evaluated, when the caller said (``MigrationExpressionEngine`` does).
  public var objectKey: Int64?

  /// Creates an error.
  public init(column: Int, message: String, underlying: (any Error)? = nil, objectKey: Int64? = nil) {
    self.column = column
    self.message = message
    self.underlying = underlying
    self.objectKey = objectKey
  }

  /// `column N: message`, after `object K, ` when the object key is known.
  public var description: String {
    (objectKey.map { "object \($0), " } ?? "") + "column \(column): \(message)"
  }
}
