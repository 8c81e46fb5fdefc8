import RealmModel

/// A failure to use an input file that is not a fault of the Realm file's bytes: a path that
/// does not exist or cannot be read, an output that cannot be created, a data file (schema,
/// JSON Lines, CSV) or a name (class, property) that is not valid for the file.
///
/// Equality and hashing use ``code`` only.
public struct InputError: CodedError, DetailedError {
  /// The kind of failure.
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// The file does not exist.
    case fileNotFound
    /// The file exists but cannot be read.
    case unreadable
    /// The operating system refused access.
    case permissionDenied
    /// An output file cannot be created (it exists, or its directory refuses).
    case cannotCreateOutput
    /// The input is readable but not valid: a data line, a class name, a filter's result.
    case invalidInput
  }

  /// The kind of failure.
  public var code: Code
  /// The path the failure is about, when there is one.
  public var path: String?
  /// One sentence, no final period.
  public var detail: String

  /// Creates an error.
  public init(_ code: Code, path: String? = nil, _ detail: String) {
    self.code = code
    self.path = path
    self.detail = detail
  }

  /// The message, without a final period.
  /// `path` does not exist.
  public static func fileNotFound(_ path: String) -> InputError {
    InputError(.fileNotFound, path: path, "No such file: '\(path)'")
  }
}
