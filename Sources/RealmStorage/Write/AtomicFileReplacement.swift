#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces a realm with a completely rewritten file, atomically (for `compact` and full
/// rewrites): the new bytes go to `FILE.realmctl-tmp-XXXXXX` in the same directory, which is
/// synced, renamed over the original and the directory synced, all under the realm's lock.
///
/// A crash before the rename leaves the original (and possibly a stray temporary file, which
/// the next replacement of the same realm deletes); after it, the new file. The replacement keeps the original's permission bits (and owner when
/// allowed).
public enum AtomicFileReplacement {
  /// Sequential writer of the replacement file handed to the closure.
  ///
  /// With an encryption key, offsets are plaintext offsets and the file is written encrypted
  /// as Realm Core writes a new encrypted file (each page once, IVs starting at 1): complete
  /// pages are encrypted as the writer moves past them, the first page (the header, patched
  /// last) and the last one when the file is finished. No plaintext reaches the file.
  public final class Output: @unchecked Sendable {
    let fd: Int32
    /// The temporary file being written.
    public let path: String
    /// Bytes written so far (the offset of the next ``write(_:)-([UInt8])``).
    public private(set) var offset = 0
    let faultInjection: (@Sendable (FaultPoint) -> FaultAction)?
    var operationCount = 0
    /// The encrypted pages (nil: a plain file).
    private var store: EncryptedPageStore?
    /// Largest plaintext offset written.
    private var end = 0

    init(
      fd: Int32, path: String, faultInjection: (@Sendable (FaultPoint) -> FaultAction)?,
      encryptionKey: EncryptionKey? = nil
    ) {
      self.fd = fd
      self.path = path
      self.faultInjection = faultInjection
      if let encryptionKey {
        store = EncryptedPageStore(io: self, key: encryptionKey, path: path, rawSize: 0)
      }
    }

    /// True when the output is encrypted.
    public var isEncrypted: Bool { store != nil }

    /// Encrypts what is still in memory (padding the data to whole pages) and gives the file
    /// Realm's encrypted size. Called before the file is synced; nothing for a plain file.
    func finishEncryption() throws(StorageError) {
      guard let store else { return }
      let page = EncryptedLayout.pageSize
      let dataSize = max((end + page - 1) / page * page, page)
      if dataSize > end {
        try withBytes([UInt8](repeating: 0, count: dataSize - end)) { (b) throws(StorageError) in
          try store.write(b, at: end)
        }
      }
      try store.flush(stage: .replacement, syncBetween: false)
      let size = EncryptedLayout.fileSize(dataSize: dataSize)
      try inject(.resize(size: size))
      guard ftruncate(fd, off_t(size)) == 0 else { throw StorageError.system("ftruncate", path: path, errno: errno) }
    }

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(StorageError) {
      try write(bytes, at: offset)
      offset += bytes.count
    }

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws(StorageError) {
      try withBytes(bytes) { (b) throws(StorageError) in try write(b) }
    }

    /// Writes `bytes` at `position` (e.g. to patch a header); does not move ``offset``.
    public func write(_ bytes: UnsafeRawBufferPointer, at position: Int) throws(StorageError) {
      if let store {
        if bytes.count > 0 { try store.write(bytes, at: position) }
        end = max(end, position + bytes.count)
        // Pages the writer has moved past are complete: encrypt them in batches of 1 MiB.
        // The first page waits for the header, written last.
        if store.dirtyBytes >= 1 << 20 {
          let current = (offset + bytes.count) / EncryptedLayout.pageSize
          try store.flush(stage: .replacement, syncBetween: false) { $0 != 0 && $0 < current }
        }
        return
      }
      try inject(.write(offset: position, count: bytes.count))
      try writeFully(fd, bytes, at: position, path: path)
    }

    func inject(_ op: FaultPoint.Operation) throws(StorageError) {
      defer { operationCount += 1 }
      guard let hook = faultInjection else { return }
      if case .fail(let code) = hook(
        FaultPoint(index: operationCount, operation: op, stage: .replacement, isBefore: true))
      {
        throw StorageError.system("\(op.name) (injected)", path: path, errno: code)
      }
    }
  }

  /// Writes a new version of the realm at `path` with `body` and puts it in place atomically.
  ///
  /// - Parameters:
  ///   - path: the realm to replace (must exist).
  ///   - lock: a lock already held for `path`; when nil, one is taken for the duration.
  ///   - encryptionKey: when given, the new file is written encrypted with it (the body writes
  ///     plaintext; no plaintext page reaches the disk, not even in the temporary file).
  ///   - faultInjection: test hook called before each file-changing call.
  ///   - body: writes the complete new file through the ``Output``.
  /// - Throws: ``StorageError`` (`locked`, I/O), or whatever `body` throws; in every error
  ///   case the original is untouched and the temporary file removed.
  public static func replace(
    path: String, lock: FileLock? = nil, encryptionKey: EncryptionKey? = nil,
    faultInjection: (@Sendable (FaultPoint) -> FaultAction)? = nil,
    _ body: (Output) throws -> Void
  ) throws {
    var st = stat()
    guard stat(path, &st) == 0 else { throw StorageError.system("stat", path: path, errno: errno) }
    let heldLock: FileLock
    if let lock { heldLock = lock } else { heldLock = try FileLock(exclusiveForRealmAt: path) }
    defer { if lock == nil { heldLock.release() } }
    guard heldLock.isHeld else { throw StorageError.misuse("the lock for '\(path)' is not held") }
    removeStaleTemporaryFiles(of: path)
    var template = Array((path + ".realmctl-tmp-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    let tmpPath = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard fd >= 0 else { throw StorageError.system("mkstemp", path: path, errno: errno) }
    var renamed = false
    defer {
      close(fd)
      if !renamed { unlink(tmpPath) }
    }
    _ = fchmod(fd, st.st_mode & 0o7777)
    _ = fchown(fd, st.st_uid, st.st_gid)  // only permitted for root or unchanged owner
    let output = Output(fd: fd, path: tmpPath, faultInjection: faultInjection, encryptionKey: encryptionKey)
    try body(output)
    try output.finishEncryption()
    try output.inject(.sync)
    let synced = durableSync(fd)
    guard synced == 0 else { throw StorageError.system(durableSyncName, path: tmpPath, errno: synced) }
    try output.inject(.rename)
    guard rename(tmpPath, path) == 0 else {
      throw StorageError.system("rename", path: path, errno: errno)
    }
    renamed = true
    // The file is new from here; the directory sync makes the rename durable.
    try output.inject(.sync)
    try syncDirectory(of: path)
  }

  /// Deletes `FILE.realmctl-tmp-XXXXXX` files left by a replacement that was killed before
  /// its rename (they can be as large as the realm). Called with the realm's exclusive lock
  /// held: every replacement writes its temporary file under that lock, so none of them is in
  /// use. Failures are ignored (the file is only garbage).
  public static func removeStaleTemporaryFiles(of path: String) {
    let (dir, name) = DirectoryEntries.split(path)
    let prefix = name + ".realmctl-tmp-"
    for entry in DirectoryEntries.names(in: dir) ?? []
    where entry.utf8.count == prefix.utf8.count + 6 && entry.hasPrefix(prefix) {
      unlink(dir + "/" + entry)
    }
  }

  /// `fsync` of the directory holding `path` (``durableSync(_:)``), making a rename durable.
  static func syncDirectory(of path: String) throws(StorageError) {
    let dir = DirectoryEntries.split(path).directory
    let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw StorageError.system("open", path: dir, errno: errno) }
    defer { close(fd) }
    let synced = durableSync(fd)
    guard synced == 0 else { throw StorageError.system(durableSyncName, path: dir, errno: synced) }
  }
}

extension AtomicFileReplacement.Output: RawFileIO {
  func writeRaw(_ bytes: UnsafeRawBufferPointer, at offset: Int, stage: CommitStage) throws(StorageError) {
    try inject(.write(offset: offset, count: bytes.count))
    try writeFully(fd, bytes, at: offset, path: path)
  }

  func syncRaw(stage: CommitStage) throws(StorageError) {
    try inject(.sync)
    let synced = durableSync(fd)
    guard synced == 0 else { throw StorageError.system(durableSyncName, path: path, errno: synced) }
  }

  func readRaw(at offset: Int, count: Int, into buffer: UnsafeMutableRawPointer) throws(StorageError) -> Int {
    try readFully(fd, into: buffer, count: count, at: offset, path: path)
  }
}
