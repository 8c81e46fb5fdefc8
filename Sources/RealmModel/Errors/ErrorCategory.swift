/// What kind of failure an error is, in terms every layer shares: enough for a caller to
/// decide what to do (report bad data, retry later, ask for permission) without knowing the
/// module that failed. The command line turns each category into one exit code
/// (docs/exit-codes.md).
public enum ErrorCategory: String, Sendable, Hashable, CaseIterable {
  /// The input is refused: a damaged or unsupported file, an invalid plan, query, expression or
  /// data file, a migration that would lose data, a wrong encryption key.
  case invalidData
  /// An argument the caller passed has the wrong form (an encryption key that is not 64 bytes).
  case invalidArgument
  /// An input file does not exist or cannot be read.
  case missingInput
  /// The operating system refused access to a file.
  case permissionDenied
  /// An output file, or a temporary file beside it, cannot be created.
  case cannotCreateOutput
  /// A read, write, `fsync` or `mmap` failed.
  case ioFailure
  /// Another process holds the file (its lock): retry later.
  case busy
  /// The caller cancelled the work (``ProgressCounter/cancel()``).
  case cancelled
  /// A bug: an internal invariant failed or an API was misused.
  case internalError
}

/// An error that says which ``ErrorCategory`` it belongs to.
///
/// Every public error type of the libraries adopts it, so code above them (the command line's
/// exit codes) can handle any of their errors without importing the module that threw it.
public protocol CategorizedError: Error {
  /// The kind of failure.
  var category: ErrorCategory { get }
}
