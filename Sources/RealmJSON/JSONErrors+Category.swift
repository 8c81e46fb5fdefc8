import RealmModel

extension JSONParseError: CategorizedError {
  /// Text that is not JSON refuses the input: `ErrorCategory.invalidData`.
  public var category: ErrorCategory { .invalidData }
}

extension CanonicalDecodingError: CategorizedError {
  /// A line that is not a valid object for the schema refuses the input:
  /// `ErrorCategory.invalidData`.
  public var category: ErrorCategory { .invalidData }
}
