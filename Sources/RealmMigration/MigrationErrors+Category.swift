import RealmModel

extension MigrationError: CategorizedError {
  /// Every refused plan or migration refuses the input: `ErrorCategory.invalidData`.
  public var category: ErrorCategory {
    switch code {
    case .invalidPlan, .versionLower, .migrationRequired, .dataLoss, .constraintViolated,
      .evaluationFailed, .execFailed, .unsupported, .invalidData:
      .invalidData
    }
  }
}

extension EvaluationError: CategorizedError {
  /// An expression that fails on an object refuses the input: `ErrorCategory.invalidData`.
  public var category: ErrorCategory { .invalidData }
}

extension KernelFallback: CategorizedError {
  /// A signal the migrator catches (a column computed object by object instead); reaching a
  /// caller is a bug: `ErrorCategory.internalError`.
  public var category: ErrorCategory { .internalError }
}
