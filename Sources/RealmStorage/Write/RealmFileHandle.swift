import RealmFormat
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
///
/// An encrypted file is opened with its key: ``reader`` is then its decrypted view, and every
/// offset and size of this type's interface is a plaintext (data) one. Writes go into an
/// ``EncryptedPageStore`` and reach the disk at the next ``sync(stage:)`` with Realm's page
/// protocol (entries, `fsync`, pages, `fsync`), so the commit protocol above keeps its order.
final class RealmFileHandle: @unchecked Sendable {
  let path: String
  let fd: Int32
  /// Size of the file (its data) when it was opened.
  let originalSize: Int
  /// Size of the file on disk when it was opened (differs from `originalSize` when encrypted).
  let originalRawSize: Int
  /// The bytes of the file (decrypted) as opened (length `originalSize`).
  let reader: ByteReader
  private let mapping: Mapping?
  /// The `MappedFile` whose descriptor this handle writes through (``init(file:key:)``): it
  /// owns the descriptor and closes it; nil when the handle opened the file itself.
  private let descriptorOwner: MappedFile?
  /// The encrypted pages, for an encrypted file.
  private var store: EncryptedPageStore?
  /// Dirty plaintext kept in memory before an intermediate flush of an encrypted file.
  static let dirtyLimit = 8 << 20
  /// Called around every system call that changes the file.
  var faultInjection: ((FaultPoint) -> FaultAction)?
  /// Number of file-changing operations issued so far (the `index` of the next fault point).
  private(set) var operationCount = 0

  init(path: String, readOnly: Bool = false, key: EncryptionKey? = nil) throws(StorageError) {
    self.path = path
    descriptorOwner = nil
    let fd = open(path, (readOnly ? O_RDONLY : O_RDWR) | O_CLOEXEC)
    guard fd >= 0 else { throw StorageError.system("open", path: path, errno: errno) }
    FileAccessLog.record(.open, path: path)
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
    originalRawSize = size
    if size > 0 {
      guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else {
        let code = errno
        close(fd)
        throw StorageError.system("mmap", path: path, errno: code)
      }
      let m = Mapping(base: base, size: size)
      mapping = m
      let raw = ByteReader(base: UnsafeRawBufferPointer(start: base, count: size), owner: m)
      if let key {
        do {
          reader = try EncryptedFileOpening.reader(raw: raw.base, owner: m, path: path, key: key)
        } catch {
          close(fd)
          throw error
        }
        originalSize = reader.count
      } else {
        if !FileHeader.hasMnemonic(raw) && size % 4096 == 0 {
          close(fd)
          throw StorageError.from(FormatError(.encrypted, "no Realm mnemonic"), path: path)
        }
        reader = raw
        originalSize = size
      }
    } else {
      guard key == nil else {
        close(fd)
        throw StorageError.file(.notARealmFile, path, "is empty, not an encrypted Realm file")
      }
      mapping = nil
      reader = ByteReader(bytes: [])
      originalSize = 0
    }
    if let key {
      store = EncryptedPageStore(io: self, key: key, path: path, rawSize: size)
    }
  }

  /// The file as `RealmFile.open(path:key:forWriting:)` opened it, written through the
  /// descriptor it was read through: an edit opens the realm once. `key` is the key it was
  /// opened with; `readOnly`: a dry run, which writes nothing.
  ///
  /// - Throws: the error opening the file read-write would have given (``MappedFile/writeRefusal``);
  ///   ``StorageError/Code/misuse`` when it was not opened for writing.
  init(file: RealmFile, key: EncryptionKey?, readOnly: Bool = false) throws(StorageError) {
    guard let fd = file.mapping.descriptor else {
      throw StorageError.misuse("'\(file.path)' was not opened for writing")
    }
    if !readOnly, let refusal = file.mapping.writeRefusal { throw StorageError.system("open", path: file.path, errno: refusal) }
    path = file.path
    self.fd = fd
    descriptorOwner = file.mapping
    mapping = nil
    originalRawSize = file.mapping.size
    reader = file.group.reader
    originalSize = reader.count
    if let key {
      store = EncryptedPageStore(io: self, key: key, path: path, rawSize: originalRawSize)
    }
  }

  /// True when the file is encrypted.
  var isEncrypted: Bool { store != nil }

  deinit {
    if descriptorOwner == nil { close(fd) }
  }

  // MARK: - File-changing operations (each a fault point)

  /// Writes all of `bytes` at `offset` (for an encrypted file: into dirty pages, which reach the
  /// disk at the next ``sync(stage:)``, or earlier when they exceed ``dirtyLimit``).
  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int, stage: CommitStage)
    throws(StorageError)
  {
    if let store {
      try store.write(bytes, at: offset)
      if store.dirtyBytes > RealmFileHandle.dirtyLimit { try store.flush(stage: stage, syncBetween: true) }
      return
    }
    try around(.write(offset: offset, count: bytes.count), stage) { () throws(StorageError) in
      try writeFully(fd, bytes, at: offset, path: path)
    }
  }

  /// Writes `bytes` at `offset`.
  func write(_ bytes: [UInt8], at offset: Int, stage: CommitStage) throws(StorageError) {
    try withBytes(bytes) { (b) throws(StorageError) in try write(b, at: offset, stage: stage) }
  }

  /// `fsync` (`F_FULLFSYNC` on Apple platforms, ``durableSync(_:)``): makes everything written
  /// so far durable (§8.2 step 4). For an encrypted file the
  /// dirty pages are written first with Realm's protocol (entries, `fsync`, pages).
  func sync(stage: CommitStage) throws(StorageError) {
    try store?.flush(stage: stage, syncBetween: true)
    try syncRaw(stage: stage)
  }

  /// Puts back the original bytes of every page written (encrypted files: an abort leaves the
  /// file byte for byte as it was, not only logically).
  func restoreOriginalPages(stage: CommitStage) throws(StorageError) {
    try store?.restoreOriginals(stage: stage)
  }

  /// Drops writes not yet on disk (encrypted files; a plain file has none).
  func discardPendingWrites() { store?.discardDirtyPages() }

  /// True when the file on disk is larger or smaller than when it was opened.
  func sizeChanged() -> Bool {
    guard let raw = try? rawSize() else { return true }
    return raw != originalRawSize
  }

  /// The size of the file on disk.
  func rawSize() throws(StorageError) -> Int {
    var st = stat()
    guard fstat(fd, &st) == 0 else { throw StorageError.system("fstat", path: path, errno: errno) }
    return Int(st.st_size)
  }

  func syncRaw(stage: CommitStage) throws(StorageError) {
    try around(.sync, stage) { () throws(StorageError) in
      let code = durableSync(fd)
      if code != 0 { throw StorageError.system(durableSyncName, path: path, errno: code) }
    }
  }

  /// Grows the file to `size` with allocated blocks (so a full disk fails here, not later).
  func allocate(upTo size: Int, currentSize: Int, stage: CommitStage) throws(StorageError) {
    if let store {
      // Data size -> the encrypted size Realm gives it; new pages stay unwritten (IV 0) until used.
      let target = EncryptedLayout.fileSize(dataSize: size)
      let current = try rawSize()
      try allocateRaw(upTo: target, currentSize: current, stage: stage)
      store.didResize(rawSize: max(target, current))
      return
    }
    try allocateRaw(upTo: size, currentSize: currentSize, stage: stage)
  }

  private func allocateRaw(upTo size: Int, currentSize: Int, stage: CommitStage) throws(StorageError) {
    guard size > currentSize else { return }
    try around(.resize(size: size), stage) { () throws(StorageError) in
      #if canImport(Darwin)
        // No posix_fallocate on Apple platforms: reserve the blocks past the physical end of the
        // file with F_PREALLOCATE (all or nothing), then set the size, as Realm Core's
        // File::prealloc does there.
        var store = fstore_t()
        store.fst_flags = UInt32(F_ALLOCATEALL)
        store.fst_posmode = F_PEOFPOSMODE
        store.fst_offset = 0
        store.fst_length = off_t(size - currentSize)
        var rc: Int32 = 0
        while fcntl(fd, F_PREALLOCATE, &store) != 0 {
          if errno == EINTR { continue }
          // A full disk fails here; file systems without preallocation (exFAT, network file
          // systems: ENOTSUP, EINVAL) get the plain size change below, as on Linux.
          if errno == ENOSPC || errno == EDQUOT { rc = errno }
          break
        }
        if rc == 0 {
          while ftruncate(fd, off_t(size)) != 0 {
            if errno == EINTR { continue }
            rc = errno
            break
          }
        }
        if rc != 0 { throw StorageError.system("fcntl(F_PREALLOCATE)", path: path, errno: rc) }
      #else
        var rc = posix_fallocate(fd, off_t(currentSize), off_t(size - currentSize))
        while rc == EINTR { rc = posix_fallocate(fd, off_t(currentSize), off_t(size - currentSize)) }
        if rc == EOPNOTSUPP || rc == EINVAL {
          // File systems without fallocate: a plain size change (reads as zeros).
          if ftruncate(fd, off_t(size)) != 0 { rc = errno } else { rc = 0 }
        }
        if rc != 0 { throw StorageError.system("posix_fallocate", path: path, errno: rc) }
      #endif
    }
  }

  /// `ftruncate` to `size` (used to give back the grown area on abort).
  func truncate(to size: Int, stage: CommitStage) throws(StorageError) {
    var size = size
    if let store {
      size = size == originalSize ? originalRawSize : EncryptedLayout.fileSize(dataSize: size)
      store.didResize(rawSize: size)
    }
    try around(.resize(size: size), stage) { () throws(StorageError) in
      while ftruncate(fd, off_t(size)) != 0 {
        if errno == EINTR { continue }
        throw StorageError.system("ftruncate", path: path, errno: errno)
      }
    }
  }

  /// The current size of the file (of its data, for an encrypted file).
  func currentSize() throws(StorageError) -> Int {
    let raw = try rawSize()
    return store == nil ? raw : EncryptedLayout.dataSize(fileSize: raw)
  }

  /// Reads `count` bytes at `offset` with `pread` (bytes written in this transaction; for an
  /// encrypted file, decrypted, pending writes included).
  func read(at offset: Int, count: Int) throws(StorageError) -> [UInt8] {
    if let store { return try store.read(at: offset, count: count) }
    guard count > 0 else { return [] }
    var out = [UInt8](repeating: 0, count: count)
    var failure: StorageError?
    let done = out.withUnsafeMutableBytes { buffer -> Int in
      do throws(StorageError) {
        return try readFully(fd, into: buffer.baseAddress!, count: count, at: offset, path: path)
      } catch {
        failure = error
        return 0
      }
    }
    if let failure { throw failure }
    // A short read: the file ends before what the transaction expects there.
    guard done == count else { throw StorageError.system("pread", path: path, errno: EIO) }
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

extension RealmFileHandle: RawFileIO {
  func writeRaw(_ bytes: UnsafeRawBufferPointer, at offset: Int, stage: CommitStage) throws(StorageError) {
    try around(.write(offset: offset, count: bytes.count), stage) { () throws(StorageError) in
      try writeFully(fd, bytes, at: offset, path: path)
    }
  }

  func readRaw(at offset: Int, count: Int, into buffer: UnsafeMutableRawPointer) throws(StorageError) -> Int {
    try readFully(fd, into: buffer, count: count, at: offset, path: path)
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
