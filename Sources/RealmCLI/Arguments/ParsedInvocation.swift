/// The arguments of one command after parsing: every value checked against its spec.
public struct ParsedInvocation: Sendable {
  /// The command that was invoked.
  public let command: CommandSpec
  /// Values by ``ArgumentSpec/key``, in command-line order.
  var values: [String: [String]]
  /// Keys of the flags that were given.
  var flags: Set<String>

  /// Creates an invocation (used by the parser and by tests of command bodies).
  public init(command: CommandSpec, values: [String: [String]] = [:], flags: Set<String> = []) {
    self.command = command
    self.values = values
    self.flags = flags
  }

  /// The value of a single-valued option or positional, or its default, or `nil`.
  public func string(_ key: String) -> String? {
    values[key]?.last ?? spec(key)?.defaultValue
  }

  /// Every value of a repeating option or positional (empty when absent).
  public func strings(_ key: String) -> [String] {
    values[key] ?? spec(key)?.defaultValue.map { [$0] } ?? []
  }

  /// The integer value of an option (validated by the parser), or its default, or `nil`.
  public func integer(_ key: String) -> Int? {
    string(key).flatMap { Int($0) }
  }

  /// Whether a flag was given.
  public func flag(_ key: String) -> Bool { flags.contains(key) }

  /// Whether an option or positional was given explicitly (not defaulted).
  public func isGiven(_ key: String) -> Bool { values[key] != nil || flags.contains(key) }

  private func spec(_ key: String) -> ArgumentSpec? {
    command.arguments.first { $0.key == key }
  }
}

/// What the command line asks for.
public enum CommandLineRequest: Sendable {
  /// Run a command.
  case run(ParsedInvocation)
  /// Print the help of a subcommand (`nil`: the root command).
  case help(subcommand: CommandSpec?)
  /// Print the version (`--version`); `verbose` (`--version --verbose`) adds the build, the
  /// platform and the file formats.
  case version(verbose: Bool)
}
