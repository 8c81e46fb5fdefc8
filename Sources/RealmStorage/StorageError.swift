/// An error opening or reading a Realm file.
///
/// Equality compares ``code`` only. Format problems found while decoding are wrapped in
/// ``Code/corrupt(_:)`` with the ``FormatError`` that found them.
public struct StorageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of failure.
  public enum Code: Sendable, Hashable {
    /// No file at the path.
    case fileNotFound
    /// The file exists but may not be read.
    case permissionDenied
    /// The file is not a Realm file (no `T-DB` mnemonic).
    case notARealmFile
    /// The file looks like an encrypted Realm file.
    case encrypted
    /// The file format version is not one realmctl reads.
    case unsupportedFormat
    /// The file is damaged: the decoding error says where.
    case corrupt(FormatError)
    /// Another process holds the file's lock.
    case locked
    /// A system call failed.
    case io

    /// Codes compare by kind; the wrapped format error is context.
    public static func == (a: Code, b: Code) -> Bool { a.kind == b.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    private var kind: Int {
      switch self {
      case .fileNotFound: 0
      case .permissionDenied: 1
      case .notARealmFile: 2
      case .encrypted: 3
      case .unsupportedFormat: 4
      case .corrupt: 5
      case .locked: 6
      case .io: 7
      }
    }
  }

  /// The kind of failure.
  public var code: Code
  /// The file concerned.
  public var path: String
  /// One sentence saying what is wrong (no final period).
  public var detail: String

  /// Creates an error.
  public init(_ code: Code, path: String, _ detail: String) {
    self.code = code
    self.path = path
    self.detail = detail
  }

  public static func == (a: StorageError, b: StorageError) -> Bool { a.code == b.code }
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }

  /// One line: `'<path>' <detail>` for file-level problems, with the offset for corruption.
  public var description: String {
    switch code {
    case .corrupt(let e): return "'\(path)' is not a valid Realm file: \(e.description)"
    default: return "'\(path)' \(detail)"
    }
  }

  /// Wraps a decoding error, mapping format-level codes to storage codes.
  public static func from(_ error: FormatError, path: String) -> StorageError {
    switch error.code {
    case .notRealmFile: return StorageError(.notARealmFile, path: path, "is not a Realm file: \(error.detail)")
    case .encrypted:
      return StorageError(.encrypted, path: path, "appears to be encrypted; realmctl cannot read encrypted Realm files yet")
    case .unsupportedVersion: return StorageError(.unsupportedFormat, path: path, "cannot be read: \(error.detail)")
    case .truncated, .corrupt, .limitExceeded: return StorageError(.corrupt(error), path: path, error.description)
    }
  }
}
