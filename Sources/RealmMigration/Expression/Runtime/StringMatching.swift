import RealmModel

/// The string operators: `BEGINSWITH CONTAINS ENDSWITH LIKE` and their functions.
///
/// Matching is on UTF-8 bytes (so on Unicode scalars), like Realm; `[c]` lower-cases both
/// sides first. `LIKE` has `*` (any run, also empty) and `?` (exactly one Unicode scalar).
enum StringMatching {
  static func beginsWith(_ s: String, _ prefix: String, caseInsensitive: Bool) -> Bool {
    if caseInsensitive { return s.lowercased().utf8.starts(with: prefix.lowercased().utf8) }
    return s.utf8.starts(with: prefix.utf8)
  }

  static func endsWith(_ s: String, _ suffix: String, caseInsensitive: Bool) -> Bool {
    let a = caseInsensitive ? s.lowercased() : s
    let b = caseInsensitive ? suffix.lowercased() : suffix
    return a.utf8.reversed().starts(with: b.utf8.reversed())
  }

  static func contains(_ s: String, _ part: String, caseInsensitive: Bool) -> Bool {
    let a = Array((caseInsensitive ? s.lowercased() : s).utf8)
    let b = Array((caseInsensitive ? part.lowercased() : part).utf8)
    return find(b, in: a, from: 0) != nil
  }

  /// Byte offset of the first occurrence of `needle` at or after `from`.
  static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    if needle.isEmpty { return from }
    guard haystack.count >= needle.count else { return nil }
    let first = needle[0]
    var i = from
    let last = haystack.count - needle.count
    while i <= last {
      if haystack[i] == first {
        var j = 1
        while j < needle.count, haystack[i + j] == needle[j] { j += 1 }
        if j == needle.count { return i }
      }
      i += 1
    }
    return nil
  }

  /// `LIKE`: a greedy wildcard match with one backtrack point, linear in practice and
  /// at worst quadratic in the text length (never exponential).
  static func like(_ s: String, _ pattern: String, caseInsensitive: Bool) -> Bool {
    let text = Array((caseInsensitive ? s.lowercased() : s).unicodeScalars)
    let pat = Array((caseInsensitive ? pattern.lowercased() : pattern).unicodeScalars)
    var t = 0
    var p = 0
    var starP = -1
    var starT = 0
    while t < text.count {
      if p < pat.count, pat[p] == "?" || pat[p] == text[t] {
        t += 1
        p += 1
      } else if p < pat.count, pat[p] == "*" {
        starP = p
        starT = t
        p += 1
      } else if starP >= 0 {
        p = starP + 1
        starT += 1
        t = starT
      } else {
        return false
      }
    }
    while p < pat.count, pat[p] == "*" { p += 1 }
    return p == pat.count
  }

  /// `replace(s, from, to)`: every non-overlapping occurrence, left to right, by bytes.
  static func replace(_ s: String, _ from: String, _ to: String) -> String {
    guard !from.isEmpty else { return s }
    let a = Array(s.utf8)
    let f = Array(from.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(a.count)
    var i = 0
    while let hit = find(f, in: a, from: i) {
      out.append(contentsOf: a[i..<hit])
      out.append(contentsOf: to.utf8)
      i = hit + f.count
    }
    out.append(contentsOf: a[i...])
    return String(decoding: out, as: UTF8.self)
  }

  /// `split(s, sep)`: keeps empty parts; an empty separator splits into characters.
  static func split(_ s: String, _ separator: String) -> [RealmValue] {
    if separator.isEmpty { return s.map { .string(String($0)) } }
    let a = Array(s.utf8)
    let f = Array(separator.utf8)
    var parts: [RealmValue] = []
    var i = 0
    while let hit = find(f, in: a, from: i) {
      parts.append(.string(String(decoding: a[i..<hit], as: UTF8.self)))
      i = hit + f.count
    }
    parts.append(.string(String(decoding: a[i...], as: UTF8.self)))
    return parts
  }
}
