#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a ``TextOutput`` sends its bytes once its buffer is full or flushed.
///
/// Called once per buffer (64 KiB by default), never per line, so an existential is fine here.
public protocol OutputDestination: AnyObject {
  /// Writes all of `bytes` or throws.
  func writeAll(_ bytes: UnsafeRawBufferPointer) throws(RealmCtlError)
}

/// Collects everything written, for tests and for in-process callers.
public final class MemoryDestination: OutputDestination {
  /// Every byte written so far.
  public private(set) var bytes: [UInt8] = []

  /// Creates an empty destination.
  public init() {}

  /// Appends `bytes`.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(RealmCtlError) {
    self.bytes.append(contentsOf: bytes)
  }
}

/// Writes to a file descriptor with `write(2)`, retrying on `EINTR` and short writes.
public final class FileDescriptorDestination: OutputDestination {
  /// The descriptor written to (not closed by this class).
  public let fd: Int32

  /// Wraps `fd`.
  public init(fd: Int32) { self.fd = fd }

  /// Writes all of `bytes`; `EPIPE` becomes ``RealmCtlError/Code/brokenPipe``.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(RealmCtlError) {
    guard var next = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let written = write(fd, next, remaining)
      if written < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EPIPE {
          throw RealmCtlError(.brokenPipe, errno: code, "The output pipe was closed")
        }
        throw RealmCtlError(
          .outputFailed, errno: code,
          "Cannot write to file descriptor \(fd): \(String(cString: strerror(code)))")
      }
      // 0 < written <= remaining: write(2) never reports more than it was given.
      next += written
      remaining -= written
    }
  }
}
