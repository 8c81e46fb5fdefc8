import RealmFormat

/// The 64-byte key of an encrypted Realm file: the first 32 bytes are the AES-256 key, the
/// last 32 the HMAC-SHA224 key (Realm Core's `AESCryptor`).
///
/// The key never appears in descriptions, debug output or error messages.
public struct EncryptionKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
  /// Size of a key in bytes.
  public static let size = 64

  /// Why a text or a byte string is not a key (no key material in the message).
  public struct FormatProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, as a sentence fragment ("has 100 hexadecimal digits, 128 are needed").
    public var description: String
  }

  let bytes: [UInt8]

  /// A key from its 64 raw bytes.
  public init(bytes: some Collection<UInt8>) throws(FormatProblem) {
    guard bytes.count == EncryptionKey.size else {
      throw FormatProblem(description: "has \(bytes.count) bytes, \(EncryptionKey.size) are needed")
    }
    self.bytes = Array(bytes)
  }

  /// A key from 128 hexadecimal digits; ASCII whitespace anywhere is ignored.
  public init(hex: some Collection<UInt8>) throws(FormatProblem) {
    var out: [UInt8] = []
    out.reserveCapacity(EncryptionKey.size)
    var high: UInt8?
    var digits = 0
    for c in hex {
      if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { continue }
      guard let v = HexDigit.value(c) else {
        throw FormatProblem(
          description: "is not hexadecimal (character \(digits + 1) is not one of 0-9, a-f, A-F)")
      }
      digits += 1
      if let h = high {
        out.append(h << 4 | v)
        high = nil
      } else {
        high = v
      }
    }
    guard digits == 2 * EncryptionKey.size else {
      throw FormatProblem(
        description: "has \(digits) hexadecimal digits, \(2 * EncryptionKey.size) are needed")
    }
    bytes = out
  }

  /// A key from the contents of a key file: exactly 64 bytes are taken as the raw key,
  /// anything else must be 128 hexadecimal digits (whitespace and a final newline ignored).
  public init(keyFile contents: [UInt8]) throws(FormatProblem) {
    if contents.count == EncryptionKey.size {
      try self.init(bytes: contents)
      return
    }
    do {
      try self.init(hex: contents)
    } catch {
      throw FormatProblem(
        description: "holds \(contents.count) bytes: a key file must hold the 64-byte key or 128 hexadecimal digits, and this one \(error.description)"
      )
    }
  }

  /// The AES-256 key (bytes 0-31).
  var cipherKey: ArraySlice<UInt8> { bytes[0..<32] }
  /// The HMAC-SHA224 key (bytes 32-63).
  var authenticationKey: ArraySlice<UInt8> { bytes[32..<64] }

  public var description: String { "EncryptionKey(64 bytes, not shown)" }
  public var debugDescription: String { description }
}
