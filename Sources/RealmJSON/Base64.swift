/// Standard base64 (RFC 4648 §4, with padding), as the dump writes binary values.
public enum Base64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Value of each byte as a base64 digit, 0xFF for bytes outside the alphabet.
  private static let digitValues: [UInt8] = {
    var t = [UInt8](repeating: 0xFF, count: 256)
    for (i, c) in alphabet.enumerated() { t[Int(c)] = UInt8(i) }
    return t
  }()

  /// Appends the base64 text of `bytes` to `out`.
  public static func encode(_ bytes: [UInt8], to out: inout [UInt8]) {
    out.reserveCapacity(out.count + (bytes.count + 2) / 3 * 4)
    var i = 0
    let n = bytes.count
    while i + 3 <= n {
      let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
      out.append(alphabet[Int(v >> 18)])
      out.append(alphabet[Int(v >> 12 & 63)])
      out.append(alphabet[Int(v >> 6 & 63)])
      out.append(alphabet[Int(v & 63)])
      i += 3
    }
    let rest = n - i
    if rest == 1 {
      let v = UInt32(bytes[i]) << 16
      out.append(alphabet[Int(v >> 18)])
      out.append(alphabet[Int(v >> 12 & 63)])
      out.append(UInt8(ascii: "="))
      out.append(UInt8(ascii: "="))
    } else if rest == 2 {
      let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
      out.append(alphabet[Int(v >> 18)])
      out.append(alphabet[Int(v >> 12 & 63)])
      out.append(alphabet[Int(v >> 6 & 63)])
      out.append(UInt8(ascii: "="))
    }
  }

  /// The base64 text of `bytes`.
  public static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    encode(bytes, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes standard base64; padding is optional, white space is not allowed. Nil when the
  /// text is not base64.
  public static func decode(_ text: String) -> [UInt8]? {
    var chars = Array(text.utf8)
    var padding = 0
    while chars.last == UInt8(ascii: "="), padding < 2 {
      chars.removeLast()
      padding += 1
    }
    if padding > 0 && (chars.count + padding) % 4 != 0 { return nil }
    if chars.count % 4 == 1 { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(chars.count * 3 / 4)
    var acc: UInt32 = 0
    var bits = 0
    for c in chars {
      let d = digitValues[Int(c)]
      if d == 0xFF { return nil }
      acc = acc << 6 | UInt32(d)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
        acc &= (1 << UInt32(bits)) - 1
      }
    }
    // Left-over bits must be zero in canonical base64.
    if acc != 0 { return nil }
    return out
  }
}
