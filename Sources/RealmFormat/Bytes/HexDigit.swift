/// ASCII hexadecimal digits, as object ids, UUIDs, keys and query literals write them.
public enum HexDigit {
  /// The value of the hexadecimal digit `c` (`0-9`, `a-f`, `A-F`); nil for any other byte.
  @inlinable
  public static func value(_ c: UInt8) -> UInt8? {
    switch c {
    case 0x30...0x39: return c - 0x30
    case 0x61...0x66: return c - 0x61 + 10
    case 0x41...0x46: return c - 0x41 + 10
    default: return nil
    }
  }
}
