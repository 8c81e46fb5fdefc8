/// A failure to write to standard output or standard error.
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of failure.
  public enum Code: String, Sendable, Hashable {
    /// The reader closed the pipe (`EPIPE`), as `realmctl dump x | head` does: not reported.
    case brokenPipe
    /// Any other `write(2)` failure.
    case writeFailed
  }

  /// The kind of failure.
  public var code: Code
  /// The `errno` of the failed write.
  public var errno: Int32
  /// One sentence, no final period.
  public var detail: String

  /// Creates an error.
  public init(_ code: Code, errno: Int32 = 0, _ detail: String) {
    self.code = code
    self.errno = errno
    self.detail = detail
  }

  public static func == (lhs: OutputError, rhs: OutputError) -> Bool { lhs.code == rhs.code }
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }

  /// The message printed after `Error: `.
  public var description: String { detail }
}
