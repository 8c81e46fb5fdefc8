/// Random tokens and their comparison.
public enum SecretToken {
  /// A new token of `byteCount` random bytes (192 bits by default) from the system's
  /// cryptographically secure generator (`getrandom`/`/dev/urandom`, `arc4random` on macOS),
  /// as base64url without padding: 32 characters of `A-Z a-z 0-9 - _`, safe in a URL, a
  /// cookie and a header.
  public static func generate(byteCount: Int = 24) -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<max(16, byteCount)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    return base64URL(bytes)
  }

  /// Whether `candidate` equals `secret`, in a time that depends on their lengths only, not
  /// on where they first differ (a timing side channel would reveal the secret byte by byte).
  public static func matches(_ candidate: String, _ secret: String) -> Bool {
    let a = Array(candidate.utf8)
    let b = Array(secret.utf8)
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for index in 0..<b.count {
      difference |= (index < a.count ? a[index] : 0) ^ b[index]
    }
    return difference == 0 && !b.isEmpty
  }

  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// `bytes` in base64url without padding.
  static func base64URL(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      var group = UInt32(bytes[index]) << 16
      if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
      if count > 2 { group |= UInt32(bytes[index + 2]) }
      for position in 0...count { output.append(alphabet[Int(group >> UInt32(18 - 6 * position)) & 63]) }
      index += 3
    }
    return String(decoding: output, as: UTF8.self)
  }
}
