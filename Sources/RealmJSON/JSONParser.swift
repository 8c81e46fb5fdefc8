/// An error in a JSON document, with the line and column where it was found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// 1-based line.
  public var line: Int
  /// 1-based column (in bytes).
  public var column: Int
  /// What is wrong.
  public var message: String
  public var description: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// Integers without fraction or exponent that fit in `Int64` stay exact (``JSONValue/int(_:)``);
/// other numbers become `Double`, keeping `-0.0`. Object member order is preserved. Nesting is
/// limited (``maxDepth``) so hostile input cannot exhaust the stack.
public struct JSONParser {
  /// Deepest nesting of arrays and objects accepted.
  public var maxDepth = 512

  private let bytes: [UInt8]
  private var i = 0

  /// Parses one complete document (surrounding white space allowed).
  public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
    var p = JSONParser(bytes: bytes)
    p.skipSpace()
    let v = try p.value(depth: 0)
    p.skipSpace()
    if p.i < p.bytes.count { throw p.error("unexpected content after the JSON value") }
    return v
  }

  /// Parses a document given as a string.
  public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try parse(Array(text.utf8))
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private func error(_ message: String) -> JSONParseError {
    var line = 1
    var col = 1
    var k = 0
    while k < i && k < bytes.count {
      if bytes[k] == 0x0A { line += 1; col = 1 } else { col += 1 }
      k += 1
    }
    return JSONParseError(line: line, column: col, message: message)
  }

  private mutating func skipSpace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x0A, 0x0D, 0x09: i += 1
      default: return
      }
    }
  }

  private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
    guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
    guard i < bytes.count else { throw error("unexpected end of input, expected a value") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[i])))'")
    }
  }

  private mutating func literal(_ word: String) throws(JSONParseError) {
    let start = i
    for c in word.utf8 {
      guard i < bytes.count, bytes[i] == c else {
        i = start
        throw error("invalid literal, expected '\(word)'")
      }
      i += 1
    }
  }

  private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
    var members: [JSONMember] = []
    try elements(closedBy: "}", in: "an object") { (p) throws(JSONParseError) in
      guard p.i < p.bytes.count, p.bytes[p.i] == UInt8(ascii: "\"") else { throw p.error("expected a string key") }
      let key = try p.string()
      p.skipSpace()
      guard p.i < p.bytes.count, p.bytes[p.i] == UInt8(ascii: ":") else { throw p.error("expected ':' after key") }
      p.i += 1
      p.skipSpace()
      members.append(JSONMember(key, try p.value(depth: depth + 1)))
    }
    return .object(members)
  }

  private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
    var items: [JSONValue] = []
    try elements(closedBy: "]", in: "an array") { (p) throws(JSONParseError) in
      items.append(try p.value(depth: depth + 1))
    }
    return .array(items)
  }

  /// Reads the comma-separated elements of an object or array, from its opening bracket to the
  /// `close` bracket: `element` reads one (white space around it is skipped), `container` names
  /// it in errors.
  @inline(__always)
  private mutating func elements(
    closedBy close: Unicode.Scalar, in container: String, _ element: (inout JSONParser) throws(JSONParseError) -> Void
  ) throws(JSONParseError) {
    i += 1
    skipSpace()
    if i < bytes.count && bytes[i] == UInt8(ascii: close) { i += 1; return }
    while true {
      skipSpace()
      try element(&self)
      skipSpace()
      guard i < bytes.count else { throw error("unexpected end of input in \(container)") }
      if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
      if bytes[i] == UInt8(ascii: close) { i += 1; return }
      throw error("expected ',' or '\(close)' in \(container)")
    }
  }

  private mutating func hex4() throws(JSONParseError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw error("truncated \\u escape") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let c = bytes[i]
      let d: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
      default: throw error("invalid hex digit in \\u escape")
      }
      v = v << 4 | d
      i += 1
    }
    return v
  }

  private mutating func string() throws(JSONParseError) -> String {
    i += 1
    let start = i
    // Fast path: no escapes.
    var ascii = true
    while i < bytes.count {
      let c = bytes[i]
      if c == UInt8(ascii: "\"") {
        let end = i
        i += 1
        return try bytes.withUnsafeBufferPointer { (all) throws(JSONParseError) -> String in
          let s = UnsafeBufferPointer(rebasing: all[start..<end])
          // ASCII needs no validation; other text is checked (invalid UTF-8 is an error).
          if ascii { return String(decoding: s, as: UTF8.self) }
          guard let str = String(validating: s, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
          return str
        }
      }
      if c == UInt8(ascii: "\\") || c < 0x20 { break }
      if c >= 0x80 { ascii = false }
      i += 1
    }
    var out = Array(bytes[start..<i])
    while i < bytes.count {
      let c = bytes[i]
      if c == UInt8(ascii: "\"") {
        i += 1
        guard let str = String(validating: out, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
        return str
      }
      if c < 0x20 { throw error("control character in a string must be escaped") }
      if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
      i += 1
      guard i < bytes.count else { break }
      let e = bytes[i]
      i += 1
      switch e {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
          guard i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
            throw error("unpaired surrogate in \\u escape")
          }
          i += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape") }
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
          throw error("unpaired surrogate in \\u escape")
        }
        guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
        out.append(contentsOf: Array(String(Character(u)).utf8))
      default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
      }
    }
    throw error("unterminated string")
  }

  private mutating func number() throws(JSONParseError) -> JSONValue {
    let start = i
    var isInteger = true
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) else {
      throw error("invalid number")
    }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      isInteger = false
      i += 1
      let d = i
      while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
      if i == d { throw error("invalid number: digits expected after '.'") }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      isInteger = false
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      let d = i
      while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
      if i == d { throw error("invalid number: digits expected in exponent") }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    if isInteger, let v = Int64(text) { return .int(v) }
    guard let d = Double(text) else { throw error("invalid number '\(text)'") }
    return .double(d)
  }
}
