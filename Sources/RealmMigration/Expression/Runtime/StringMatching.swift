import RealmModel
import RealmQuery

/// The string operators: `BEGINSWITH CONTAINS ENDSWITH LIKE` and their functions.
///
/// Matching is Realm's, and the same as in a `where` filter (RealmQuery's `RealmStrings`):
/// on UTF-8 bytes (so on Unicode scalars); `[c]` folds the case of ASCII and Latin-1 letters
/// only, as Realm does. `LIKE` has `*` (any run, also empty) and `?` (exactly one character).
enum StringMatching {
  static func beginsWith(_ s: String, _ prefix: String, caseInsensitive: Bool) -> Bool {
    RealmStrings.matches(s, .beginsWith, prefix, caseInsensitive: caseInsensitive)
  }

  static func endsWith(_ s: String, _ suffix: String, caseInsensitive: Bool) -> Bool {
    RealmStrings.matches(s, .endsWith, suffix, caseInsensitive: caseInsensitive)
  }

  static func contains(_ s: String, _ part: String, caseInsensitive: Bool) -> Bool {
    RealmStrings.matches(s, .contains, part, caseInsensitive: caseInsensitive)
  }

  /// `LIKE`, as Realm matches it (never exponential).
  static func like(_ s: String, _ pattern: String, caseInsensitive: Bool) -> Bool {
    RealmStrings.matches(s, .like, pattern, caseInsensitive: caseInsensitive)
  }

  /// Byte offset of the first occurrence of `needle` at or after `from`.
  static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
    haystack.withUnsafeBufferPointer { RealmStrings.firstIndex(of: needle, in: $0, from: from) }
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
