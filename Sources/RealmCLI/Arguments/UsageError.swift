import RealmModel

/// A bad command line: the one error the parser produces (exit code 64).
///
/// Messages use swift-argument-parser's wording; ``HelpRenderer/renderError(_:)`` adds the
/// `Help:` line, the usage line and the `See '… --help'` line around them.
/// Equality and hashing use ``code`` only.
public struct UsageError: CodedError, CustomStringConvertible {
  /// The kind of mistake.
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// An option that the command does not have.
    case unknownOption
    /// An argument that is not an option at all (`---x`).
    case invalidOption
    /// An option given without its value.
    case missingValue
    /// A value that cannot be used (not one of the choices, not a number).
    case invalidValue
    /// A flag given a value (`--json=yes`).
    case unexpectedValue
    /// A required argument or option is missing.
    case missingArgument
    /// More positional arguments than the command takes, or an unknown subcommand.
    case unexpectedArgument
    /// A single-valued option given more than once.
    case duplicateOption
  }

  /// The kind of mistake.
  public var code: Code
  /// The message after `Error: `.
  public var message: String
  /// The `Help:` line content (`--format <format>  The output format.`), if any.
  public var helpLine: String?
  /// The subcommand whose usage applies; `nil` for the root command.
  public var command: String?

  /// Creates an error.
  public init(_ code: Code, _ message: String, helpLine: String? = nil, command: String? = nil) {
    self.code = code
    self.message = message
    self.helpLine = helpLine
    self.command = command
  }

  /// The message after `Error: `.
  public var description: String { message }
}

// MARK: - Factories (swift-argument-parser's wording)

extension UsageError {
  static func unknownOption(_ name: String, suggestion: String?, command: String?) -> UsageError {
    let message =
      if let suggestion { "Unknown option '\(name)'. Did you mean '\(suggestion)'?" } else {
        "Unknown option '\(name)'"
      }
    return UsageError(.unknownOption, message, command: command)
  }

  static func invalidOption(_ text: String, command: String?) -> UsageError {
    UsageError(.invalidOption, "Invalid option: \(text)", command: command)
  }

  static func missingValue(for spec: ArgumentSpec, typed name: String, command: String?)
    -> UsageError
  {
    UsageError(
      .missingValue, "Missing value for '\(name) <\(spec.valueName)>'",
      helpLine: "\(name) <\(spec.valueName)>  \(spec.help)", command: command)
  }

  /// A value-taking short option inside a pack with no value left (`-qc`): SAP's two readings.
  static func missingValueInPack(
    for spec: ArgumentSpec, typed name: String, pack: String, command: String?
  ) -> UsageError {
    UsageError(
      .missingValue,
      "Unknown option '\(pack)'\n   or: Missing value for '\(name) <\(spec.valueName)>' in '\(pack)'",
      command: command)
  }

  static func invalidValue(
    _ value: String, for spec: ArgumentSpec, typed name: String?, reason: String?,
    command: String?
  ) -> UsageError {
    let label = name.map { "\($0) <\(spec.valueName)>" } ?? "<\(spec.valueName)>"
    var message = "The value '\(value)' is invalid for '\(label)'"
    if let reason {
      message += ": " + reason
    } else if case .choice(let choices) = spec.valueType {
      message += choiceList(choices)
    }
    return UsageError(.invalidValue, message, helpLine: "\(label)  \(spec.help)", command: command)
  }

  static func unexpectedValue(_ value: String, forFlag name: String, command: String?)
    -> UsageError
  {
    UsageError(
      .unexpectedValue,
      "The option '\(name)' does not take any value, but '\(value)' was specified.",
      command: command)
  }

  static func missingArgument(_ spec: ArgumentSpec, command: String?) -> UsageError {
    let label =
      spec.isPositional ? "<\(spec.valueName)>" : "\(spec.preferredName) <\(spec.valueName)>"
    return UsageError(
      .missingArgument, "Missing expected argument '\(spec.requiredSynopsis)'",
      helpLine: "\(label)  \(spec.help)", command: command)
  }

  /// `realmctl dumpp a.realm`: the first word names no subcommand.
  static func unknownSubcommand(_ name: String, suggestion: String?) -> UsageError {
    let message =
      if let suggestion { "Unknown subcommand '\(name)'. Did you mean '\(suggestion)'?" } else {
        "Unknown subcommand '\(name)'; 'realmctl help' lists the subcommands"
      }
    return UsageError(.unexpectedArgument, message, command: nil)
  }

  static func unexpectedArguments(_ values: [String], command: String?) -> UsageError {
    let message =
      values.count == 1
      ? "Unexpected argument '\(values[0])'"
      : "\(values.count) unexpected arguments: '\(values.joined(separator: "', '"))'"
    return UsageError(.unexpectedArgument, message, command: command)
  }

  static func duplicateOption(
    _ spec: ArgumentSpec, first: String, second: String, command: String?
  ) -> UsageError {
    UsageError(
      .duplicateOption,
      "The option '\(spec.preferredName) <\(spec.valueName)>' was given twice ('\(first)' and '\(second)'); give it once",
      command: command)
  }

  /// `. Please provide one of 'a', 'b' or 'c'.` (a bullet list from six values on).
  private static func choiceList(_ choices: [String]) -> String {
    guard !choices.isEmpty else { return "" }
    if choices.count < 6 {
      let quoted = choices.map { "'\($0)'" }
      let list =
        quoted.count <= 2
        ? quoted.joined(separator: " and ")
        : quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
      return ". Please provide one of \(list)."
    }
    return ". Please provide one of the following:\n"
      + choices.map { "  - \($0)" }.joined(separator: "\n")
  }
}
