import RealmFormat

/// A Realm file opened for reading: the mapping and its decoded group.
///
/// Opening never writes and never creates or touches the `.lock` file beside the Realm.
/// An encrypted file is opened with its key and read through a `DecryptedFile`: pages are
/// decrypted on first access, and nothing above this type knows the file was encrypted.
///
/// ```swift
/// let file = try RealmFile.open(path: "default.realm")
/// for table in file.group.tables { print(table.name, table.objectCount) }
/// let secret = try RealmFile.open(path: "secret.realm", key: key)
/// ```
public struct RealmFile: Sendable {
  /// The path the file was opened with.
  public let path: String
  /// The mapping of the file as it is on disk (ciphertext for an encrypted file).
  public let mapping: MappedFile
  /// The decoded group.
  public let group: Group
  /// True when the file is encrypted (and was opened with its key).
  public let isEncrypted: Bool

  /// Size of the file in bytes, as on disk.
  public var fileSize: Int { mapping.size }
  /// Size of the (decrypted) data the group is read from: the file size for a plain file.
  public var dataSize: Int { group.reader.count }

  /// Opens and validates the file at `path`, decrypting it with `key` when given.
  ///
  /// - Throws: ``StorageError``: `fileNotFound`, `permissionDenied`, `notARealmFile`,
  ///   `encrypted` (no key given, no mnemonic and a size that is a whole number of 4 KiB pages),
  ///   `wrongKey` (the key does not decrypt the first page), `notEncrypted` (a key given for a
  ///   plain file), `unsupportedFormat` (formats <= 9 and unknown ones), `corrupt` (including a
  ///   damaged encrypted page), `io`.
  public static func open(path: String, key: EncryptionKey? = nil, limits: Limits = .default)
    throws(StorageError) -> RealmFile
  {
    try open(path: path, key: key, limits: limits, forWriting: false)
  }

  /// Opens the file as ``open(path:key:limits:)`` does; with `forWriting`, the descriptor it is
  /// read through stays open, read-write (`MappedFile.init(path:forWriting:)`), for an edit
  /// that then writes it in place (`WriteTransaction.begin(file:options:)`) or copies it (a
  /// backup, `FileCopy.backup(_:to:)`) without opening it again.
  package static func open(path: String, key: EncryptionKey? = nil, limits: Limits = .default, forWriting: Bool)
    throws(StorageError) -> RealmFile
  {
    let mapping = try MappedFile(path: path, forWriting: forWriting)
    let reader = try RealmFile.reader(for: mapping, key: key)
    do {
      let group = try Group(reader: reader, limits: limits)
      return RealmFile(path: path, mapping: mapping, group: group, isEncrypted: key != nil)
    } catch {
      throw StorageError.from(error, path: path)
    }
  }

  /// Takes the exclusive lock of the realm at `path` (`FileLock`), then opens it as
  /// ``open(path:key:limits:forWriting:)`` does: the start of every command that writes a realm.
  /// The lock is released when opening fails; otherwise the caller releases it.
  package static func openLocked(
    path: String, key: EncryptionKey?, forWriting: Bool = false
  ) throws(StorageError) -> (lock: FileLock, file: RealmFile) {
    let lock = try FileLock(exclusiveForRealmAt: path)
    do {
      return (lock, try open(path: path, key: key, forWriting: forWriting))
    } catch {
      lock.release()
      throw error
    }
  }

  /// The reader of a mapped file: the bytes themselves, or their decryption with `key`.
  static func reader(for mapping: MappedFile, key: EncryptionKey?) throws(StorageError) -> ByteReader {
    let raw = mapping.reader
    let path = mapping.path
    guard let key else {
      if !FileHeader.hasMnemonic(raw) {
        if RealmFile.isGitLFSPointer(raw) {
          throw StorageError.file(.notARealmFile, path, "is a Git LFS pointer, not the Realm file: run `git lfs pull` to fetch the file")
        }
        // §1.7: encrypted files are stored in 4 KiB pages with no readable header.
        if mapping.size % 4096 == 0 {
          throw StorageError.from(FormatError(.encrypted, "no Realm mnemonic"), path: path)
        }
        throw StorageError.file(.notARealmFile, path, "is not a Realm file (its header lacks the 'T-DB' mnemonic)")
      }
      return raw
    }
    return try EncryptedFileOpening.reader(raw: raw.base, owner: mapping, path: path, key: key)
  }

  /// True for a Git LFS pointer: the small text file git leaves in place of a file tracked by
  /// Git LFS until `git lfs pull` fetches it (`version https://git-lfs.github.com/spec/v1`).
  static func isGitLFSPointer(_ reader: ByteReader) -> Bool {
    let prefix = Array("version https://git-lfs.github.com/spec/".utf8)
    guard reader.count >= prefix.count, reader.count <= 1024 else { return false }
    return prefix.indices.allSatisfy { reader.base[$0] == prefix[$0] }
  }
}

/// The checks made when an encrypted file is opened (shared by reading and writing).
enum EncryptedFileOpening {
  /// A lazily decrypting reader of the encrypted bytes `raw`, after checking that the key
  /// decrypts the first page and that it holds a Realm header.
  static func reader(raw: UnsafeRawBufferPointer, owner: AnyObject, path: String, key: EncryptionKey)
    throws(StorageError) -> ByteReader
  {
    if raw.count >= 24, let base = raw.baseAddress,
      FileHeader.hasMnemonic(ByteReader(base: UnsafeRawBufferPointer(start: base, count: 24), owner: nil))
    {
      throw StorageError(
        .notEncrypted, path: path,
        "'\(path)' is not encrypted, but an encryption key was given; open it without a key")
    }
    guard raw.count >= EncryptedLayout.minimumFileSize else {
      throw StorageError.file(
        .notARealmFile, path,
        "is not an encrypted Realm file: it has \(raw.count) bytes, an encrypted Realm file has at least \(EncryptedLayout.minimumFileSize)"
      )
    }
    let file = try DecryptedFile(raw: raw, owner: owner, key: key)
    let dataSize = EncryptedLayout.dataSize(fileSize: raw.count)
    // The first page decides between "wrong key" and "damaged": it is the first one read.
    var probe = [UInt8](repeating: 0, count: EncryptedLayout.pageSize)
    let first = probe.withUnsafeMutableBytes { file.read(page: 0, into: $0.baseAddress!) }
    switch first {
    case .decrypted, .staleZeroPage: break
    case .failed, .interruptedFirstWrite:
      throw StorageError.wrongKey(path: path, realmMessage: realmMessage(first, fileSize: raw.count))
    case .uninitialized, .outOfBounds:
      throw StorageError(
        .corrupt, path: path, formatError: DecryptedFile.error(first, page: 0, fileSize: raw.count),
        "'\(path)' is not a valid encrypted Realm file: its first page \(first.realmWording)")
    }
    guard FileHeader.hasMnemonic(ByteReader(bytes: Array(probe[0..<24]))) else {
      throw StorageError.file(
        .notARealmFile, path,
        "is not a Realm file: its first page decrypts with this key, but holds no Realm header")
    }
    return file.reader(dataSize: dataSize)
  }

  /// Realm Core's message for a page-0 failure, as `Realm::get_shared_realm` words it.
  static func realmMessage(_ result: PageReadResult, fileSize: Int) -> String {
    "Realm file decryption failed (Decryption failed: page 0 in file of size \(fileSize) \(result.realmWording))"
  }
}
