#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RealmFormat
import RealmModel

/// An error from the storage layer: opening, reading, locking and writing Realm files.
///
/// Equality compares ``code`` only, so tests can match on the kind of failure. Problems in
/// the bytes of the file itself are carried as a `FormatError` (code ``Code/corrupt``).
/// Its description (`detail`) is one complete sentence naming the file.
public struct StorageError: CodedError, DetailedError {
  /// The kind of failure.
  public enum Code: String, Sendable, Hashable {
    /// Another process (a Realm app or another realmctl) holds the realm's lock file.
    case locked
    /// A system call (`open`, `pwrite`, `fsync`, `mmap`, ...) failed.
    case io
    /// Permission to read, write or create a file was denied.
    case permissionDenied
    /// The file does not exist.
    case fileNotFound
    /// The file is not a Realm file (no `T-DB` mnemonic, a directory, ...).
    case notARealmFile
    /// The file looks like an encrypted Realm file and no key was given.
    case encrypted
    /// The key given does not decrypt the file (or the file's first page is damaged).
    case wrongKey
    /// A key was given for a file that is not encrypted.
    case notEncrypted
    /// The file format version is not one realmctl reads.
    case unsupportedFormat
    /// The file's bytes are not a valid Realm file (see ``StorageError/formatError``).
    case corrupt
    /// The file is valid but this writer does not support writing it (format, history type).
    case unsupported
    /// An output file that must be new already exists (a backup, a created realm).
    case alreadyExists
    /// The API was used in a way its contract forbids (a bug in the caller).
    case misuse
  }

  /// The kind of failure.
  public var code: Code
  /// The file the error is about, when known.
  public var path: String?
  /// The `errno` of a failed system call, when there is one.
  public var errno: Int32?
  /// The underlying decoding error for ``Code/corrupt``.
  public var formatError: FormatError?
  /// A one-sentence description (no final period).
  public var detail: String

  /// Creates an error.
  public init(
    _ code: Code, path: String? = nil, errno: Int32? = nil, formatError: FormatError? = nil,
    _ detail: String
  ) {
    self.code = code
    self.path = path
    self.errno = errno
    self.formatError = formatError
    self.detail = detail
  }

  // MARK: - Factories

  /// The realm's lock file is held by another process.
  public static func locked(realmPath: String, lockPath: String) -> StorageError {
    StorageError(
      .locked, path: realmPath,
      "'\(baseName(realmPath))' is open in another process (its lock file '\(baseName(lockPath))' "
        + "is held); close the app and retry")
  }

  /// A system call failed with `errno`.
  public static func system(_ call: String, path: String, errno code: Int32) -> StorageError {
    let kind: Code
    switch code {
    case EACCES, EPERM, EROFS: kind = .permissionDenied
    case ENOENT, ENOTDIR: kind = .fileNotFound
    default: kind = .io
    }
    return StorageError(
      kind, path: path, errno: code, "\(call) failed on '\(path)': \(errnoDescription(code))")
  }

  /// The file's bytes are invalid.
  public static func corrupt(path: String, _ error: FormatError) -> StorageError {
    StorageError(
      .corrupt, path: path, formatError: error,
      "'\(baseName(path))' is not a valid Realm file: \(error.description)")
  }

  /// The file is valid but cannot be written by this version.
  public static func unsupported(path: String, _ detail: String) -> StorageError {
    StorageError(.unsupported, path: path, "cannot write '\(baseName(path))': \(detail)")
  }

  /// A file-level problem: `'<path>' <predicate>` (e.g. "does not exist").
  public static func file(_ code: Code, _ path: String, _ predicate: String) -> StorageError {
    StorageError(code, path: path, "'\(path)' \(predicate)")
  }

  /// Wraps a decoding error met while opening or reading `path`.
  public static func from(_ error: FormatError, path: String) -> StorageError {
    switch error.code {
    case .notRealmFile:
      return .file(.notARealmFile, path, "is not a Realm file: \(error.detail)")
    case .encrypted:
      return .file(.encrypted, path, "is encrypted (it has no readable Realm header): give its key")
    case .unsupportedVersion:
      return .file(.unsupportedFormat, path, "cannot be read: \(error.detail)")
    case .truncated, .corrupt, .limitExceeded:
      return StorageError(.corrupt, path: path, formatError: error, "'\(path)' is not a valid Realm file: \(error.description)")
    }
  }

  /// The key does not decrypt the file; `realmMessage` is what Realm Core says.
  public static func wrongKey(path: String, realmMessage: String) -> StorageError {
    StorageError(
      .wrongKey, path: path,
      "the encryption key does not match '\(path)': its first page fails the HMAC check, so either the key is wrong or the file is damaged (Realm Core: \(realmMessage))"
    )
  }

  /// The caller broke the API's contract.
  public static func misuse(_ detail: String) -> StorageError {
    StorageError(.misuse, "internal error: \(detail); please report it")
  }
}

/// The last path component (for messages).
func baseName(_ path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return path }
  return String(path[path.index(after: slash)...])
}

/// `strerror` text for `code`.
func errnoDescription(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "errno \(code)" }
  return String(cString: text)
}
