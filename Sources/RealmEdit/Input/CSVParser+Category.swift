import RealmModel

extension CSVParser.SyntaxError: CategorizedError {
  /// A malformed CSV record refuses the input: `ErrorCategory.invalidData`.
  public var category: ErrorCategory { .invalidData }
}
