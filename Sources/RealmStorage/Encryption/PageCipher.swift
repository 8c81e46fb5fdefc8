import RealmCrypto

/// One IV-table entry (64 bytes, integers little-endian): `iv1` and `hmac1` are those of the
/// page's last encryption, `iv2` and `hmac2` those of the one before, kept so that a write
/// interrupted between the entry and the page can be undone on reading.
struct IVTableEntry: Equatable {
  var iv1: UInt32 = 0
  var hmac1 = PageTag()
  var iv2: UInt32 = 0
  var hmac2 = PageTag()

  /// Reads the entry at `p` (64 bytes).
  init(_ p: UnsafeRawPointer) {
    iv1 = UInt32(littleEndian: p.loadUnaligned(as: UInt32.self))
    hmac1 = PageTag(p + 4)
    iv2 = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
    hmac2 = PageTag(p + 36)
  }

  init() {}

  /// Writes the entry to `p` (64 bytes).
  func store(_ p: UnsafeMutableRawPointer) {
    p.storeBytes(of: iv1.littleEndian, as: UInt32.self)
    hmac1.store(p + 4)
    p.storeBytes(of: iv2.littleEndian, toByteOffset: 32, as: UInt32.self)
    hmac2.store(p + 36)
  }

  /// The 64 bytes of the entry.
  var bytes: [UInt8] {
    var out = [UInt8](repeating: 0, count: EncryptedLayout.entrySize)
    out.withUnsafeMutableBytes { store($0.baseAddress!) }
    return out
  }
}

/// A 28-byte HMAC-SHA224 tag, stored inline.
struct PageTag: Equatable {
  var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt32 = 0

  init() {}

  init(_ p: UnsafeRawPointer) {
    a = p.loadUnaligned(as: UInt64.self)
    b = p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    c = p.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
    d = p.loadUnaligned(fromByteOffset: 24, as: UInt32.self)
  }

  func store(_ p: UnsafeMutableRawPointer) {
    p.storeBytes(of: a, as: UInt64.self)
    p.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
    p.storeBytes(of: c, toByteOffset: 16, as: UInt64.self)
    p.storeBytes(of: d, toByteOffset: 24, as: UInt32.self)
  }

  /// Equality whose time does not depend on where the tags differ.
  func constantTimeEquals(_ o: PageTag) -> Bool {
    let x = (a ^ o.a) | (b ^ o.b) | (c ^ o.c) | UInt64(d ^ o.d)
    return x == 0
  }
}

/// The outcome of reading one data page, with Realm Core's names for the cases
/// (`AESCryptor::ReadResult`).
enum PageReadResult: Equatable {
  /// Decrypted with `iv1`, or with `iv2` after an interrupted write (`recovered`).
  case decrypted(recovered: Bool)
  /// `iv1` is 0: the page was never written (Realm: "has never been written to").
  case uninitialized
  /// The HMAC does not match and `iv2` is 0 (Realm: "has never been successfully written to,
  /// but a write was begun"); also what a wrong key gives on a page written once.
  case interruptedFirstWrite
  /// The HMAC does not match but the page is all zeros: space given back and grown again;
  /// its plaintext is taken as zeros.
  case staleZeroPage
  /// The HMAC matches neither tag (Realm: "failed the HMAC check. Either the encryption key is
  /// incorrect or data is corrupted").
  case failed
  /// The file ends inside the page (Realm: "is out of bounds").
  case outOfBounds

  /// Realm Core's wording for a page that cannot be read, completing
  /// "page N in file of size S ...".
  var realmWording: String {
    switch self {
    case .decrypted, .staleZeroPage: return "was decrypted"
    case .uninitialized: return "has never been written to"
    case .interruptedFirstWrite: return "has never been successfully written to, but a write was begun"
    case .failed: return "failed the HMAC check. Either the encryption key is incorrect or data is corrupted"
    case .outOfBounds: return "is out of bounds"
    }
  }
}

/// AES-256-CBC and HMAC-SHA224 of whole 4096-byte pages as Realm Core does them: the CBC IV is
/// the page's `iv1` (4 bytes), its data position (8 bytes, little-endian) and 4 zero bytes; the
/// HMAC covers the ciphertext. Immutable; usable from several threads at once.
final class PageCipher: @unchecked Sendable {
  let aes: AES256
  let mac: HMAC

  init(key: EncryptionKey) {
    // The slice is exactly 32 bytes, so the key size check cannot fail.
    aes = try! AES256(key: key.cipherKey)
    mac = HMAC(key: key.authenticationKey, variant: .sha224)
  }

  /// The tag of the 4096 ciphertext bytes at `cipher`.
  func tag(_ cipher: UnsafeRawPointer) -> PageTag {
    var tag: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &tag) { t in
      mac.authenticate(UnsafeRawBufferPointer(start: cipher, count: EncryptedLayout.pageSize), into: t.baseAddress!)
      return PageTag(UnsafeRawPointer(t.baseAddress!))
    }
  }

  /// Checks and decrypts the page at `cipher` (4096 bytes) whose entry is `entry`, into
  /// `plain` (4096 bytes, may not overlap `cipher`), following Realm's reading rules. On
  /// `.staleZeroPage` `plain` is zero-filled; on the failures it is left untouched.
  /// `entry` is updated as Realm updates its in-memory copy (after a recovery, the second
  /// IV and tag become the current ones).
  func read(
    _ cipher: UnsafeRawPointer, entry: inout IVTableEntry, page: Int, into plain: UnsafeMutableRawPointer
  ) -> PageReadResult {
    guard entry.iv1 != 0 else { return .uninitialized }
    let actual = tag(cipher)
    var recovered = false
    if !actual.constantTimeEquals(entry.hmac1) {
      if entry.iv2 == 0 { return .interruptedFirstWrite }
      if actual.constantTimeEquals(entry.hmac2) {
        entry.iv1 = entry.iv2
        entry.hmac1 = entry.hmac2
        recovered = true
      } else {
        let bytes = UnsafeRawBufferPointer(start: cipher, count: EncryptedLayout.pageSize)
        if bytes.allSatisfy({ $0 == 0 }) {
          plain.initializeMemory(as: UInt8.self, repeating: 0, count: EncryptedLayout.pageSize)
          return .staleZeroPage
        }
        return .failed
      }
    }
    withIV(entry.iv1, page: page) { iv in
      aes.decryptCBC(cipher, into: plain, count: EncryptedLayout.pageSize, iv: iv)
    }
    return .decrypted(recovered: recovered)
  }

  /// Encrypts the 4096 bytes at `plain` into `cipher` as the next version of a page whose
  /// current entry is `entry`, and returns the new entry: the current IV and tag move to the
  /// second slot, the IV goes up by one (skipping 0), and again in the unlikely case that the
  /// new tag equals the old one.
  func write(
    _ plain: UnsafeRawPointer, previous entry: IVTableEntry, page: Int, into cipher: UnsafeMutableRawPointer
  ) -> IVTableEntry {
    var next = IVTableEntry()
    next.iv2 = entry.iv1
    next.hmac2 = entry.hmac1
    next.iv1 = entry.iv1
    repeat {
      next.iv1 &+= 1
      if next.iv1 == 0 { next.iv1 = 1 }
      withIV(next.iv1, page: page) { iv in
        aes.encryptCBC(plain, into: cipher, count: EncryptedLayout.pageSize, iv: iv)
      }
      next.hmac1 = tag(cipher)
    } while next.hmac1 == next.hmac2
    return next
  }

  private func withIV<R>(_ iv1: UInt32, page: Int, _ body: (UnsafeRawPointer) -> R) -> R {
    var iv: (UInt32, UInt64, UInt32) = (0, 0, 0)
    return withUnsafeMutableBytes(of: &iv) { raw in
      let p = raw.baseAddress!
      p.storeBytes(of: iv1.littleEndian, as: UInt32.self)
      p.storeBytes(of: UInt64(page * EncryptedLayout.pageSize).littleEndian, toByteOffset: 4, as: UInt64.self)
      p.storeBytes(of: 0, toByteOffset: 12, as: UInt32.self)
      return body(UnsafeRawPointer(p))
    }
  }
}
