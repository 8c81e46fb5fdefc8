import RealmModel

extension FormatError: CategorizedError {
  /// Every problem in a file's bytes refuses the input: `ErrorCategory.invalidData`.
  public var category: ErrorCategory {
    switch code {
    case .truncated, .notRealmFile, .encrypted, .unsupportedVersion, .corrupt, .limitExceeded:
      .invalidData
    }
  }
}

extension FormatObstacle: CategorizedError {
  /// A file that the target format cannot store is refused: `ErrorCategory.invalidData`.
  public var category: ErrorCategory { .invalidData }
}
