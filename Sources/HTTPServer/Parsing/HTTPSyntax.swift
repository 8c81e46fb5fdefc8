/// The character classes of HTTP/1.1's grammar (RFC 9110 §5.6, RFC 9112).
enum HTTPSyntax {
  static let cr = UInt8(ascii: "\r")
  static let lf = UInt8(ascii: "\n")
  static let space = UInt8(ascii: " ")
  static let tab = UInt8(ascii: "\t")
  static let colon = UInt8(ascii: ":")

  /// `tchar`: the bytes of a token (a method, a field name, a coding).
  static func isTokenByte(_ byte: UInt8) -> Bool { tokenTable[Int(byte)] }

  private static let tokenTable: [Bool] = (0..<256).map { value in
    let byte = UInt8(value)
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// Whether `bytes` is a non-empty token.
  static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
    !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
  }

  /// A byte a field value may hold: visible ASCII, space, tab, or obs-text (0x80 and up).
  static func isFieldValueByte(_ byte: UInt8) -> Bool {
    byte == tab || byte >= 0x20 && byte != 0x7F
  }

  /// Whether `byte` is optional whitespace (space or tab).
  static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

  /// Text of header bytes: UTF-8 when they are, else each byte as its Latin-1 character (so
  /// that no byte is lost).
  static func text(_ bytes: ArraySlice<UInt8>) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
  }

  /// `bytes` in ASCII lower case.
  static func lowercased(_ bytes: some Collection<UInt8>) -> [UInt8] {
    bytes.map(HTTPHeaders.asciiLower)
  }
}
