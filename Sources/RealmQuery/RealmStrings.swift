/// Realm's string operators on UTF-8 bytes: `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` and
/// their `[c]` forms, and `==[c]`: the one matcher of Realm Query Language and of
/// RealmMigration's expression language (``matches(_:_:_:caseInsensitive:)``,
/// ``equal(_:_:caseInsensitive:)``), so that a plan's `where` filter and its `set`
/// expressions agree.
///
/// Realm's `[c]` is not full Unicode case folding: it maps ASCII letters and the Latin-1
/// letters U+00C0...U+00DE / U+00E0...U+00FE (except × and ÷), and compares every other
/// character as it is (`'Σ' ==[c] 'σ'` is false). The pattern is mapped to upper and lower
/// case; a text character matches when it equals either form.
package enum RealmStrings {
  /// A string operator.
  package enum Operator: Sendable {
    case beginsWith, endsWith, contains, like
  }

  /// `text op pattern` (with `[c]` when `caseInsensitive`), as Realm matches them.
  package static func matches(_ text: String, _ op: Operator, _ pattern: String, caseInsensitive: Bool) -> Bool {
    var text = text
    let p = Array(pattern.utf8)
    return text.withUTF8 { match($0, op, p, caseInsensitive: caseInsensitive) }
  }

  /// `a ==[c] b` (`a == b` without `caseInsensitive`), as Realm compares them.
  package static func equal(_ a: String, _ b: String, caseInsensitive: Bool) -> Bool {
    guard caseInsensitive else { return a.utf8.elementsEqual(b.utf8) }
    var text = a
    let p = Array(b.utf8)
    return text.withUTF8 { equalIns($0, Folded(p)) }
  }

  /// `text op pattern` on bytes.
  static func match(_ text: UnsafeBufferPointer<UInt8>, _ op: Operator, _ p: [UInt8], caseInsensitive: Bool) -> Bool {
    switch (op, caseInsensitive) {
    case (.beginsWith, false): return beginsWith(text, p)
    case (.endsWith, false): return endsWith(text, p)
    case (.contains, false): return contains(text, p)
    case (.like, false): return like(text, p, p)
    case (.beginsWith, true): return beginsWithIns(text, Folded(p))
    case (.endsWith, true): return endsWithIns(text, Folded(p))
    case (.contains, true): return containsIns(text, Folded(p))
    case (.like, true):
      let f = Folded(p)
      return like(text, f.lower, f.upper)
    }
  }

  /// Upper- and lower-case forms of a pattern (same byte length as the pattern).
  struct Folded: Sendable {
    var upper: [UInt8]
    var lower: [UInt8]
    var count: Int { lower.count }

    init(_ pattern: [UInt8]) {
      upper = RealmStrings.caseMap(pattern, upper: true) ?? []
      lower = RealmStrings.caseMap(pattern, upper: false) ?? []
    }
  }

  /// Realm's case mapping that keeps each character's byte length; nil for malformed UTF-8.
  static func caseMap(_ s: [UInt8], upper: Bool) -> [UInt8]? {
    var out = s
    var i = 0
    let n = s.count
    while i < n {
      let c = s[i]
      if c < 0x80 {
        if upper, c >= 0x61, c <= 0x7A { out[i] = c - 0x20 }
        if !upper, c >= 0x41, c <= 0x5A { out[i] = c + 0x20 }
        i += 1
      } else if c & 0xE0 == 0xC0 {
        guard i + 2 <= n, s[i + 1] & 0xC0 == 0x80 else { return nil }
        var u = (UInt32(c) << 6 + UInt32(s[i + 1] & 0x3F)) & 0x7FF
        if upper, u >= 0xE0, u <= 0xFE, u != 0xF7 { u -= 0x20 } else if !upper, u >= 0xC0, u <= 0xDE, u != 0xD7 { u += 0x20 }
        out[i] = UInt8(u >> 6) | 0xC0
        out[i + 1] = UInt8(u & 0x3F) | 0x80
        i += 2
      } else {
        let length: Int
        if c & 0xF0 == 0xE0 {
          length = 3
        } else if c & 0xF8 == 0xF0 {
          length = 4
        } else {
          return nil
        }
        guard i + length <= n else { return nil }
        for k in 1..<length where s[i + k] & 0xC0 != 0x80 { return nil }
        i += length
      }
    }
    return out
  }

  // MARK: - Case-sensitive (bytes)

  static func beginsWith(_ text: UnsafeBufferPointer<UInt8>, _ p: [UInt8]) -> Bool {
    guard p.count <= text.count else { return false }
    for i in 0..<p.count where text[i] != p[i] { return false }
    return true
  }

  static func endsWith(_ text: UnsafeBufferPointer<UInt8>, _ p: [UInt8]) -> Bool {
    guard p.count <= text.count else { return false }
    let offset = text.count - p.count
    for i in 0..<p.count where text[offset + i] != p[i] { return false }
    return true
  }

  static func contains(_ text: UnsafeBufferPointer<UInt8>, _ p: [UInt8]) -> Bool {
    firstIndex(of: p, in: text, from: 0) != nil
  }

  /// The byte offset of the first occurrence of `needle` in `text` at or after `from`.
  package static func firstIndex(of needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    if needle.isEmpty { return from }
    guard text.count >= needle.count else { return nil }
    let first = needle[0]
    var i = from
    let last = text.count - needle.count
    while i <= last {
      if text[i] == first {
        var j = 1
        while j < needle.count, text[i + j] == needle[j] { j += 1 }
        if j == needle.count { return i }
      }
      i += 1
    }
    return nil
  }

  // MARK: - Case-insensitive

  /// `text[from..<from+pattern.count]` equals the folded pattern (Realm's `equal_case_fold`).
  static func equalFold(_ text: UnsafeBufferPointer<UInt8>, from: Int, _ p: Folded) -> Bool {
    let n = p.count
    for i in 0..<n {
      let c = text[from + i]
      if p.lower[i] != c && p.upper[i] != c { return false }
    }
    var i = 0
    while i < n {
      guard let len = sequence(text, from: from + i, end: from + n, equals: p.lower, at: i)
        ?? sequence(text, from: from + i, end: from + n, equals: p.upper, at: i)
      else { return false }
      i += len
    }
    return true
  }

  /// Length of the character at `text[from]` when it equals `other[at...]` byte for byte.
  private static func sequence(_ text: UnsafeBufferPointer<UInt8>, from: Int, end: Int, equals other: [UInt8], at: Int) -> Int? {
    guard text[from] == other[at] else { return nil }
    var i = 1
    if text[from] & 0x80 != 0 {
      while from + i != end {
        if text[from + i] & 0xC0 != 0x80 { break }
        guard at + i < other.count, text[from + i] == other[at + i] else { return nil }
        i += 1
      }
    }
    return i
  }

  static func equalIns(_ text: UnsafeBufferPointer<UInt8>, _ p: Folded) -> Bool {
    text.count == p.count && equalFold(text, from: 0, p)
  }

  static func beginsWithIns(_ text: UnsafeBufferPointer<UInt8>, _ p: Folded) -> Bool {
    p.count <= text.count && equalFold(text, from: 0, p)
  }

  static func endsWithIns(_ text: UnsafeBufferPointer<UInt8>, _ p: Folded) -> Bool {
    p.count <= text.count && equalFold(text, from: text.count - p.count, p)
  }

  static func containsIns(_ text: UnsafeBufferPointer<UInt8>, _ p: Folded) -> Bool {
    if p.count == 0 { return true }
    guard p.count <= text.count else { return false }
    for i in 0...(text.count - p.count) where equalFold(text, from: i, p) { return true }
    return false
  }

  // MARK: - LIKE

  /// `LIKE` as Realm matches it: `*` is any run of bytes, `?` one character (a byte and the
  /// continuation bytes after it), other bytes match themselves (or, with `[c]`, either case).
  /// One Realm rule differs from ordinary globbing: once the text is used up, what is left
  /// of the pattern must be nothing or a single `*` (`'a' LIKE 'a**'` is false).
  ///
  /// Realm backtracks over every `*`; this finds the same answer by matching the parts
  /// between stars leftmost-first (the earliest match of a part always leaves the most text
  /// for the rest), so the work is at most text length × longest part, never exponential.
  static func like(_ text: UnsafeBufferPointer<UInt8>, _ lower: [UInt8], _ upper: [UInt8]) -> Bool {
    let m = lower.count
    let n = text.count
    let star = UInt8(ascii: "*")
    let question = UInt8(ascii: "?")

    enum Run { case failed, textEnded(Int), reachedStar(Int, Int), reachedEnd(Int) }
    /// Runs the pattern from `p` on the text from `t` until a star, the pattern's end, the
    /// text's end or a mismatch.
    func run(_ t0: Int, _ p0: Int) -> Run {
      var t = t0
      var p = p0
      while true {
        if t == n { return .textEnded(p) }
        if p == m { return .reachedEnd(t) }
        let c = lower[p]
        if c == star { return .reachedStar(p, t) }
        if c == question {
          t += 1
          if text[t - 1] & 0x80 != 0 {
            while t < n, text[t] & 0xC0 == 0x80 { t += 1 }
          }
          p += 1
        } else if text[t] == c || text[t] == upper[p] {
          t += 1
          p += 1
        } else {
          return .failed
        }
      }
    }
    func endRule(_ p: Int) -> Bool { p == m || (p == m - 1 && lower[p] == star) }

    var state = run(0, 0)
    while true {
      switch state {
      case .failed, .reachedEnd: return false
      case .textEnded(let p): return endRule(p)
      case .reachedStar(let starAt, let t):
        let partStart = starAt + 1
        if partStart == m { return true }  // a trailing star takes the rest
        var nextStar = partStart
        while nextStar < m, lower[nextStar] != star { nextStar += 1 }
        if nextStar == m {
          // The last part must end exactly with the text.
          var start = t
          if !lower[partStart..<m].contains(question) { start = max(t, n - (m - partStart)) }
          for s in start...n {
            switch run(s, partStart) {
            case .textEnded(let p) where p == m: return true
            default: continue
            }
          }
          return false
        }
        // A middle part: its leftmost match decides.
        var found: Run?
        var s = t
        while s <= n {
          let r = run(s, partStart)
          if case .failed = r {
            s += 1
            continue
          }
          found = r
          break
        }
        guard let next = found else { return false }
        state = next
      }
    }
  }
}
