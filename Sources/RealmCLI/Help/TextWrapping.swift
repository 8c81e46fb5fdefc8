extension StringProtocol where SubSequence == Substring {
  /// Wraps the text at spaces to `columns`, indenting every non-empty line by `indent`.
  ///
  /// Reproduces swift-argument-parser's rule exactly (help output must match it byte for byte):
  /// take the next `columns - indent` characters; if they hold a newline, break after the last
  /// one; otherwise break at the last space in them; a word longer than the line is kept whole
  /// up to its next space.
  func wrapped(to columns: Int, indent: Int = 0) -> String {
    let width = columns - indent
    guard width > 0 else { return String(self) }
    var lines: [Substring] = []
    var start = startIndex
    while true {
      let chunk = self[start...].prefix(width)
      if let newline = chunk.lastIndex(of: "\n") {
        lines.append(
          contentsOf: self[start..<newline].split(separator: "\n", omittingEmptySubsequences: false)
        )
        start = index(after: newline)
      } else if chunk.endIndex == endIndex {
        lines.append(self[start...])
        break
      } else if let space = chunk.lastIndex(of: " ") {
        lines.append(self[start..<space])
        start = index(after: space)
      } else if let space = self[start...].firstIndex(of: " ") {
        lines.append(self[start..<space])
        start = index(after: space)
      } else {
        lines.append(self[start...])
        break
      }
    }
    let padding = String(repeating: " ", count: indent)
    return lines.map { $0.isEmpty ? "" : padding + $0 }.joined(separator: "\n")
  }
}
