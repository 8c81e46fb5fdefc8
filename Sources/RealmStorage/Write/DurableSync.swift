#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Makes what was written through `fd` durable, as Realm Core's `File::sync` does, retrying
/// `EINTR`; returns 0 or the `errno` of the failure.
///
/// Linux: `fsync(2)`. Apple platforms: `fcntl(F_FULLFSYNC)`, since Darwin's `fsync` only hands
/// the data to the drive, whose cache may lose it on power loss; `F_FULLFSYNC` also flushes
/// the drive. A file system that does not implement it (some network and FUSE file systems)
/// answers `ENOTSUP` or `EINVAL`: `fsync`, the most such a file system offers, is used then
/// (Realm Core throws instead; realmctl would rather work on a network share).
func durableSync(_ fd: Int32) -> Int32 {
  // Linux goes straight to fsync below; Darwin asks for F_FULLFSYNC first.
  #if canImport(Darwin)
    var code: Int32
    repeat {
      code = fcntl(fd, F_FULLFSYNC) == 0 ? 0 : errno
    } while code == EINTR
    if code == 0 { return 0 }
    guard code == ENOTSUP || code == EINVAL else { return code }
  #endif
  while fsync(fd) != 0 {
    if errno != EINTR { return errno }
  }
  return 0
}

/// The call ``durableSync(_:)`` makes, for messages: `fsync`, or `fcntl(F_FULLFSYNC)` on Apple
/// platforms.
let durableSyncName: String = {
  #if canImport(Darwin)
    return "fcntl(F_FULLFSYNC)"
  #else
    return "fsync"
  #endif
}()
