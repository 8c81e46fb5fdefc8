/// "Did you mean" suggestions by edit distance, for names a user typed: classes, properties,
/// functions, command-line options.
public enum Suggestion {
  /// How close a candidate must be to count as a likely typo.
  public enum Rule: Sendable {
    /// Names in data (classes, properties, functions): case differences cost nothing, two
    /// swapped neighbours count as one edit, and the allowed distance grows with the name's
    /// length (1 for up to 3 characters, at most 3).
    case name
    /// Command-line option names, as swift-argument-parser suggests them: plain Levenshtein
    /// distance, at most 3.
    case option
  }

  /// The candidate closest to `typed`, when close enough under `rule`; the first on ties.
  public static func closest(to typed: String, among candidates: [String], rule: Rule = .name) -> String? {
    let typedCharacters = Array(typed)
    let limit: Int
    switch rule {
    case .name: limit = min(3, max(1, (typed.count + 2) / 3))
    case .option: limit = 3
    }
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let d: Int
      switch rule {
      case .name:
        d = candidate.lowercased() == typed.lowercased() ? 0 : distance(typedCharacters, Array(candidate), swaps: true)
      case .option:
        d = distance(typedCharacters, Array(candidate), swaps: false)
      }
      if d <= limit, best == nil || d < best?.distance ?? Int.max { best = (candidate, d) }
    }
    return best?.name
  }

  /// ` (did you mean 'x'?)` or an empty string.
  public static func hint(for name: String, among candidates: [String]) -> String {
    closest(to: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// Edit distance: insertions, deletions and substitutions, and with `swaps` two swapped
  /// neighbouring characters as one edit ("aeg" for "age").
  public static func distance(_ a: [Character], _ b: [Character], swaps: Bool) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if swaps, i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }
}
