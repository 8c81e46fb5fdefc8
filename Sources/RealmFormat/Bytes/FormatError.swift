import RealmModel

/// An error found while decoding the bytes of a Realm file.
///
/// Every problem a file can cause (truncation, a bad ref, an impossible size, a structure
/// that does not match the format) surfaces as a `FormatError`; nothing a file contains may
/// trap. Equality compares ``code`` only, so tests can match on the kind of failure.
public struct FormatError: CodedError, CustomStringConvertible {
  /// The kind of failure.
  public enum Code: String, Sendable, Hashable {
    /// The file ends before a structure it references.
    case truncated
    /// The header is not a Realm header (wrong mnemonic).
    case notRealmFile
    /// The file looks encrypted (no readable header).
    case encrypted
    /// The file format version is one this reader does not read.
    case unsupportedVersion
    /// A structure is inconsistent with the format.
    case corrupt
    /// A limit (depth, node visits, sizes) was exceeded.
    case limitExceeded
  }

  /// The kind of failure.
  public var code: Code
  /// File offset at which the problem was found, when known.
  public var offset: Int?
  /// A one-sentence description (no final period).
  public var detail: String

  /// Creates an error.
  public init(_ code: Code, offset: Int? = nil, _ detail: String = "") {
    self.code = code
    self.offset = offset
    self.detail = detail
  }

  public var description: String {
    if let offset { return "\(detail) (at offset 0x\(String(offset, radix: 16)))" }
    return detail
  }

  // MARK: - Factories

  /// A read of `needed` bytes at `offset` goes past the end of the data.
  public static func truncated(at offset: Int, needed: Int, size: Int) -> FormatError {
    FormatError(
      .truncated, offset: offset,
      "needs \(needed) bytes but the file has \(max(0, size - offset)) left (file size \(size))")
  }

  /// A structural inconsistency.
  public static func corrupt(_ detail: String, at offset: Int? = nil) -> FormatError {
    FormatError(.corrupt, offset: offset, detail)
  }

  /// A limit was hit.
  public static func limit(_ detail: String, at offset: Int? = nil) -> FormatError {
    FormatError(.limitExceeded, offset: offset, detail)
  }
}
