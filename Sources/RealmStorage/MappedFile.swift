import RealmFormat
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file mapped read-only into memory.
///
/// Opens with `O_RDONLY`, maps exactly the size `fstat` reports (`PROT_READ`, `MAP_PRIVATE`),
/// and never writes: it works on read-only file systems and beside a running Realm app. The
/// mapping lives as long as the object; ``reader`` keeps it alive.
///
/// Truncation of the file by another process while it is mapped is out of scope (it would
/// raise SIGBUS on access); Realm apps only grow files.
public final class MappedFile: ResidentPageReleasing, @unchecked Sendable {
  /// The path the file was opened with.
  public let path: String
  /// Size in bytes at the time of mapping.
  public let size: Int
  private let base: UnsafeMutableRawPointer?
  /// The descriptor kept by ``init(path:forWriting:)`` (read-write unless ``writeRefusal``
  /// says why not); nil otherwise. Closed with the mapping.
  package let descriptor: Int32?
  /// The `errno` of opening the file read-write, when it was opened read-only for that reason.
  package let writeRefusal: Int32?

  /// Smallest size accepted: the Realm header.
  public static let minimumSize = 24

  /// Maps the file at `path`.
  ///
  /// - Throws: ``StorageError`` `fileNotFound`, `permissionDenied`, `notARealmFile` (a
  ///   directory, or smaller than the 24-byte header), or `io`.
  public convenience init(path: String) throws(StorageError) {
    try self.init(path: path, forWriting: false)
  }

  /// Maps the file at `path` and, with `forWriting`, keeps the descriptor it was opened
  /// through, read-write (``descriptor``), so that an edit writes the file it read without
  /// opening it again. A file the process may not write is opened read-only all the same: the
  /// refusal is kept (``writeRefusal``) and reported when a write begins, as opening it for
  /// writing then would.
  ///
  /// - Throws: as ``init(path:)``.
  package init(path: String, forWriting: Bool) throws(StorageError) {
    self.path = path
    var fd = open(path, (forWriting ? O_RDWR : O_RDONLY) | O_CLOEXEC)
    var refusal: Int32?
    if forWriting && fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS) {
      refusal = errno
      fd = open(path, O_RDONLY | O_CLOEXEC)
    }
    guard fd >= 0 else { throw MappedFile.openError(errno, path: path) }
    FileAccessLog.record(.open, path: path)
    var kept = false
    defer { if !kept { close(fd) } }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      throw StorageError.file(.io, path, "cannot be examined: \(MappedFile.message(errno))")
    }
    guard (st.st_mode & S_IFMT) == S_IFREG else {
      throw StorageError.file(.notARealmFile, path, "is not a regular file")
    }
    guard let size = Int(exactly: st.st_size), size >= MappedFile.minimumSize else {
      throw StorageError.file(.notARealmFile, path,
        "is not a Realm file: it has \(st.st_size) bytes, fewer than the 24-byte Realm header")
    }
    self.size = size
    let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)
    guard let p, p != MAP_FAILED else {
      throw StorageError.file(.io, path, "cannot be mapped into memory: \(MappedFile.message(errno))")
    }
    base = p
    kept = forWriting
    descriptor = forWriting ? fd : nil
    writeRefusal = refusal
  }

  deinit {
    if let base { munmap(base, size) }
    if let descriptor { close(descriptor) }
  }

  /// Drops the mapping's pages from the resident set (`MADV_DONTNEED`). The mapping is a
  /// private, read-only image of the file that is never written, so the next access maps the
  /// same bytes again from the page cache. (Linux unmaps the pages at once; Darwin takes it as
  /// a hint and reclaims them when memory is wanted: the bytes read are the same either way.)
  public func releaseResidentPages() {
    guard let base else { return }
    _ = madvise(base, size, Int32(MADV_DONTNEED))
  }

  /// Checked access to the mapped bytes.
  public var reader: ByteReader {
    ByteReader(base: UnsafeRawBufferPointer(start: base, count: size), owner: self)
  }

  private static func openError(_ err: Int32, path: String) -> StorageError {
    switch err {
    case ENOENT, ENOTDIR: return StorageError.file(.fileNotFound, path, "does not exist")
    case EACCES, EPERM: return StorageError.file(.permissionDenied, path, "cannot be read: permission denied")
    case EISDIR: return StorageError.file(.notARealmFile, path, "is a directory, not a Realm file")
    default: return StorageError.file(.io, path, "cannot be opened: \(message(err))")
    }
  }

  static func message(_ err: Int32) -> String {
    guard let s = strerror(err) else { return "error \(err)" }
    return String(cString: s)
  }
}
