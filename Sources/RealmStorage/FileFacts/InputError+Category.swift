import RealmModel

extension InputError: CategorizedError {
  /// The category of each ``Code``.
  public var category: ErrorCategory {
    switch code {
    case .fileNotFound, .unreadable: .missingInput
    case .permissionDenied: .permissionDenied
    case .cannotCreateOutput: .cannotCreateOutput
    case .invalidInput: .invalidData
    }
  }
}
