/// Splits a Realm Query Language text into tokens exactly as Realm's scanner does: at each
/// position every token rule is tried, the longest match wins and, among matches of equal
/// length, the rule listed first. That is why `in` is an operator but `index` a name, `T1:2`
/// a date, `5-3` the numbers `5` and `-3`, and `a-b` one name.
///
/// Works on UTF-8 bytes; offsets are byte offsets. Linear in the text length (every rule
/// looks at most at the rest of the text once per token, and tokens do not overlap).
struct QueryLexer {
  private let bytes: [UInt8]

  init(_ source: String) {
    bytes = Array(source.utf8)
  }

  /// All tokens, ending with `.end`.
  func tokenize() throws(QueryError.Located) -> [QueryToken] {
    var tokens: [QueryToken] = []
    var position = 0
    while true {
      while position < bytes.count, Self.isBlank(bytes[position]) { position += 1 }
      if position == bytes.count {
        tokens.append(QueryToken(kind: .end, text: "", start: position, end: position))
        return tokens
      }
      guard let (kind, length) = longestMatch(at: position) else {
        throw .init(position, "invalid character \(characterDisplay(at: position))")
      }
      let end = position + length
      var text = String(decoding: bytes[position..<end], as: UTF8.self)
      if kind == .identifier { text = Self.resolvingEscapes(bytes[position..<end]) }
      tokens.append(QueryToken(kind: kind, text: text, start: position, end: end))
      position = end
    }
  }

  private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }

  private func characterDisplay(at position: Int) -> String {
    var end = position + 1
    while end < bytes.count, end - position < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
    let text = String(decoding: bytes[position..<end], as: UTF8.self)
    if bytes[position] == UInt8(ascii: "'") || bytes[position] == UInt8(ascii: "\"") {
      return "\(text) (a string that is not terminated, or an escape other than \\\" \\' \\\\ \\/ \\b \\f \\n \\r \\t \\0 \\uXXXX)"
    }
    return "'\(text)'"
  }

  // MARK: - Rules in Realm's order

  /// The rule that matches the most bytes at `p` (the first listed on a tie).
  private func longestMatch(at p: Int) -> (QueryToken.Kind, Int)? {
    var best: (QueryToken.Kind, Int)?
    func consider(_ kind: QueryToken.Kind, _ length: Int) {
      if length > 0, length > (best?.1 ?? 0) { best = (kind, length) }
    }
    let c = bytes[p]
    // Operators and punctuation.
    switch c {
    case UInt8(ascii: "+"): consider(.plus, 1)
    case UInt8(ascii: "-"): consider(.minus, 1)
    case UInt8(ascii: "*"): consider(.star, 1)
    case UInt8(ascii: "/"): consider(.slash, 1)
    default: break
    }
    consider(.equal, literal(p, "==") ? 2 : (c == UInt8(ascii: "=") ? 1 : 0))
    consider(.inKeyword, literal(p, "in") || literal(p, "IN") ? 2 : 0)
    consider(.notEqual, literal(p, "!=") || literal(p, "<>") ? 2 : 0)
    consider(.less, c == UInt8(ascii: "<") ? 1 : 0)
    consider(.greater, c == UInt8(ascii: ">") ? 1 : 0)
    switch c {
    case UInt8(ascii: "["): consider(.leftBracket, 1)
    case UInt8(ascii: "]"): consider(.rightBracket, 1)
    case UInt8(ascii: ","): consider(.comma, 1)
    case UInt8(ascii: "("): consider(.leftParen, 1)
    case UInt8(ascii: ")"): consider(.rightParen, 1)
    case UInt8(ascii: "{"): consider(.leftBrace, 1)
    case UInt8(ascii: "}"): consider(.rightBrace, 1)
    case UInt8(ascii: "."): consider(.dot, 1)
    default: break
    }
    consider(.lessEqual, literal(p, "<=") || literal(p, "=<") ? 2 : 0)
    consider(.greaterEqual, literal(p, ">=") || literal(p, "=>") ? 2 : 0)
    consider(.and, literal(p, "&&") || caseless(p, "and") ? (c == UInt8(ascii: "&") ? 2 : 3) : 0)
    consider(.or, literal(p, "||") || caseless(p, "or") ? 2 : 0)
    consider(.not, c == UInt8(ascii: "!") ? 1 : (literal(p, "not") || literal(p, "NOT") ? 3 : 0))
    consider(.any, anyOf(p, ["any", "ANY", "some", "SOME"]))
    consider(.all, anyOf(p, ["all", "ALL"]))
    consider(.none, anyOf(p, ["none", "NONE"]))
    let words: [(String, QueryToken.Kind)] = [
      ("beginswith", .beginsWith), ("endswith", .endsWith), ("contains", .contains), ("text", .text),
      ("like", .like), ("between", .between), ("geowithin", .geoWithin), ("truepredicate", .truePredicate),
      ("falsepredicate", .falsePredicate), ("sort", .sort), ("distinct", .distinct), ("limit", .limit),
    ]
    for (word, kind) in words where caseless(p, word) { consider(kind, word.utf8.count) }
    consider(.binary, caseless(p, "binary") ? 6 : (caseless(p, "bin") ? 3 : 0))
    consider(.obj, caseless(p, "obj") ? 3 : 0)
    consider(.ascending, caseless(p, "ascending") ? 9 : (caseless(p, "asc") ? 3 : 0))
    consider(.descending, caseless(p, "descending") ? 10 : (caseless(p, "desc") ? 4 : 0))
    for (word, kind) in [("subquery", QueryToken.Kind.subquery), ("geobox", .geoBox), ("geopolygon", .geoPolygon), ("geocircle", .geoCircle)]
    where caseless(p, word) {
      consider(kind, word.utf8.count)
    }
    if c == UInt8(ascii: "@") {
      consider(.size, anyOf(p, ["@size", "@count"]))
      consider(.max, literal(p, "@max") ? 4 : 0)
      consider(.min, literal(p, "@min") ? 4 : 0)
      consider(.sum, literal(p, "@sum") ? 4 : 0)
      consider(.avg, literal(p, "@avg") ? 4 : 0)
      consider(.backlink, literal(p, "@links") ? 6 : 0)
      consider(.type, literal(p, "@type") ? 5 : 0)
      consider(.keyOrValue, anyOf(p, ["@keys", "@values"]))
    }
    consider(.indexFirst, anyOf(p, ["FIRST", "first"]))
    consider(.indexLast, anyOf(p, ["LAST", "last"]))
    consider(.indexSize, anyOf(p, ["SIZE", "size"]))
    consider(.caseInsensitive, literal(p, "[c]") ? 3 : 0)
    consider(.trueValue, anyOf(p, ["true", "TRUE"]))
    consider(.falseValue, anyOf(p, ["false", "FALSE"]))
    consider(.infinity, signedWord(p, ["infinity", "inf"]))
    consider(.nan, signedWord(p, ["nan"]))
    consider(.null, caseless(p, "null") ? 4 : (caseless(p, "nil") ? 3 : 0))
    consider(.uuid, uuidLiteral(p))
    consider(.objectId, objectIdLiteral(p))
    consider(.timestamp, timestampLiteral(p))
    if c == UInt8(ascii: "O") { consider(.link, digits(p + 1) > 0 ? 1 + digits(p + 1) : 0) }
    if c == UInt8(ascii: "L") { consider(.typedLink, typedLinkLiteral(p)) }
    consider(.natural, digits(p))
    if c == UInt8(ascii: "$") {
      consider(.argument, digits(p + 1) > 0 ? 1 + digits(p + 1) : 0)
      if p + 1 < bytes.count, bytes[p + 1] == UInt8(ascii: "K") {
        consider(.keyPathArgument, digits(p + 2) > 0 ? 2 + digits(p + 2) : 0)
      }
    }
    consider(.number, signedDigits(p))
    consider(.number, hexNumber(p))
    consider(.float, floatWithoutPoint(p))
    consider(.float, floatWithPoint(p))
    consider(.base64, base64Literal(p))
    consider(.string, stringLiteral(p))
    consider(.identifier, identifier(p))
    return best
  }

  // MARK: - Matchers (each returns the length of its match at `p`, 0 for none)

  private func literal(_ p: Int, _ word: StaticString) -> Bool {
    let n = word.utf8CodeUnitCount
    guard p + n <= bytes.count else { return false }
    return word.withUTF8Buffer { w in
      for i in 0..<n where bytes[p + i] != w[i] { return false }
      return true
    }
  }

  private func anyOf(_ p: Int, _ words: [String]) -> Int {
    var best = 0
    for w in words {
      let u = Array(w.utf8)
      if p + u.count <= bytes.count, Array(bytes[p..<(p + u.count)]) == u { best = max(best, u.count) }
    }
    return best
  }

  /// `word` in any letter case (`word` is lower-case ASCII).
  private func caseless(_ p: Int, _ word: String) -> Bool {
    let u = Array(word.utf8)
    guard p + u.count <= bytes.count else { return false }
    for i in 0..<u.count {
      var b = bytes[p + i]
      if b >= 0x41 && b <= 0x5A { b += 0x20 }
      if b != u[i] { return false }
    }
    return true
  }

  /// `[+-]?` then one of `words` in any case.
  private func signedWord(_ p: Int, _ words: [String]) -> Int {
    var q = p
    if q < bytes.count, bytes[q] == UInt8(ascii: "+") || bytes[q] == UInt8(ascii: "-") { q += 1 }
    for w in words where caseless(q, w) { return q - p + w.utf8.count }
    return 0
  }

  private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
  private static func isHex(_ b: UInt8) -> Bool {
    isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
  }

  /// Number of decimal digits from `p`.
  private func digits(_ p: Int) -> Int {
    var q = p
    while q < bytes.count, Self.isDigit(bytes[q]) { q += 1 }
    return q - p
  }

  /// `[+-]?{digit}+`.
  private func signedDigits(_ p: Int) -> Int {
    var q = p
    if q < bytes.count, bytes[q] == UInt8(ascii: "+") || bytes[q] == UInt8(ascii: "-") { q += 1 }
    let n = digits(q)
    return n > 0 ? q - p + n : 0
  }

  private func hexDigits(_ p: Int) -> Int {
    var q = p
    while q < bytes.count, Self.isHex(bytes[q]) { q += 1 }
    return q - p
  }

  /// `0[xX]{hex}+`.
  private func hexNumber(_ p: Int) -> Int {
    guard p + 2 < bytes.count, bytes[p] == UInt8(ascii: "0"),
      bytes[p + 1] == UInt8(ascii: "x") || bytes[p + 1] == UInt8(ascii: "X")
    else { return 0 }
    let n = hexDigits(p + 2)
    return n > 0 ? 2 + n : 0
  }

  /// `[eE][+-]?{digit}+` at `p`, or 0.
  private func exponent(_ p: Int) -> Int {
    guard p < bytes.count, bytes[p] == UInt8(ascii: "e") || bytes[p] == UInt8(ascii: "E") else { return 0 }
    let n = signedDigits(p + 1)
    return n > 0 ? 1 + n : 0
  }

  private func floatSuffix(_ p: Int) -> Int { p < bytes.count && bytes[p] == UInt8(ascii: "f") ? 1 : 0 }

  /// `[+-]?{int}{exp}?f?`.
  private func floatWithoutPoint(_ p: Int) -> Int {
    let n = signedDigits(p)
    guard n > 0 else { return 0 }
    var q = p + n
    q += exponent(q)
    q += floatSuffix(q)
    return q - p
  }

  /// `[+-]?(({int}"."{optint})|({optint}"."{int})){exp}?f?`.
  private func floatWithPoint(_ p: Int) -> Int {
    var q = p
    if q < bytes.count, bytes[q] == UInt8(ascii: "+") || bytes[q] == UInt8(ascii: "-") { q += 1 }
    let before = digits(q)
    q += before
    guard q < bytes.count, bytes[q] == UInt8(ascii: ".") else { return 0 }
    q += 1
    let after = digits(q)
    guard before > 0 || after > 0 else { return 0 }
    q += after
    q += exponent(q)
    q += floatSuffix(q)
    return q - p
  }

  /// `uuid(` 8-4-4-4-12 hex digits `)`.
  private func uuidLiteral(_ p: Int) -> Int {
    guard literal(p, "uuid(") else { return 0 }
    var q = p + 5
    for (i, group) in [8, 4, 4, 4, 12].enumerated() {
      if i > 0 {
        guard q < bytes.count, bytes[q] == UInt8(ascii: "-") else { return 0 }
        q += 1
      }
      for _ in 0..<group {
        guard q < bytes.count, Self.isHex(bytes[q]) else { return 0 }
        q += 1
      }
    }
    guard q < bytes.count, bytes[q] == UInt8(ascii: ")") else { return 0 }
    return q + 1 - p
  }

  /// `oid(` 24 hex digits `)`.
  private func objectIdLiteral(_ p: Int) -> Int {
    guard literal(p, "oid("), p + 29 <= bytes.count else { return 0 }
    for i in 0..<24 where !Self.isHex(bytes[p + 4 + i]) { return 0 }
    return bytes[p + 28] == UInt8(ascii: ")") ? 29 : 0
  }

  /// `T{sint}:{sint}` or `{int}-{int}-{int}[@T]{int}:{int}:{int}(:{int})?`.
  private func timestampLiteral(_ p: Int) -> Int {
    var best = 0
    if bytes[p] == UInt8(ascii: "T") {
      let a = signedDigits(p + 1)
      if a > 0, p + 1 + a < bytes.count, bytes[p + 1 + a] == UInt8(ascii: ":") {
        let b = signedDigits(p + 2 + a)
        if b > 0 { best = 2 + a + b }
      }
    }
    var q = p
    func number() -> Bool {
      let n = digits(q)
      q += n
      return n > 0
    }
    func separator(_ accepted: [UInt8]) -> Bool {
      guard q < bytes.count, accepted.contains(bytes[q]) else { return false }
      q += 1
      return true
    }
    let dash = UInt8(ascii: "-")
    let colon = UInt8(ascii: ":")
    if number(), separator([dash]), number(), separator([dash]), number(),
      separator([UInt8(ascii: "@"), UInt8(ascii: "T")]), number(), separator([colon]), number(),
      separator([colon]), number()
    {
      var length = q - p
      if q < bytes.count, bytes[q] == colon {
        let n = digits(q + 1)
        if n > 0 { length += 1 + n }
      }
      best = max(best, length)
    }
    return best
  }

  /// `L{int}:{int}`.
  private func typedLinkLiteral(_ p: Int) -> Int {
    let a = digits(p + 1)
    guard a > 0, p + 1 + a < bytes.count, bytes[p + 1 + a] == UInt8(ascii: ":") else { return 0 }
    let b = digits(p + 2 + a)
    return b > 0 ? 2 + a + b : 0
  }

  /// `B64"` then `[a-zA-Z0-9/+=]*` then `"`.
  private func base64Literal(_ p: Int) -> Int {
    guard literal(p, "B64\"") else { return 0 }
    var q = p + 4
    while q < bytes.count {
      let b = bytes[q]
      if b == UInt8(ascii: "\"") { return q + 1 - p }
      let ok =
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || Self.isDigit(b) || b == UInt8(ascii: "/")
        || b == UInt8(ascii: "+") || b == UInt8(ascii: "=")
      guard ok else { return 0 }
      q += 1
    }
    return 0
  }

  /// A quoted string: any byte but the quote and `\`, or an escape `\" \' \/ \b \f \n \r \t \0 \\`,
  /// or `\u` with four hex digits. The escapes are kept as written (Realm does not resolve them).
  private func stringLiteral(_ p: Int) -> Int {
    let quote = bytes[p]
    guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") else { return 0 }
    var q = p + 1
    let escapes = Array("\"'/bfnrt0\\".utf8)
    while q < bytes.count {
      let b = bytes[q]
      if b == quote { return q + 1 - p }
      if b == UInt8(ascii: "\\") {
        guard q + 1 < bytes.count else { return 0 }
        let e = bytes[q + 1]
        if escapes.contains(e) {
          q += 2
        } else if e == UInt8(ascii: "u"), q + 5 < bytes.count, (2..<6).allSatisfy({ Self.isHex(bytes[q + $0]) }) {
          q += 6
        } else {
          return 0
        }
      } else {
        q += 1
      }
    }
    return 0
  }

  /// Length of a well-formed UTF-8 sequence (lead byte C2-F7) at `p`, or 0.
  private func utf8Sequence(_ p: Int) -> Int {
    let b = bytes[p]
    let n: Int
    switch b {
    case 0xC2...0xDF: n = 2
    case 0xE0...0xEF: n = 3
    case 0xF0...0xF7: n = 4
    default: return 0
    }
    guard p + n <= bytes.count else { return 0 }
    for i in 1..<n where bytes[p + i] & 0xC0 != 0x80 { return 0 }
    return n
  }

  /// `({letter}|{utf8})({id_char}|{utf8}|\\[ nrt])*` with letters `[a-zA-Z_$]` and id characters
  /// adding digits and `-`.
  private func identifier(_ p: Int) -> Int {
    func isLetter(_ b: UInt8) -> Bool {
      (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
    }
    var q = p
    if isLetter(bytes[q]) {
      q += 1
    } else {
      let n = utf8Sequence(q)
      guard n > 0 else { return 0 }
      q += n
    }
    while q < bytes.count {
      let b = bytes[q]
      if isLetter(b) || Self.isDigit(b) || b == UInt8(ascii: "-") {
        q += 1
      } else if b >= 0x80, utf8Sequence(q) > 0 {
        q += utf8Sequence(q)
      } else if b == UInt8(ascii: "\\"), q + 1 < bytes.count, [0x20, 0x6E, 0x72, 0x74].contains(bytes[q + 1]) {
        q += 2
      } else {
        break
      }
    }
    return q - p
  }

  /// An identifier's text with `\ `, `\t`, `\r`, `\n` turned into the characters.
  private static func resolvingEscapes(_ raw: ArraySlice<UInt8>) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(raw.count)
    var i = raw.startIndex
    while i < raw.endIndex {
      if raw[i] == UInt8(ascii: "\\"), i + 1 < raw.endIndex {
        switch raw[i + 1] {
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "n"): out.append(0x0A)
        default: out.append(0x20)
        }
        i += 2
      } else {
        out.append(raw[i])
        i += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
