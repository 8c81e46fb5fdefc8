/// One command-line word, classified the way swift-argument-parser splits arguments.
enum ArgumentToken: Equatable {
  /// `--name` or `--name=value`.
  case long(name: String, value: String?, text: String)
  /// `-abc` (one or more short names) or `-a=value`.
  case short(names: [Character], value: String?, text: String)
  /// A plain value (anything not starting with `-`, `-` alone, or everything after `--`).
  case value(String)
  /// `--`: every later word is a value.
  case terminator
}

extension ArgumentToken {
  /// Whether the token is a plain value.
  var isValue: Bool {
    if case .value = self { return true }
    return false
  }
}

/// Splits command-line words into ``ArgumentToken``s.
enum ArgumentScanner {
  /// Classifies every word; words after `--` are values.
  static func scan(_ words: [String], command: String?) -> Result<[ArgumentToken], UsageError> {
    var tokens: [ArgumentToken] = []
    tokens.reserveCapacity(words.count)
    var index = 0
    while index < words.count {
      let word = words[index]
      index += 1
      let dashes = word.prefix { $0 == "-" }.count
      let rest = word.dropFirst(dashes)
      if rest.isEmpty {
        switch dashes {
        case 0, 1: tokens.append(.value(word))
        case 2:
          tokens.append(.terminator)
          tokens.append(contentsOf: words[index...].map { .value($0) })
          return .success(tokens)
        default: return .failure(.invalidOption(word, command: nil))
        }
        continue
      }
      let (name, value) = splitAtEquals(rest)
      switch dashes {
      case 0:
        tokens.append(.value(word))
      case 1:
        guard !name.isEmpty else { return .failure(.invalidOption(word, command: command)) }
        tokens.append(.short(names: Array(name), value: value, text: word))
      case 2:
        guard !name.isEmpty else { return .failure(.invalidOption(word, command: command)) }
        tokens.append(.long(name: String(name), value: value, text: word))
      default:
        // SAP rejects these while splitting, before it knows the subcommand: root usage.
        return .failure(.invalidOption(word, command: nil))
      }
    }
    return .success(tokens)
  }

  private static func splitAtEquals(_ text: Substring) -> (Substring, String?) {
    guard let equals = text.firstIndex(of: "=") else { return (text, nil) }
    let value = text[text.index(after: equals)...]
    // `--format=` counts as `--format` without a value (SAP).
    return (text[..<equals], value.isEmpty ? nil : String(value))
  }
}
