import RealmQuery

/// Splits expression source into tokens. Works on UTF-8 bytes; offsets are byte offsets.
struct Lexer {
  private let bytes: [UInt8]
  private var position = 0

  init(_ source: String) {
    bytes = Array(source.utf8)
  }

  /// All tokens, ending with `.end`.
  mutating func tokenize() throws(ExpressionError.Located) -> [Token] {
    var tokens: [Token] = []
    while true {
      let token = try next()
      tokens.append(token)
      if token.kind == .end { return tokens }
    }
  }

  private func peek(_ ahead: Int = 0) -> UInt8? {
    let i = position + ahead
    return i < bytes.count ? bytes[i] : nil
  }

  private mutating func next() throws(ExpressionError.Located) -> Token {
    while let b = peek(), b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { position += 1 }
    let start = position
    guard let b = peek() else { return Token(kind: .end, offset: start, end: start) }
    let kind: TokenKind
    if isDigit(b) {
      kind = try number()
    } else if isIdentifierStart(b) {
      kind = .identifier(identifier())
    } else if b == UInt8(ascii: "@") {
      position += 1
      guard let c = peek(), isIdentifierStart(c) else {
        throw .init(start, "expected a name after '@' such as '@count'")
      }
      kind = .atName(identifier())
    } else if b == UInt8(ascii: "'") || b == UInt8(ascii: "\"") {
      kind = .string(try string(quote: b))
    } else {
      kind = .punct(try punctuation())
    }
    return Token(kind: kind, offset: start, end: position)
  }

  private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
  private func isIdentifierStart(_ b: UInt8) -> Bool {
    (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x24 || b >= 0x80
  }
  private func isIdentifierPart(_ b: UInt8) -> Bool { isIdentifierStart(b) || isDigit(b) }

  private mutating func identifier() -> String {
    let start = position
    while let b = peek(), isIdentifierPart(b) { position += 1 }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  private mutating func number() throws(ExpressionError.Located) -> TokenKind {
    let start = position
    while let b = peek(), isDigit(b) { position += 1 }
    var isDouble = false
    if peek() == UInt8(ascii: "."), let d = peek(1), isDigit(d) {
      isDouble = true
      position += 1
      while let b = peek(), isDigit(b) { position += 1 }
    }
    if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      var ahead = 1
      if let s = peek(1), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { ahead = 2 }
      if let d = peek(ahead), isDigit(d) {
        isDouble = true
        position += ahead
        while let b = peek(), isDigit(b) { position += 1 }
      }
    }
    if let b = peek(), isIdentifierStart(b) {
      throw .init(position, "unexpected '\(String(decoding: [b], as: UTF8.self))' after a number")
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if isDouble {
      guard let v = Double(text), v.isFinite else { throw .init(start, "number '\(text)' is out of range") }
      return .double(v)
    }
    guard let v = UInt64(text) else {
      throw .init(start, "integer is out of range (\(Int64.min) to \(Int64.max))")
    }
    return .int(v)
  }

  private mutating func string(quote: UInt8) throws(ExpressionError.Located) -> String {
    let start = position
    position += 1
    var out: [UInt8] = []
    while true {
      guard let b = peek() else { throw .init(start, "string is not terminated") }
      position += 1
      if b == quote { break }
      if b != UInt8(ascii: "\\") {
        out.append(b)
        continue
      }
      let escapeStart = position - 1
      guard let e = peek() else { throw .init(start, "string is not terminated") }
      position += 1
      switch e {
      case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""): out.append(e)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "0"): out.append(0x00)
      case UInt8(ascii: "u"):
        let scalar = try unicodeEscape(escapeStart)
        out.append(contentsOf: String(Character(scalar)).utf8)
      default:
        // Any other escape is kept as written, so regex patterns read naturally: '^\d+$'.
        out.append(UInt8(ascii: "\\"))
        position -= 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `\u{1F600}` or `\u00E9`, position just after `u`.
  private mutating func unicodeEscape(_ escapeStart: Int) throws(ExpressionError.Located) -> Unicode.Scalar {
    var digits: [UInt8] = []
    if peek() == UInt8(ascii: "{") {
      position += 1
      while let b = peek(), b != UInt8(ascii: "}"), digits.count <= 8 {
        digits.append(b)
        position += 1
      }
      guard peek() == UInt8(ascii: "}") else { throw .init(escapeStart, "'\\u{' escape is not closed with '}'") }
      position += 1
    } else {
      for _ in 0..<4 {
        guard let b = peek() else { break }
        digits.append(b)
        position += 1
      }
    }
    let text = String(decoding: digits, as: UTF8.self)
    guard !digits.isEmpty, digits.count <= 8, let v = UInt32(text, radix: 16), let s = Unicode.Scalar(v) else {
      throw .init(escapeStart, "'\\u' escape '\(text)' is not a Unicode scalar in hexadecimal")
    }
    return s
  }

  private mutating func punctuation() throws(ExpressionError.Located) -> Punct {
    let start = position
    if let a = peek(), let b = peek(1) {
      let two = String(decoding: [a, b], as: UTF8.self)
      if let p = Punct(rawValue: two) {
        position += 2
        return p
      }
    }
    guard let a = peek() else { throw .init(start, "unexpected end") }
    if let p = Punct(rawValue: String(decoding: [a], as: UTF8.self)) {
      position += 1
      return p
    }
    if a == UInt8(ascii: "&") || a == UInt8(ascii: "|") {
      let c = String(decoding: [a], as: UTF8.self)
      throw .init(start, "unexpected '\(c)' (did you mean '\(c)\(c)'?)")
    }
    // Show the whole character, not a lone byte of it.
    var end = start + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
    throw .init(start, "unexpected character '\(String(decoding: bytes[start..<end], as: UTF8.self))'")
  }
}
