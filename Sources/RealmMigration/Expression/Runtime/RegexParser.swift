/// A parsed regular expression, before compilation to ``SafeRegex`` instructions.
indirect enum RegexNode: Sendable {
  case scalar(UInt32)
  case any
  case set([ClosedRange<UInt32>], negated: Bool)
  case start
  case end
  case sequence([RegexNode])
  case alternation(RegexNode, RegexNode)
  case `repeat`(RegexNode, min: Int, max: Int?)
}

/// Recursive-descent parser of the pattern syntax ``SafeRegex`` documents.
struct RegexParser {
  let scalars: [UInt32]
  let caseInsensitive: Bool
  private(set) var position = 0
  private static let maxGroupDepth = 64
  private static let maxCount = 1_000

  init(scalars: [UInt32], caseInsensitive: Bool) {
    self.scalars = scalars
    self.caseInsensitive = caseInsensitive
  }

  var atEnd: Bool { position >= scalars.count }
  private var peek: UInt32? { position < scalars.count ? scalars[position] : nil }
  private func isChar(_ c: Unicode.Scalar) -> Bool { peek == c.value }

  /// Simple lower-case folding of one scalar (identity when it maps to several).
  static func fold(_ c: UInt32) -> UInt32 {
    if c < 0x80 { return (c >= 0x41 && c <= 0x5A) ? c + 32 : c }
    guard let s = Unicode.Scalar(c) else { return c }
    let lower = s.properties.lowercaseMapping.unicodeScalars
    return lower.count == 1 ? (lower.first?.value ?? c) : c
  }

  mutating func parseAlternation(depth: Int) throws(RegexSyntaxError) -> RegexNode {
    guard depth < Self.maxGroupDepth else { throw RegexSyntaxError("groups nest deeper than \(Self.maxGroupDepth)") }
    var node = try parseSequence(depth: depth)
    while isChar("|") {
      position += 1
      node = .alternation(node, try parseSequence(depth: depth))
    }
    return node
  }

  private mutating func parseSequence(depth: Int) throws(RegexSyntaxError) -> RegexNode {
    var items: [RegexNode] = []
    while let c = peek, c != UInt32(ascii: "|"), c != UInt32(ascii: ")") {
      var atom = try parseAtom(depth: depth)
      while let q = try parseQuantifier() {
        if case .start = atom { throw RegexSyntaxError("'^' cannot be repeated") }
        atom = .repeat(atom, min: q.0, max: q.1)
      }
      items.append(atom)
    }
    return .sequence(items)
  }

  private mutating func parseQuantifier() throws(RegexSyntaxError) -> (Int, Int?)? {
    guard let c = peek else { return nil }
    let result: (Int, Int?)
    switch c {
    case UInt32(ascii: "*"): result = (0, nil)
    case UInt32(ascii: "+"): result = (1, nil)
    case UInt32(ascii: "?"): result = (0, 1)
    case UInt32(ascii: "{"):
      let save = position
      position += 1
      guard let min = number() else {
        position = save
        return nil
      }
      var max: Int? = min
      if isChar(",") {
        position += 1
        max = number()
      }
      guard isChar("}") else { throw RegexSyntaxError("'{' at position \(save + 1) is not closed with '}'") }
      if let m = max, m < min { throw RegexSyntaxError("repetition {\(min),\(m)} has its maximum below its minimum") }
      result = (min, max)
    default: return nil
    }
    position += 1
    if isChar("?") { position += 1 }  // lazy: same truth value for a yes/no match
    return result
  }

  private mutating func number() -> Int? {
    var v = 0
    var any = false
    while let c = peek, c >= 0x30, c <= 0x39 {
      v = v * 10 + Int(c - 0x30)
      if v > Self.maxCount { v = Self.maxCount + 1 }
      position += 1
      any = true
    }
    return any ? v : nil
  }

  private func literal(_ c: UInt32) -> RegexNode { .scalar(caseInsensitive ? Self.fold(c) : c) }

  private mutating func parseAtom(depth: Int) throws(RegexSyntaxError) -> RegexNode {
    guard let c = peek else { throw RegexSyntaxError("pattern ends unexpectedly") }
    let at = position + 1
    position += 1
    switch c {
    case UInt32(ascii: "("):
      if isChar("?") {
        guard position + 1 < scalars.count, scalars[position + 1] == UInt32(ascii: ":") else {
          throw RegexSyntaxError("only '(?:' groups and a leading '(?i)' are supported (position \(at))")
        }
        position += 2
      }
      let inner = try parseAlternation(depth: depth + 1)
      guard isChar(")") else { throw RegexSyntaxError("'(' at position \(at) is not closed") }
      position += 1
      return inner
    case UInt32(ascii: "["): return try parseSet(at)
    case UInt32(ascii: "."): return .any
    case UInt32(ascii: "^"): return .start
    case UInt32(ascii: "$"): return .end
    case UInt32(ascii: "\\"): return try parseEscape(at, inSet: false)
    case UInt32(ascii: "*"), UInt32(ascii: "+"), UInt32(ascii: "?"):
      throw RegexSyntaxError("nothing to repeat at position \(at)")
    default: return literal(c)
    }
  }

  private static let digit: [ClosedRange<UInt32>] = [0x30...0x39]
  private static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
  private static let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20]

  private mutating func parseEscape(_ at: Int, inSet: Bool) throws(RegexSyntaxError) -> RegexNode {
    guard let e = peek else { throw RegexSyntaxError("pattern ends after '\\'") }
    position += 1
    switch e {
    case UInt32(ascii: "d"): return .set(Self.digit, negated: false)
    case UInt32(ascii: "w"): return .set(Self.word, negated: false)
    case UInt32(ascii: "s"): return .set(Self.space, negated: false)
    case UInt32(ascii: "D"), UInt32(ascii: "W"), UInt32(ascii: "S"):
      if inSet { throw RegexSyntaxError("'\\D', '\\W' and '\\S' are not supported inside '[...]'") }
      let ranges = e == UInt32(ascii: "D") ? Self.digit : (e == UInt32(ascii: "W") ? Self.word : Self.space)
      return .set(ranges, negated: true)
    case UInt32(ascii: "n"): return literal(0x0A)
    case UInt32(ascii: "t"): return literal(0x09)
    case UInt32(ascii: "r"): return literal(0x0D)
    default:
      // Letters and digits as escapes are reserved (\b, \1, ...); punctuation is literal.
      let isAlnum = (e >= 0x30 && e <= 0x39) || (e >= 0x41 && e <= 0x5A) || (e >= 0x61 && e <= 0x7A)
      if isAlnum {
        throw RegexSyntaxError("escape '\\\(Character(Unicode.Scalar(e) ?? "?"))' at position \(at) is not supported")
      }
      return literal(e)
    }
  }

  private mutating func parseSet(_ at: Int) throws(RegexSyntaxError) -> RegexNode {
    var negated = false
    if isChar("^") {
      negated = true
      position += 1
    }
    var ranges: [ClosedRange<UInt32>] = []
    var first = true
    while true {
      guard let c = peek else { throw RegexSyntaxError("'[' at position \(at) is not closed") }
      if c == UInt32(ascii: "]") && !first { break }
      first = false
      position += 1
      var low = c
      if c == UInt32(ascii: "\\") {
        switch try parseEscape(at, inSet: true) {
        case .set(let r, _):
          ranges += r
          continue
        case .scalar(let s): low = s
        default: continue
        }
      }
      var high = low
      if isChar("-"), position + 1 < scalars.count, scalars[position + 1] != UInt32(ascii: "]") {
        position += 1
        guard let h = peek else { break }
        position += 1
        high = h
        if h == UInt32(ascii: "\\") {
          guard case .scalar(let s) = try parseEscape(at, inSet: true) else {
            throw RegexSyntaxError("a range in '[' at position \(at) ends in a class")
          }
          high = s
        }
        guard low <= high else { throw RegexSyntaxError("range in '[' at position \(at) is reversed") }
      }
      ranges.append(low...high)
      if caseInsensitive {
        // Add the folded forms so that folded input still matches.
        if high - low < 256 { for s in low...high { let f = Self.fold(s); ranges.append(f...f) } }
      }
    }
    position += 1
    return .set(ranges, negated: negated)
  }
}

extension UInt32 {
  /// The scalar value of an ASCII character, for readable pattern code.
  fileprivate init(ascii c: Unicode.Scalar) { self = c.value }
}
