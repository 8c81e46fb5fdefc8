import RealmModel

extension DumpOutputError: CategorizedError {
  /// Data the chosen output format cannot represent: `ErrorCategory.invalidData`.
  public var category: ErrorCategory { .invalidData }
}
