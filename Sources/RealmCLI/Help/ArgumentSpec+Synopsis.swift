extension ArgumentSpec {
  /// The preferred name as typed: `--format`, or `-q` for a short-only flag.
  var preferredName: String {
    if let longName { return "--" + longName }
    if let shortName { return "-" + String(shortName) }
    return "<\(valueName)>"
  }

  /// The argument without brackets: `--format <format>`, `--json`, `<file>`.
  var unadornedSynopsis: String {
    switch kind {
    case .positional: "<\(valueName)>"
    case .option: "\(preferredName) <\(valueName)>"
    case .flag: preferredName
    }
  }

  /// The argument as the usage line shows it: `[--format <format>]`, `<file> ...`.
  var usageSynopsis: String {
    var synopsis = unadornedSynopsis
    if isRepeating { synopsis += " ..." }
    if !isRequired { synopsis = "[\(synopsis)]" }
    return synopsis
  }

  /// The required form used in "Missing expected argument" messages: `<file> ...`.
  var requiredSynopsis: String {
    isRepeating ? unadornedSynopsis + " ..." : unadornedSynopsis
  }

  /// The label in the help's ARGUMENTS/OPTIONS sections: `-f, --format <format>`.
  var helpLabel: String {
    switch kind {
    case .positional:
      return "<\(valueName)>"
    case .option, .flag:
      var names: [String] = []
      if let shortName { names.append("-" + String(shortName)) }
      if let longName { names.append("--" + longName) }
      let joined = names.joined(separator: ", ")
      return kind == .option ? "\(joined) <\(valueName)>" : joined
    }
  }

  /// The help text followed by `(values: …; default: …)` as swift-argument-parser writes it.
  var helpDescription: String {
    var values: [String] = []
    if case .choice(let choices) = valueType { values = choices }
    let suffix: String
    switch (values.isEmpty, defaultValue) {
    case (true, nil): suffix = ""
    case (false, nil): suffix = "(values: \(values.joined(separator: ", ")))"
    case (true, let value?): suffix = "(default: \(value))"
    case (false, let value?):
      suffix = "(values: \(values.joined(separator: ", ")); default: \(value))"
    }
    return [help, suffix].filter { !$0.isEmpty }.joined(separator: " ")
  }
}
