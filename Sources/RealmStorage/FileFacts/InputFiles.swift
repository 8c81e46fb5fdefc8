#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks on input paths made before a command starts, so that a missing or unreadable file
/// gets its own message and exit code (66, 77) whatever module later opens it.
public enum InputFiles {
  /// Throws unless `path` names an existing, readable regular file (or a symlink to one).
  public static func requireReadableFile(_ path: String) throws(InputError) {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let code = errno
      switch code {
      case ENOENT, ENOTDIR: throw InputError.fileNotFound(path)
      case EACCES:
        throw InputError(.permissionDenied, path: path, "Permission denied: '\(path)'")
      default:
        throw InputError(
          .unreadable, path: path, "Cannot read '\(path)': \(String(cString: strerror(code)))")
      }
    }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      throw InputError(.unreadable, path: path, "'\(path)' is a directory, not a file")
    }
    guard access(path, R_OK) == 0 else {
      throw InputError(.permissionDenied, path: path, "Permission denied: '\(path)'")
    }
  }

  /// Throws unless `path` does not exist yet (an output that must not overwrite anything).
  public static func requireAbsent(_ path: String) throws(InputError) {
    var info = stat()
    guard lstat(path, &info) != 0 else {
      throw InputError(
        .cannotCreateOutput, path: path,
        "'\(path)' already exists; remove it or choose another output name")
    }
  }
}

extension InputFiles {
  /// The bytes of a small input file (plans, schemas); larger than `limit` is refused.
  public static func contents(of path: String, limit: Int = 64 << 20) throws(InputError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw InputError(.unreadable, path: path, "Cannot read '\(path)': \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(.unreadable, path: path, "Cannot read '\(path)': \(String(cString: strerror(errno)))")
      }
      if n == 0 { return out }
      out.append(contentsOf: chunk[0..<n])
      if out.count > limit {
        throw InputError(.invalidInput, path: path, "'\(path)' is larger than \(limit >> 20) MiB")
      }
    }
  }
}
