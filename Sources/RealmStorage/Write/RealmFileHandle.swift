#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A realm file opened read-write: the descriptor, a read-only mapping of its bytes at open
/// time, and the system calls of the commit protocol with fault-injection hooks.
///
/// Writes go through `pwrite` only; the mapping is `PROT_READ` and is never written through
/// (§8.2: nodes of the committed snapshot are never modified).
final class RealmFileHandle: @unchecked Sendable {
  let path: String
  let fd: Int32
  /// Size of the file when it was opened.
  let originalSize: Int
  /// The bytes of the file as opened (length `originalSize`).
  let reader: ByteReader
  private let mapping: Mapping?
  /// Called around every system call that changes the file.
  var faultInjection: ((FaultPoint) -> FaultAction)?
  /// Number of file-changing operations issued so far (the `index` of the next fault point).
  private(set) var operationCount = 0

  init(path: String, readOnly: Bool = false) throws(StorageError) {
    self.path = path
    let fd = open(path, (readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC)
    guard fd >= 0 else { throw StorageError.system("open", path: path, errno: errno) }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      let code = errno
      close(fd)
      throw StorageError.system("fstat", path: path, errno: code)
    }
    guard (st.st_mode & S_IFMT) == S_IFREG, let size = Int(exactly: st.st_size) else {
      close(fd)
      throw StorageError(.unsupported, path: path, "'\(baseName(path))' is not a regular file")
    }
    self.fd = fd
    self.originalSize = size
    if size > 0 {
      guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else {
        let code = errno
        close(fd)
        throw StorageError.system("mmap", path: path, errno: code)
      }
      let m = Mapping(base: base, size: size)
      mapping = m
      reader = ByteReader(base: UnsafeRawBufferPointer(start: base, count: size), owner: m)
    } else {
      mapping = nil
      reader = ByteReader(bytes: [])
    }
  }

  deinit { close(fd) }

  // MARK: - File-changing operations (each a fault point)

  /// Writes all of `bytes` at `offset`.
  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int, stage: CommitStage)
    throws(StorageError)
  {
    try around(.write(offset: offset, count: bytes.count), stage) { () throws(StorageError) in
      try writeFully(fd, bytes, at: offset, path: path)
    }
  }

  /// Writes `bytes` at `offset`.
  func write(_ bytes: [UInt8], at offset: Int, stage: CommitStage) throws(StorageError) {
    try withBytes(bytes) { (b) throws(StorageError) in try write(b, at: offset, stage: stage) }
  }

  /// `fsync`: makes everything written so far durable (§8.2 step 4).
  func sync(stage: CommitStage) throws(StorageError) {
    try around(.sync, stage) { () throws(StorageError) in
      while fsync(fd) != 0 {
        if errno == EINTR { continue }
        throw StorageError.system("fsync", path: path, errno: errno)
      }
    }
  }

  /// Grows the file to `size` with allocated blocks (so a full disk fails here, not later).
  func allocate(upTo size: Int, currentSize: Int, stage: CommitStage) throws(StorageError) {
    guard size > currentSize else { return }
    try around(.resize(size: size), stage) { () throws(StorageError) in
      var rc = posix_fallocate(fd, off_t(currentSize), off_t(size - currentSize))
      while rc == EINTR { rc = posix_fallocate(fd, off_t(currentSize), off_t(size - currentSize)) }
      if rc == EOPNOTSUPP || rc == EINVAL {
        // File systems without fallocate: a plain size change (reads as zeros).
        if ftruncate(fd, off_t(size)) != 0 { rc = errno } else { rc = 0 }
      }
      if rc != 0 { throw StorageError.system("posix_fallocate", path: path, errno: rc) }
    }
  }

  /// `ftruncate` to `size` (used to give back the grown area on abort).
  func truncate(to size: Int, stage: CommitStage) throws(StorageError) {
    try around(.resize(size: size), stage) { () throws(StorageError) in
      while ftruncate(fd, off_t(size)) != 0 {
        if errno == EINTR { continue }
        throw StorageError.system("ftruncate", path: path, errno: errno)
      }
    }
  }

  /// The current size of the file.
  func currentSize() throws(StorageError) -> Int {
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw StorageError.system("fstat", path: path, errno: errno) }
    return Int(st.st_size)
  }

  /// Reads `count` bytes at `offset` with `pread` (bytes written in this transaction).
  func read(at offset: Int, count: Int) throws(StorageError) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let n = out.withUnsafeMutableBytes { buffer in
        pread(fd, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
      }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else {
        throw StorageError.system("pread", path: path, errno: n < 0 ? errno : EIO)
      }
      done += n
    }
    return out
  }

  private func around(
    _ op: FaultPoint.Operation, _ stage: CommitStage, _ body: () throws(StorageError) -> Void
  ) throws(StorageError) {
    let index = operationCount
    operationCount += 1
    if let hook = faultInjection {
      if case .fail(let code) = hook(
        FaultPoint(index: index, operation: op, stage: stage, isBefore: true))
      {
        throw StorageError.system("\(op.name) (injected)", path: path, errno: code)
      }
    }
    try body()
    if let hook = faultInjection {
      if case .fail(let code) = hook(
        FaultPoint(index: index, operation: op, stage: stage, isBefore: false))
      {
        throw StorageError.system("\(op.name) (injected)", path: path, errno: code)
      }
    }
  }
}

/// Runs `body` on the bytes of `array`, keeping the typed error.
func withBytes<R>(
  _ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(StorageError) -> R
) throws(StorageError) -> R {
  let result: Result<R, StorageError> = array.withUnsafeBytes { b in
    Result { () throws(StorageError) -> R in try body(b) }
  }
  return try result.get()
}

/// Owns a `mmap` region and unmaps it when the last reader is gone.
private final class Mapping: @unchecked Sendable {
  let base: UnsafeMutableRawPointer
  let size: Int
  init(base: UnsafeMutableRawPointer, size: Int) {
    self.base = base
    self.size = size
  }
  deinit { munmap(base, size) }
}
