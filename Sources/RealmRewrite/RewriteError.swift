import RealmModel

/// Why a whole-file rewrite (`upgrade`, `convert`, `compact`, `unsync`) refused a realm: a
/// synced realm where a local one is needed (or the reverse), or content the target file format
/// cannot hold. Raised before anything is written.
public struct RewriteError: CodedError, CustomStringConvertible {
  /// The kind of failure.
  public enum Code: String, Sendable, Hashable {
    /// The realm is not one this rewrite takes, or the target format cannot hold its content.
    case unsupported
  }

  /// The kind of failure.
  public var code: Code
  /// The message, which names the realm.
  public var message: String

  /// Creates an error.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}

extension RewriteError: CategorizedError {
  /// A realm the rewrite cannot take is refused input: `ErrorCategory.invalidData`.
  public var category: ErrorCategory { .invalidData }
}
