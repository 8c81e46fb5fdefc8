import RealmModel

extension RealmDiff.Failure: CategorizedError {
  /// A class neither file has refuses the input (`ErrorCategory.invalidData`); a `where` query
  /// that does not compile or chooses objects is the caller's argument
  /// (`ErrorCategory.invalidArgument`).
  public var category: ErrorCategory {
    switch self {
    case .unknownClass: .invalidData
    case .badQuery, .queryHasDescriptors: .invalidArgument
    }
  }
}
