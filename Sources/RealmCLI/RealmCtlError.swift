import RealmModel

/// A failure of a command that is not a usage error and not an error of a lower module.
///
/// Lower modules have their own error types (`FormatError`, `StorageError`, `MigrationError`);
/// this one covers what the command layer finds itself (a missing input file, an output it
/// cannot create, standard output that cannot be written) and command bodies that are not
/// wired to their implementation yet. (``UsageError`` is the parser's.)
/// Equality and hashing use ``code`` only.
public struct RealmCtlError: CodedError, DetailedError {
  /// The kind of failure; ``ExitCode/forError(_:)`` maps each to its exit code.
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// An internal invariant failed.
    case internalError
    /// An input file does not exist.
    case fileNotFound
    /// An input file exists but cannot be read.
    case unreadable
    /// The operating system refused access.
    case permissionDenied
    /// The output file cannot be created.
    case cannotCreateOutput
    /// A read or write failed.
    case ioFailure
    /// Another process holds the Realm's lock.
    case locked
    /// An input file (schema, data) is not valid.
    case invalidInput
    /// The reader of standard output went away (`EPIPE`, as in `realmctl dump x | head`):
    /// not reported, the command stops quietly.
    case brokenPipe
    /// Writing standard output or standard error failed.
    case outputFailed
  }

  /// The kind of failure.
  public var code: Code
  /// The path the failure is about, when there is one.
  public var path: String?
  /// The `errno` of a failed system call, when there is one.
  public var errno: Int32?
  /// One sentence, no final period.
  public var detail: String

  /// Creates an error.
  public init(_ code: Code, path: String? = nil, errno: Int32? = nil, _ detail: String) {
    self.code = code
    self.path = path
    self.errno = errno
    self.detail = detail
  }

  // MARK: - Factories

  /// `path` does not exist.
  public static func fileNotFound(_ path: String) -> RealmCtlError {
    RealmCtlError(.fileNotFound, path: path, "No such file: '\(path)'")
  }
}
