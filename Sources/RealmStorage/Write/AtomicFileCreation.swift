#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Creates a new file atomically: its bytes go to a temporary file in the same directory,
/// which is synced and then linked into place only if `path` still does not exist (no
/// existing file is ever overwritten), and the directory is synced. On any error nothing is
/// left behind.
public enum AtomicFileCreation {
  /// Writes a new file at `path` with `body`.
  ///
  /// - Throws: ``StorageError`` with code `unsupported` when `path` exists (also when it
  ///   appeared while writing), I/O errors, or whatever `body` throws.
  ///
  /// With `encryptionKey`, the file is written encrypted (see ``AtomicFileReplacement/Output``).
  public static func create(
    path: String, encryptionKey: EncryptionKey? = nil, _ body: (AtomicFileReplacement.Output) throws -> Void
  ) throws {
    var template = Array((path + ".realmctl-tmp-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else { throw StorageError.system("mkstemp", path: path, errno: errno) }
    let tmpPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer {
      close(fd)
      unlink(tmpPath)
    }
    _ = fchmod(fd, 0o644)
    let output = AtomicFileReplacement.Output(
      fd: fd, path: tmpPath, faultInjection: nil, encryptionKey: encryptionKey)
    try body(output)
    try output.finishEncryption()
    let synced = durableSync(fd)
    guard synced == 0 else { throw StorageError.system(durableSyncName, path: tmpPath, errno: synced) }
    // link() fails with EEXIST instead of replacing an existing file.
    guard link(tmpPath, path) == 0 else {
      if errno == EEXIST {
        throw StorageError(.alreadyExists, path: path, "'\(path)' already exists; remove it or choose another output name")
      }
      throw StorageError.system("link", path: path, errno: errno)
    }
    try AtomicFileReplacement.syncDirectory(of: path)
  }
}
