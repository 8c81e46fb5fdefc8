/// The declaration of a command: what the parser accepts and what the help shows.
///
/// Both ``CommandLineParser`` and ``HelpRenderer`` read only this value, so the help text
/// cannot drift from what is parsed.
public struct CommandSpec: Sendable {
  /// The command name as typed (`dump`, `rename-property`); the tool name for the root.
  public var name: String
  /// One-line summary (the `OVERVIEW:` line and the root's subcommand list).
  public var abstract: String
  /// Longer text after the abstract in the help: what it does, examples.
  public var discussion: String
  /// Positional arguments and options, in the order the usage line shows them.
  public var arguments: [ArgumentSpec]
  /// Subcommands (only the root has them).
  public var subcommands: [CommandSpec]
  /// The version `--version` prints; set on the root only.
  public var version: String?
  /// Left out of the root help, the completions and the man page (tools for packagers).
  public var isHidden: Bool

  /// Creates a command declaration.
  public init(
    name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [],
    subcommands: [CommandSpec] = [], version: String? = nil, isHidden: Bool = false
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.arguments = arguments
    self.subcommands = subcommands
    self.version = version
    self.isHidden = isHidden
  }

  /// The subcommands a user sees (not hidden).
  public var visibleSubcommands: [CommandSpec] { subcommands.filter { !$0.isHidden } }

  /// The positional arguments, in order.
  public var positionals: [ArgumentSpec] { arguments.filter(\.isPositional) }

  /// The subcommand called `name`.
  public func subcommand(named name: String) -> CommandSpec? {
    subcommands.first { $0.name == name }
  }

  /// The named argument (option or flag) with the long name `long`.
  func named(long: String) -> ArgumentSpec? {
    arguments.first { !$0.isPositional && $0.longName == long }
  }

  /// The named argument (option or flag) with the short name `short`.
  func named(short: Character) -> ArgumentSpec? {
    arguments.first { !$0.isPositional && $0.shortName == short }
  }
}

/// One positional argument, option or flag of a command.
public struct ArgumentSpec: Sendable, Hashable {
  /// What kind of argument this is.
  public enum Kind: Sendable, Hashable {
    /// A value given by position (`<file>`).
    case positional
    /// `--name <value>` or `--name=<value>`.
    case option
    /// `--name` alone, true when present.
    case flag
  }

  /// What values are accepted.
  public enum ValueType: Sendable, Hashable {
    /// Any string.
    case string
    /// One of these strings (shown as `(values: …)`).
    case choice([String])
    /// A decimal integer of at least `minimum` (`nil`: any `Int`).
    case integer(minimum: Int?)
  }

  /// Key under which the parsed value is stored in ``ParsedInvocation``.
  public var key: String
  /// What kind of argument this is.
  public var kind: Kind
  /// Long name without dashes (`format`); `nil` for positionals.
  public var longName: String?
  /// Single-character name (`-q`), if any.
  public var shortName: Character?
  /// The placeholder in help and errors, without brackets (`file`, `format`).
  public var valueName: String
  /// Accepted values.
  public var valueType: ValueType
  /// Whether the argument must be given.
  public var isRequired: Bool
  /// Whether the argument may be given several times (collects every value).
  public var isRepeating: Bool
  /// The value used when the argument is absent (shown as `(default: …)`).
  public var defaultValue: String?
  /// Help text after the label.
  public var help: String
  /// What shell completion offers for the value.
  public var completion: ValueCompletion

  /// Whether the argument is a positional one.
  public var isPositional: Bool { kind == .positional }

  // MARK: - Factories

  /// A positional argument `<valueName>` (repeating: `<valueName> ...`, one or more).
  public static func positional(
    _ key: String, valueName: String? = nil, type: ValueType = .string, isRequired: Bool = true,
    isRepeating: Bool = false, completion: ValueCompletion? = nil, help: String
  ) -> ArgumentSpec {
    ArgumentSpec(
      key: key, kind: .positional, longName: nil, shortName: nil, valueName: valueName ?? key,
      valueType: type, isRequired: isRequired, isRepeating: isRepeating, defaultValue: nil,
      help: help, completion: completion ?? .default(for: type))
  }

  /// An option `--name <valueName>`.
  public static func option(
    _ name: String, short: Character? = nil, valueName: String, type: ValueType = .string,
    default defaultValue: String? = nil, isRequired: Bool = false, isRepeating: Bool = false,
    completion: ValueCompletion? = nil, help: String
  ) -> ArgumentSpec {
    ArgumentSpec(
      key: name, kind: .option, longName: name, shortName: short, valueName: valueName,
      valueType: type, isRequired: isRequired, isRepeating: isRepeating,
      defaultValue: defaultValue, help: help, completion: completion ?? .default(for: type))
  }

  /// A flag `--name`.
  public static func flag(_ name: String, short: Character? = nil, help: String) -> ArgumentSpec {
    ArgumentSpec(
      key: name, kind: .flag, longName: name, shortName: short, valueName: name,
      valueType: .string, isRequired: false, isRepeating: false, defaultValue: nil, help: help,
      completion: .text)
  }
}

/// What shell completion offers for an argument's value (`realmctl completion`).
public enum ValueCompletion: Sendable, Hashable {
  /// Free text such as a query or a class name: nothing to complete.
  case text
  /// File names; with extensions (without the dot), only files with one of them (and
  /// directories, to walk into).
  case files(extensions: [String])
  /// One of these words.
  case values([String])

  /// A Realm file.
  public static let realmFile = ValueCompletion.files(extensions: ["realm"])

  /// The completion of a value of `type` when the declaration does not say: its choices, no
  /// completion for numbers, any file for strings (most string values are paths).
  public static func `default`(for type: ArgumentSpec.ValueType) -> ValueCompletion {
    switch type {
    case .choice(let values): .values(values)
    case .integer: .text
    case .string: .files(extensions: [])
    }
  }
}
