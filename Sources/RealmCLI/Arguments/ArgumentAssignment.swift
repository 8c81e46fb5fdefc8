import RealmModel

/// The state of parsing one command's tokens: values found so far and the first deferred error.
struct ArgumentAssignment {
  let command: CommandSpec
  /// Long option names offered in "Did you mean" suggestions.
  let candidates: [String]
  private var values: [String: [String]] = [:]
  private var flags: Set<String> = []
  private var positionalValues: [String] = []
  private var firstUnknownOption: UsageError?

  init(command: CommandSpec, candidates: [String]) {
    self.command = command
    self.candidates = candidates
  }

  private var name: String { command.name }

  /// Consumes the token at `index` (and its value, if it takes the next one).
  /// Returns an error that must be reported at once (a value that does not parse).
  mutating func consume(_ tokens: [ArgumentToken], at index: inout Int) -> UsageError? {
    let token = tokens[index]
    index += 1
    switch token {
    case .terminator:
      return nil
    case .value(let value):
      positionalValues.append(value)
      return nil
    case .long(let longName, let inlineValue, _):
      let typed = "--" + longName
      guard let spec = command.named(long: longName) else {
        noteUnknown(typed, suggest: true)
        return nil
      }
      return take(spec, typed: typed, inlineValue: inlineValue, tokens, &index)
    case .short(let names, let inlineValue, let text):
      return consumeShort(names, inlineValue: inlineValue, text: text, tokens, &index)
    }
  }

  /// `-q`, `-qv`, `-c red`, `-qc red`, `-cq red`: every flag of a pack is set, and every
  /// value-taking option of it takes the next word in turn (SAP). A pack where no letter is
  /// known (`-json`) is reported whole; otherwise the first unknown letter is.
  private mutating func consumeShort(
    _ names: [Character], inlineValue: String?, text: String, _ tokens: [ArgumentToken],
    _ index: inout Int
  ) -> UsageError? {
    let specs = names.map { command.named(short: $0) }
    if let unknown = names.indices.first(where: { specs[$0] == nil }) {
      guard firstUnknownOption == nil else { return nil }
      firstUnknownOption =
        specs.allSatisfy({ $0 == nil })
        ? Self.unknownShortOption(names: names, candidates: candidates, command: name)
        : .unknownOption("-" + String(names[unknown]), suggestion: nil, command: name)
      return nil
    }
    for (offset, spec) in specs.enumerated() {
      guard let spec else { continue }
      let typed = "-" + String(names[offset])
      let isLast = offset == names.count - 1
      if names.count > 1, spec.kind == .option, inlineValue == nil || !isLast,
        !(index < tokens.count && tokens[index].isValue)
      {
        return .missingValueInPack(for: spec, typed: typed, pack: text, command: name)
      }
      if let error = take(
        spec, typed: typed, inlineValue: isLast ? inlineValue : nil, tokens, &index)
      {
        return error
      }
    }
    return nil
  }

  /// Checks required arguments, assigns positionals and builds the invocation.
  func finish() -> Result<ParsedInvocation, UsageError> {
    if let firstUnknownOption { return .failure(firstUnknownOption) }
    var assigned = values
    var remaining = positionalValues[...]
    for spec in command.positionals {
      if spec.isRepeating {
        if !remaining.isEmpty { assigned[spec.key] = Array(remaining) }
        remaining = []
      } else if let value = remaining.popFirst() {
        if let error = validate(value, for: spec, typed: nil) { return .failure(error) }
        assigned[spec.key] = [value]
      }
    }
    for spec in command.arguments where spec.isRequired && assigned[spec.key] == nil {
      return .failure(.missingArgument(spec, command: name))
    }
    if !remaining.isEmpty { return .failure(.unexpectedArguments(Array(remaining), command: name)) }
    return .success(ParsedInvocation(command: command, values: assigned, flags: flags))
  }

  /// `-x` is reported alone; a longer `-json` is reported whole, with a suggestion, as SAP
  /// does (it reads `-json` as a single-dash long name before trying packed flags).
  static func unknownShortOption(
    names: [Character], candidates: [String], command: String?
  ) -> UsageError {
    if names.count == 1 {
      return .unknownOption("-" + String(names[0]), suggestion: nil, command: command)
    }
    let typed = "-" + String(names)
    return .unknownOption(
      typed, suggestion: Suggestion.closest(to: typed, among: candidates, rule: .option), command: command)
  }

  // MARK: - Private

  private mutating func noteUnknown(_ typed: String, suggest: Bool) {
    guard firstUnknownOption == nil else { return }
    let suggestion = suggest ? Suggestion.closest(to: typed, among: candidates, rule: .option) : nil
    firstUnknownOption = .unknownOption(typed, suggestion: suggestion, command: name)
  }

  private mutating func take(
    _ spec: ArgumentSpec, typed: String, inlineValue: String?, _ tokens: [ArgumentToken],
    _ index: inout Int
  ) -> UsageError? {
    if spec.kind == .flag {
      if let inlineValue { return .unexpectedValue(inlineValue, forFlag: typed, command: name) }
      flags.insert(spec.key)
      return nil
    }
    let value: String
    if let inlineValue {
      value = inlineValue
    } else if index < tokens.count, case .value(let next) = tokens[index] {
      // `--` is its own token, so a value found here is never one that follows `--`.
      value = next
      index += 1
    } else {
      return .missingValue(for: spec, typed: typed, command: name)
    }
    if let error = validate(value, for: spec, typed: typed) { return error }
    // The same value twice is harmless (scripts append options); two different ones are
    // ambiguous, where SAP would silently keep the last.
    if let previous = values[spec.key]?.last, !spec.isRepeating {
      if previous == value { return nil }
      return .duplicateOption(spec, first: previous, second: value, command: name)
    }
    values[spec.key, default: []].append(value)
    return nil
  }

  private func validate(_ value: String, for spec: ArgumentSpec, typed: String?) -> UsageError? {
    switch spec.valueType {
    case .string:
      return nil
    case .choice(let choices):
      if choices.contains(value) { return nil }
      return .invalidValue(value, for: spec, typed: typed, reason: nil, command: name)
    case .integer(let minimum):
      guard let number = Int(value) else {
        return .invalidValue(value, for: spec, typed: typed, reason: nil, command: name)
      }
      if let minimum, number < minimum {
        return .invalidValue(
          value, for: spec, typed: typed, reason: "must be \(minimum) or more", command: name)
      }
      return nil
    }
  }
}
