import RealmModel

extension StorageError: CategorizedError {
  /// The category of each ``Code``.
  public var category: ErrorCategory {
    switch code {
    case .fileNotFound: .missingInput
    case .permissionDenied: .permissionDenied
    case .notARealmFile, .encrypted, .wrongKey, .notEncrypted, .unsupportedFormat, .corrupt: .invalidData
    case .locked: .busy
    case .io: .ioFailure
    case .alreadyExists: .cannotCreateOutput
    // A valid file this version cannot write (format, history type): the data is refused.
    case .unsupported: .invalidData
    case .misuse: .internalError
    }
  }
}
