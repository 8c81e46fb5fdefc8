import RealmCrypto
import RealmModel

extension EncryptionKey.FormatProblem: CategorizedError {
  /// A key of the wrong length or not hexadecimal is the caller's argument:
  /// `ErrorCategory.invalidArgument`.
  public var category: ErrorCategory { .invalidArgument }
}

// RealmCrypto depends on nothing; its one error type gets its category here, where the
// ciphers are used on a file's pages.
extension CryptoError: CategorizedError {
  /// A failure of the ciphers on a page refuses the input: `ErrorCategory.invalidData`.
  public var category: ErrorCategory { .invalidData }
}
