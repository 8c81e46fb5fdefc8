/// "Did you mean" suggestions by edit distance.
public enum Suggestion {
  /// The candidate closest to `name`, when close enough to be a likely typo.
  public static func closest(to name: String, among candidates: [String]) -> String? {
    let limit = min(3, max(1, (name.count + 2) / 3))
    var best: (String, Int)?
    for c in candidates {
      let d = c.lowercased() == name.lowercased() ? 0 : distance(Array(name), Array(c))
      if d <= limit, best == nil || d < best?.1 ?? Int.max { best = (c, d) }
    }
    return best?.0
  }

  /// ` (did you mean 'x'?)` or an empty string.
  public static func hint(for name: String, among candidates: [String]) -> String {
    closest(to: name, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// Edit distance (insertions, deletions, substitutions and swaps of neighbouring characters).
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
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
        // Two swapped neighbours ("aeg" for "age") count as one edit.
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }
}
