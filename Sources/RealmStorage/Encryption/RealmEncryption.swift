import RealmFormat

/// `encrypt`, `decrypt` and re-keying: a realm copied page for page with a new key (or none),
/// in place (atomically, under the realm's lock) or into a new file.
///
/// The data is copied as it is, free space and history included, so the result is the same
/// realm: encrypting a plain file and decrypting it again gives the original bytes (a plain
/// streaming-form file whose size is not a whole number of pages gets zeros before its footer,
/// as Realm's `write_copy` pads for encryption). Encryption writes each page once with IV 1,
/// as Realm Core writes a new encrypted file, so encrypting the same plaintext with the same key
/// gives the same bytes as Realm.
public enum RealmEncryption {
  /// What a conversion did.
  public struct Result: Sendable, Equatable {
    /// Size of the source file on disk.
    public var sizeBefore: Int
    /// Size of the written file on disk.
    public var sizeAfter: Int
  }

  /// True when the file at `path` has no readable Realm header, as an encrypted realm (the
  /// key decides whether it really is one).
  public static func looksEncrypted(path: String) throws(StorageError) -> Bool {
    let mapping = try MappedFile(path: path)
    return !FileHeader.hasMnemonic(mapping.reader)
  }

  /// The size on disk of an encrypted file holding `dataSize` bytes of data (Realm Core's
  /// `data_size_to_encrypted_size`).
  public static func encryptedSize(ofDataSize dataSize: Int) -> Int {
    EncryptedLayout.fileSize(dataSize: dataSize)
  }

  /// Writes the realm at `path` (opened with `key`, nil when it is not encrypted) again with
  /// `newKey` (nil: unencrypted), over itself or into `outputPath` (which must not exist).
  ///
  /// - Throws: ``StorageError``: those of ``RealmFile/open(path:key:limits:)`` (wrong key,
  ///   not encrypted, corrupt), `locked` (in place, while another process has the realm open),
  ///   `alreadyExists` (the output), `corrupt` for a damaged page, I/O errors. On every error
  ///   the original is untouched and no output is left.
  @discardableResult
  public static func rewrite(
    path: String, key: EncryptionKey?, newKey: EncryptionKey?, outputPath: String? = nil,
    faultInjection: (@Sendable (FaultPoint) -> FaultAction)? = nil
  ) throws -> Result {
    if let outputPath {
      let file = try RealmFile.open(path: path, key: key)
      var after = 0
      try AtomicFileCreation.create(path: outputPath, encryptionKey: newKey) { output in
        try copyPages(of: file, key: key, into: output)
        after = newKey == nil ? output.offset : EncryptedLayout.fileSize(dataSize: output.offset)
      }
      return Result(sizeBefore: file.fileSize, sizeAfter: after)
    }
    let lock = try FileLock(exclusiveForRealmAt: path)
    defer { lock.release() }
    let file = try RealmFile.open(path: path, key: key)
    var after = 0
    try AtomicFileReplacement.replace(
      path: path, lock: lock, encryptionKey: newKey, faultInjection: faultInjection
    ) { output in
      try copyPages(of: file, key: key, into: output)
      after = newKey == nil ? output.offset : EncryptedLayout.fileSize(dataSize: output.offset)
    }
    return Result(sizeBefore: file.fileSize, sizeAfter: after)
  }

  /// True when no node of the live snapshot of `group` lies on data page `page`: the page is
  /// past the logical size or inside free space.
  static func isUnused(page: Int, in group: Group) -> Bool {
    let start = page * EncryptedLayout.pageSize
    let end = min(start + EncryptedLayout.pageSize, group.logicalSize)
    guard start >= FileHeader.size, start < end else { return start >= group.logicalSize }
    var covered = start
    for chunk in group.freeList.sorted(by: { $0.position < $1.position }) {
      guard chunk.position <= covered else { break }
      covered = max(covered, chunk.position + chunk.length)
      if covered >= end { return true }
    }
    return false
  }

  /// Copies the whole data of `file` (decrypted when `key` is given) into `output`.
  static func copyPages(of file: RealmFile, key: EncryptionKey?, into output: AtomicFileReplacement.Output) throws {
    let raw = file.mapping.reader.base
    guard let base = raw.baseAddress else { return }
    let chunk = 1 << 20
    guard let key else {
      var size = raw.count
      let page = EncryptedLayout.pageSize
      let header = file.group.header
      if output.isEncrypted, size % page != 0, header.isStreaming {
        // Realm's pad_for_encryption: the footer stays last, zeros go before it.
        size -= FileHeader.footerSize
      }
      var done = 0
      while done < size {
        let n = min(chunk, size - done)
        try output.write(UnsafeRawBufferPointer(start: base + done, count: n))
        done += n
      }
      if size != raw.count {
        let padded = (raw.count + page - 1) / page * page
        try output.write([UInt8](repeating: 0, count: padded - raw.count))
        try output.write(UnsafeRawBufferPointer(start: base + size, count: FileHeader.footerSize))
      }
      return
    }
    let decrypted = try DecryptedFile(raw: raw, owner: file.mapping, key: key)
    let pages = EncryptedLayout.completeDataPages(fileSize: raw.count)
    var buffer = [UInt8](repeating: 0, count: chunk)
    let perChunk = chunk / EncryptedLayout.pageSize
    var page = 0
    while page < pages {
      let n = min(perChunk, pages - page)
      for i in 0..<n {
        let result = buffer.withUnsafeMutableBytes { b in
          decrypted.read(page: page + i, into: b.baseAddress! + i * EncryptedLayout.pageSize)
        }
        switch result {
        case .decrypted, .staleZeroPage: break
        case .uninitialized, .interruptedFirstWrite, .failed, .outOfBounds:
          // Realm reads only the pages its nodes are on: a page never written (or whose first
          // write a crash cut off, or damaged) is fine as long as nothing lives on it. Its
          // plaintext is then zeros; a page with live data that cannot be read is an error.
          guard result == .uninitialized || isUnused(page: page + i, in: file.group) else {
            throw StorageError.corrupt(
              path: file.path, DecryptedFile.error(result, page: page + i, fileSize: raw.count))
          }
          _ = buffer.withUnsafeMutableBytes { b in
            (b.baseAddress! + i * EncryptedLayout.pageSize).initializeMemory(
              as: UInt8.self, repeating: 0, count: EncryptedLayout.pageSize)
          }
        }
      }
      try buffer.withUnsafeBytes { b in
        try output.write(UnsafeRawBufferPointer(rebasing: b[0..<(n * EncryptedLayout.pageSize)]))
      }
      page += n
    }
  }
}
