#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RealmFormat
import Synchronization

/// The plaintext of an encrypted Realm file, decrypted page by page on first access.
///
/// The plaintext lives in an anonymous mapping of the data size, reserved but not committed:
/// only pages that are read take memory. A ``LazyPages`` region in front of it decrypts a page
/// the first time any reader's checked read touches it (`ByteReader.check`, `ArrayNode.init`),
/// on whichever thread asks, so parallel readers decrypt in parallel.
///
/// Each page is checked as Realm Core checks it (see ``PageCipher/read(_:entry:page:into:)``):
/// a page that fails its HMAC check, was never written or is cut off by the end of the file
/// throws ``FormatError`` (`corrupt`) with Realm's wording, never traps.
final class DecryptedFile: PageProducer, @unchecked Sendable {
  /// The encrypted bytes (a read-only mapping of the file).
  let raw: UnsafeRawBufferPointer
  /// Keeps `raw` alive.
  let rawOwner: AnyObject
  let cipher: PageCipher
  /// The plaintext mapping.
  let plain: UnsafeMutableRawPointer
  /// Bytes of plaintext: the data size, rounded up to whole pages.
  let plainSize: Int

  /// A view of `raw` (an encrypted file) decrypted with `key`.
  init(raw: UnsafeRawBufferPointer, owner: AnyObject, key: EncryptionKey) throws(StorageError) {
    self.raw = raw
    self.rawOwner = owner
    cipher = PageCipher(key: key)
    let data = EncryptedLayout.dataSize(fileSize: raw.count)
    let pages = (data + EncryptedLayout.pageSize - 1) / EncryptedLayout.pageSize
    plainSize = max(pages, 1) * EncryptedLayout.pageSize
    var flags = MAP_PRIVATE | MAP_ANONYMOUS
    #if os(Linux)
      flags |= MAP_NORESERVE
    #elseif canImport(Darwin)
      // Nothing to add: Darwin commits anonymous pages when they are first touched and keeps
      // no overcommit account to opt out of (its MAP_NORESERVE is ignored).
    #endif
    guard let p = mmap(nil, plainSize, PROT_READ | PROT_WRITE, flags, -1, 0), p != MAP_FAILED else {
      throw StorageError(.io, errno: errno, "cannot reserve \(plainSize) bytes of memory for the decrypted file")
    }
    plain = p
  }

  /// Pages decrypted so far (each page is decrypted at most once; tests check it).
  let decryptedPages = Atomic<Int>(0)

  deinit { munmap(plain, plainSize) }

  /// Number of data pages.
  var pageCount: Int { plainSize / EncryptedLayout.pageSize }

  /// A reader of the plaintext that decrypts on first access.
  func reader(dataSize: Int) -> ByteReader {
    let pages = LazyPages(pageCount: pageCount, producer: self)
    return ByteReader(
      base: UnsafeRawBufferPointer(start: plain, count: min(dataSize, plainSize)), pages: pages)
  }

  /// Reads, checks and decrypts page `page` into `destination` (4096 bytes).
  func read(page: Int, into destination: UnsafeMutableRawPointer) -> PageReadResult {
    let position = EncryptedLayout.filePosition(ofPage: page)
    let entryPosition = EncryptedLayout.entryPosition(ofPage: page)
    guard let base = raw.baseAddress, position <= raw.count - EncryptedLayout.pageSize else {
      return .outOfBounds
    }
    var entry = IVTableEntry(base + entryPosition)
    return cipher.read(base + position, entry: &entry, page: page, into: destination)
  }

  func producePage(_ page: Int, of pages: LazyPages) throws(FormatError) {
    decryptedPages.add(1, ordering: .relaxed)
    let result = read(page: page, into: plain + page * EncryptedLayout.pageSize)
    switch result {
    case .decrypted, .staleZeroPage: return
    default: throw DecryptedFile.error(result, page: page, fileSize: raw.count)
    }
  }

  /// The error for a page that cannot be read, in Realm Core's words.
  static func error(_ result: PageReadResult, page: Int, fileSize: Int) -> FormatError {
    FormatError.corrupt(
      "decryption failed: page \(page) in file of size \(fileSize) \(result.realmWording)",
      at: page * EncryptedLayout.pageSize)
  }
}

