/// The system calls an ``EncryptedPageStore`` makes on the encrypted file (raw offsets), so the
/// callers' fault injection and error wording apply to them.
protocol RawFileIO: AnyObject {
  /// `pwrite` of all of `bytes` at raw offset `offset`.
  func writeRaw(_ bytes: UnsafeRawBufferPointer, at offset: Int, stage: CommitStage) throws(StorageError)
  /// `fsync`.
  func syncRaw(stage: CommitStage) throws(StorageError)
  /// `pread` of up to `count` bytes at `offset` into `buffer`; returns the number read (short at
  /// the end of the file).
  func readRaw(at offset: Int, count: Int, into buffer: UnsafeMutableRawPointer) throws(StorageError) -> Int
}

/// Writes plaintext into an encrypted Realm file, page by page, following Realm Core's write
/// protocol: a page's new IV-table entry (the previous IV and tag kept as the second pair) goes
/// to disk before the page itself, so a write interrupted between the two is undone by the
/// reader (``PageCipher/read(_:entry:page:into:)``).
///
/// Plaintext writes land in dirty pages kept in memory (read and decrypted first when the page
/// exists, zeros when it is new) and reach the disk in ``flush(stage:syncBetween:)``: first every
/// dirty page's entry, then (after an `fsync` when asked) every page, so at any moment each page
/// on disk is its old or its new version. No plaintext is ever written to the file.
final class EncryptedPageStore {
  /// The file object that owns this store (and outlives it): unowned, since it holds the store
  /// (a strong reference both ways leaked both after every encrypted write; found by the
  /// `encrypted` fuzz target's leak check).
  unowned let io: any RawFileIO
  let cipher: PageCipher
  let path: String
  /// Size of the encrypted file on disk, as this store knows it (grows with writes).
  private(set) var rawSize: Int
  /// Dirty pages (plaintext, 4096 bytes each), by page index.
  private var dirty: [Int: [UInt8]] = [:]
  /// The effective IV-table entries of pages read or written so far (after Realm's recovery of
  /// an interrupted write), by page index.
  private var entries: [Int: IVTableEntry] = [:]
  /// Scratch for ciphertext.
  private var scratch = [UInt8](repeating: 0, count: EncryptedLayout.pageSize)
  /// The file's size when the store was created.
  let originalRawSize: Int
  /// The ciphertext of every page of the original file written since, and the entry of every
  /// page whose entry is inside the original file, kept so that an abort can put them back
  /// byte for byte.
  private var originalPages: [Int: [UInt8]] = [:]
  private var originalEntries: [Int: [UInt8]] = [:]

  init(io: any RawFileIO, key: EncryptionKey, path: String, rawSize: Int) {
    self.io = io
    self.cipher = PageCipher(key: key)
    self.path = path
    self.rawSize = rawSize
    originalRawSize = rawSize
  }

  /// Bytes of dirty pages held in memory.
  var dirtyBytes: Int { dirty.count * EncryptedLayout.pageSize }

  /// The data size of the file on disk.
  var dataSize: Int { EncryptedLayout.dataSize(fileSize: rawSize) }

  /// Copies `bytes` into the plaintext at `position` (in memory until the next flush).
  func write(_ bytes: UnsafeRawBufferPointer, at position: Int) throws(StorageError) {
    var done = 0
    while done < bytes.count {
      let p = position + done
      let page = p / EncryptedLayout.pageSize
      let inPage = p % EncryptedLayout.pageSize
      let n = min(bytes.count - done, EncryptedLayout.pageSize - inPage)
      var buffer = try dirtyPage(page)
      buffer.withUnsafeMutableBytes { b in
        (b.baseAddress! + inPage).copyMemory(from: bytes.baseAddress! + done, byteCount: n)
      }
      dirty[page] = buffer
      done += n
    }
  }

  /// The plaintext at `position` (dirty pages first, then the file).
  func read(at position: Int, count: Int) throws(StorageError) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(count)
    var p = position
    while out.count < count {
      let page = p / EncryptedLayout.pageSize
      let inPage = p % EncryptedLayout.pageSize
      let n = min(count - out.count, EncryptedLayout.pageSize - inPage)
      let buffer: [UInt8]
      if let d = dirty[page] { buffer = d } else { buffer = try readPage(page, forModification: false) }
      out += buffer[inPage..<(inPage + n)]
      p += n
    }
    return out
  }

  /// Forgets every dirty page (abort).
  func discardDirtyPages() { dirty.removeAll() }

  /// Writes every dirty page (or those `selected`): their entries, an `fsync` when
  /// `syncBetween`, then the pages.
  func flush(stage: CommitStage, syncBetween: Bool, selected: (Int) -> Bool = { _ in true }) throws(StorageError) {
    guard !dirty.isEmpty else { return }
    let pages = dirty.keys.filter(selected).sorted()
    guard !pages.isEmpty else { return }
    for page in pages {
      if originalPages[page] == nil,
        EncryptedLayout.filePosition(ofPage: page) + EncryptedLayout.pageSize <= originalRawSize
      {
        originalPages[page] = try rawBytes(at: EncryptedLayout.filePosition(ofPage: page), count: EncryptedLayout.pageSize)
      }
      if originalEntries[page] == nil,
        EncryptedLayout.entryPosition(ofPage: page) + EncryptedLayout.entrySize <= originalRawSize
      {
        originalEntries[page] = try rawBytes(at: EncryptedLayout.entryPosition(ofPage: page), count: EncryptedLayout.entrySize)
      }
    }
    var ciphertexts: [[UInt8]] = []
    ciphertexts.reserveCapacity(pages.count)
    var newEntries: [IVTableEntry] = []
    for page in pages {
      let previous = try entry(page)
      var cipherPage = [UInt8](repeating: 0, count: EncryptedLayout.pageSize)
      let plain = dirty[page]!
      let next = plain.withUnsafeBytes { p in
        cipherPage.withUnsafeMutableBytes { c in
          cipher.write(p.baseAddress!, previous: previous, page: page, into: c.baseAddress!)
        }
      }
      ciphertexts.append(cipherPage)
      newEntries.append(next)
    }
    // 1. The entries, one write per run of consecutive pages within a metadata page.
    var i = 0
    while i < pages.count {
      var j = i + 1
      while j < pages.count, pages[j] == pages[j - 1] + 1, pages[j] % EncryptedLayout.pagesPerBlock != 0 { j += 1 }
      var bytes: [UInt8] = []
      bytes.reserveCapacity((j - i) * EncryptedLayout.entrySize)
      for k in i..<j { bytes += newEntries[k].bytes }
      try withBytes(bytes) { (b) throws(StorageError) in
        try io.writeRaw(b, at: EncryptedLayout.entryPosition(ofPage: pages[i]), stage: stage)
      }
      i = j
    }
    for (k, page) in pages.enumerated() { entries[page] = newEntries[k] }
    if syncBetween { try io.syncRaw(stage: stage) }
    // 2. The pages, one write per run of consecutive pages (runs stop at metadata pages).
    i = 0
    while i < pages.count {
      var j = i + 1
      while j < pages.count, pages[j] == pages[j - 1] + 1, pages[j] % EncryptedLayout.pagesPerBlock != 0 { j += 1 }
      var bytes: [UInt8] = []
      bytes.reserveCapacity((j - i) * EncryptedLayout.pageSize)
      for k in i..<j { bytes += ciphertexts[k] }
      let position = EncryptedLayout.filePosition(ofPage: pages[i])
      try withBytes(bytes) { (b) throws(StorageError) in try io.writeRaw(b, at: position, stage: stage) }
      rawSize = max(rawSize, position + bytes.count)
      i = j
    }
    for page in pages { dirty[page] = nil }
  }

  /// Puts back the original bytes of every page of the original file written so far (abort):
  /// first the pages, then their entries, so that at every moment each page reads as its
  /// new version (the entry still names it) or its old one (the old tag is the entry's second).
  func restoreOriginals(stage: CommitStage) throws(StorageError) {
    dirty.removeAll()
    for page in originalPages.keys.sorted() {
      try withBytes(originalPages[page]!) { (b) throws(StorageError) in
        try io.writeRaw(b, at: EncryptedLayout.filePosition(ofPage: page), stage: stage)
      }
    }
    if !originalPages.isEmpty { try io.syncRaw(stage: stage) }
    for page in originalEntries.keys.sorted() {
      try withBytes(originalEntries[page]!) { (b) throws(StorageError) in
        try io.writeRaw(b, at: EncryptedLayout.entryPosition(ofPage: page), stage: stage)
      }
    }
    entries.removeAll()
    originalPages.removeAll()
    originalEntries.removeAll()
  }

  /// `count` bytes of the file at `offset` as they are on disk (zeros past its end).
  private func rawBytes(at offset: Int, count: Int) throws(StorageError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    _ = try withMutableBytes(&bytes) { (b) throws(StorageError) in
      try io.readRaw(at: offset, count: count, into: b.baseAddress!)
    }
    return bytes
  }

  /// Notes that the file was resized to `size` raw bytes by the caller.
  func didResize(rawSize size: Int) {
    if size < rawSize {
      // Entries of pages cut off are stale now: read them again if the file grows back.
      let firstGone = EncryptedLayout.dataSize(fileSize: size) / EncryptedLayout.pageSize
      entries = entries.filter { $0.key < firstGone }
    }
    rawSize = size
  }

  // MARK: - Pages

  private func dirtyPage(_ page: Int) throws(StorageError) -> [UInt8] {
    if let d = dirty[page] { return d }
    return try readPage(page, forModification: true)
  }

  /// The current entry of `page` (from the file the first time).
  private func entry(_ page: Int) throws(StorageError) -> IVTableEntry {
    if let e = entries[page] { return e }
    var raw = [UInt8](repeating: 0, count: EncryptedLayout.entrySize)
    let n = try withMutableBytes(&raw) { (b) throws(StorageError) in
      try io.readRaw(at: EncryptedLayout.entryPosition(ofPage: page), count: EncryptedLayout.entrySize, into: b.baseAddress!)
    }
    let e = n == EncryptedLayout.entrySize ? raw.withUnsafeBytes { IVTableEntry($0.baseAddress!) } : IVTableEntry()
    entries[page] = e
    return e
  }

  /// Reads and decrypts `page`. For a modification, pages Realm would not read (never written,
  /// past the end, a first write that never completed) count as zeros, as in Realm Core's
  /// `refresh_page(to_modify: true)`; a page that fails its HMAC check is an error either way.
  private func readPage(_ page: Int, forModification: Bool) throws(StorageError) -> [UInt8] {
    var plain = [UInt8](repeating: 0, count: EncryptedLayout.pageSize)
    var current = try entry(page)
    let position = EncryptedLayout.filePosition(ofPage: page)
    let n = try withMutableBytes(&scratch) { (b) throws(StorageError) in
      try io.readRaw(at: position, count: EncryptedLayout.pageSize, into: b.baseAddress!)
    }
    let result: PageReadResult
    if n < EncryptedLayout.pageSize {
      result = .outOfBounds
    } else {
      result = scratch.withUnsafeBytes { c in
        plain.withUnsafeMutableBytes { p in cipher.read(c.baseAddress!, entry: &current, page: page, into: p.baseAddress!) }
      }
    }
    switch result {
    case .decrypted:
      entries[page] = current
      return plain
    case .staleZeroPage:
      return plain
    case .uninitialized, .outOfBounds, .interruptedFirstWrite:
      if forModification { return [UInt8](repeating: 0, count: EncryptedLayout.pageSize) }
      fallthrough
    case .failed:
      throw StorageError.corrupt(path: path, DecryptedFile.error(result, page: page, fileSize: rawSize))
    }
  }
}

/// Runs `body` on the mutable bytes of `array`, keeping the typed error.
func withMutableBytes<R>(
  _ array: inout [UInt8], _ body: (UnsafeMutableRawBufferPointer) throws(StorageError) -> R
) throws(StorageError) -> R {
  let result: Result<R, StorageError> = array.withUnsafeMutableBytes { b in
    Result { () throws(StorageError) -> R in try body(b) }
  }
  return try result.get()
}
