#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes all of `bytes` at `position` of `fd`, retrying short writes and EINTR.
func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at position: Int, path: String) throws(StorageError) {
  var done = 0
  while done < bytes.count {
    let n = pwrite(fd, bytes.baseAddress.map { $0 + done }, bytes.count - done, off_t(position + done))
    if n < 0 {
      if errno == EINTR { continue }
      throw StorageError.system("pwrite", path: path, errno: errno)
    }
    if n == 0 { throw StorageError.system("pwrite", path: path, errno: EIO) }
    done += n
  }
}

/// Reads up to `count` bytes at `position` of `fd` into `buffer`, retrying short reads and
/// EINTR; returns how many were read (fewer only at the end of the file).
func readFully(
  _ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at position: Int, path: String
) throws(StorageError) -> Int {
  var done = 0
  while done < count {
    let n = pread(fd, buffer + done, count - done, off_t(position + done))
    if n < 0, errno == EINTR { continue }
    if n < 0 { throw StorageError.system("pread", path: path, errno: errno) }
    if n == 0 { break }
    done += n
  }
  return done
}
