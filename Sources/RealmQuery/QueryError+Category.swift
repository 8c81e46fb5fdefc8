import RealmModel

extension QueryError: CategorizedError {
  /// A query that does not compile refuses the input: `ErrorCategory.invalidData`.
  public var category: ErrorCategory { .invalidData }
}

extension QueryEvaluationError: CategorizedError {
  /// A query that fails on an object refuses the input: `ErrorCategory.invalidData`.
  public var category: ErrorCategory { .invalidData }
}
