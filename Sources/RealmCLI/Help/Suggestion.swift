/// Edit-distance suggestions for mistyped option names (`Did you mean '--plan'?`).
enum Suggestion {
  /// Suggestions must be closer than this many edits (swift-argument-parser's threshold).
  static let maximumDistance = 3

  /// The candidate closest to `typed` within ``maximumDistance`` edits; the first on ties.
  static func closest(to typed: String, among candidates: [String]) -> String? {
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(typed, candidate)
      guard distance <= maximumDistance else { continue }
      if best == nil || distance < best?.distance ?? Int.max { best = (candidate, distance) }
    }
    return best?.name
  }

  /// Levenshtein distance over characters (insertions, deletions, substitutions cost 1).
  static func editDistance(_ a: String, _ b: String) -> Int {
    let source = Array(a)
    let target = Array(b)
    if source.isEmpty || target.isEmpty { return max(source.count, target.count) }
    var previous = Array(0...target.count)
    var current = [Int](repeating: 0, count: target.count + 1)
    for i in 1...source.count {
      current[0] = i
      for j in 1...target.count {
        let substitution = previous[j - 1] + (source[i - 1] == target[j - 1] ? 0 : 1)
        current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
      }
      swap(&previous, &current)
    }
    return previous[target.count]
  }
}
