/// An error whose ``code`` says what kind of failure it is, and that equals another error of
/// its type when their codes are equal, whatever the message, path or offset: tests and
/// callers match on the kind of failure, not on the wording. (`Error` makes it `Sendable`.)
public protocol CodedError: Error, Hashable {
  /// The kind of failure.
  associatedtype Code: Hashable
  /// The kind of failure.
  var code: Code { get }
}

extension CodedError {
  /// True when both errors are of the same kind (``code``).
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
  /// Hashes ``code`` only, as equality compares it only.
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

/// The shape the libraries' errors about files share: a ``CodedError`` that names the file it
/// is about (`path`, when there is one) and says what failed in one sentence (`detail`, no final
/// period), which is its description. `StorageError`, `InputError` and the command layer's
/// `RealmCtlError` have it.
public protocol DetailedError: CodedError, CustomStringConvertible {
  /// The file the error is about, when there is one.
  var path: String? { get }
  /// One sentence, no final period.
  var detail: String { get }
}

extension DetailedError {
  /// The ``detail``.
  public var description: String { detail }
}
