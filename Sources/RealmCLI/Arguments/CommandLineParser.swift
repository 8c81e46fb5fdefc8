import RealmModel

/// Parses command-line words against the ``CommandSpec`` tree, like swift-argument-parser.
///
/// No I/O: the result is a ``CommandLineRequest`` or a ``UsageError``.
///
/// Rules: `--opt value`, `--opt=value`, `-o value`, packed short flags (`-qv`), `--` ends the
/// options; `-h`/`--help` anywhere before `--` asks for help and `--version` for the version
/// (help wins); `help [<subcommand>]` prints a subcommand's help; with no words at all the
/// root help is printed. What is reported first, as in SAP: malformed words (`---x`), then
/// option values that are missing or do not parse (in command-line order), then help or
/// version if asked for, then unknown options, missing required arguments and extra
/// positional arguments (SAP reports missing arguments before unknown options; realmctl
/// reports the unknown option first, with its "Did you mean" suggestion).
public struct CommandLineParser: Sendable {
  /// The root command, whose subcommands are the commands.
  public let root: CommandSpec

  /// The name of the built-in help subcommand.
  public static let helpCommandName = "help"

  /// Creates a parser for `root`.
  public init(root: CommandSpec) { self.root = root }

  /// Parses `words` (the arguments without the program name).
  public func parse(_ words: [String]) -> Result<CommandLineRequest, UsageError> {
    guard let first = words.first else { return .success(.help(subcommand: nil)) }
    if first == Self.helpCommandName { return parseHelpCommand(Array(words.dropFirst())) }
    if let command = root.subcommand(named: first) {
      return parseCommand(command, Array(words.dropFirst()))
    }
    return parseRoot(words)
  }

  // MARK: - Root and help

  /// Words that do not start with a subcommand: built-in flags, or an error.
  private func parseRoot(_ words: [String]) -> Result<CommandLineRequest, UsageError> {
    let tokens: [ArgumentToken]
    switch ArgumentScanner.scan(words, command: nil) {
    case .success(let scanned): tokens = scanned
    case .failure(let error): return .failure(error)
    }
    if let request = builtInRequest(tokens, hasVersion: true) { return .success(request) }
    // Only `--`: nothing asked for, as with no words at all.
    if tokens.allSatisfy({ $0 == .terminator }) { return .success(.help(subcommand: nil)) }
    for token in tokens {
      if let error = unknownOptionError(token, command: root, subcommand: nil) {
        return .failure(error)
      }
    }
    // A first word that is no option names a subcommand the tool does not have (`dumpp`).
    if case .value(let typed)? = tokens.first {
      let names = root.visibleSubcommands.map(\.name) + [Self.helpCommandName]
      let suggestion = Suggestion.closest(to: typed, among: names, rule: .option)
      return .failure(.unknownSubcommand(typed, suggestion: suggestion))
    }
    let values = tokens.compactMap { token -> String? in
      if case .value(let value) = token { return value }
      return nil
    }
    return .failure(.unexpectedArguments(values, command: nil))
  }

  /// `help [<subcommand> ...]`: the first name picks the command, as SAP's help command does
  /// (an unknown first name means the root); `-h`, `--help` and `-help` are ignored.
  private func parseHelpCommand(_ words: [String]) -> Result<CommandLineRequest, UsageError> {
    let name = Self.helpCommandName
    let tokens: [ArgumentToken]
    switch ArgumentScanner.scan(words, command: name) {
    case .success(let scanned): tokens = scanned
    case .failure(let error): return .failure(error)
    }
    for token in tokens {
      if case .long(name: "help", value: let value?, text: _) = token {
        return .failure(.unexpectedValue(value, forFlag: "--help", command: name))
      }
    }
    // `-h`/`--help` belong to the help command itself here; only `--version` is built in.
    let options = tokens.prefix { $0 != .terminator }
    if root.version != nil,
      options.contains(.long(name: "version", value: nil, text: "--version"))
    {
      return .success(.version(verbose: options.contains(.long(name: "verbose", value: nil, text: "--verbose"))))
    }
    for token in tokens {
      switch token {
      case .long(let long, _, _) where long != "help":
        return .failure(.unknownOption("--" + long, suggestion: nil, command: name))
      case .short(let names, _, let text)
      where text != "-help" && names.contains(where: { $0 != "h" }):
        let unknown = names.first { $0 != "h" } ?? names[0]
        let typed = names.contains("h") ? "-" + String(unknown) : "-" + String(names)
        return .failure(.unknownOption(typed, suggestion: nil, command: name))
      default:
        continue
      }
    }
    let first = tokens.lazy.compactMap { token -> String? in
      if case .value(let value) = token { return value }
      return nil
    }.first
    guard let first else { return .success(.help(subcommand: nil)) }
    if first == name { return .success(.help(subcommand: HelpCommandSpec.spec)) }
    return .success(.help(subcommand: root.subcommand(named: first)))
  }

  /// `-h`/`--help` or `--version` (with `--verbose`: the verbose version) among the tokens
  /// before `--`.
  private func builtInRequest(_ tokens: [ArgumentToken], hasVersion: Bool) -> CommandLineRequest? {
    var wantsVersion = false
    var verbose = false
    for token in tokens {
      switch token {
      case .long(name: "help", value: nil, text: _): return .help(subcommand: nil)
      case .short(let names, value: nil, text: _) where names.contains("h"):
        return .help(subcommand: nil)
      case .long(name: "version", value: nil, text: _): wantsVersion = true
      case .long(name: "verbose", value: nil, text: _): verbose = true
      case .terminator: return wantsVersion && hasVersion ? .version(verbose: verbose) : nil
      default: continue
      }
    }
    return wantsVersion && hasVersion ? .version(verbose: verbose) : nil
  }

  // MARK: - A command's arguments

  private func parseCommand(_ command: CommandSpec, _ words: [String])
    -> Result<CommandLineRequest, UsageError>
  {
    let name = command.name
    let tokens: [ArgumentToken]
    switch ArgumentScanner.scan(words, command: name) {
    case .success(let scanned): tokens = scanned
    case .failure(let error): return .failure(error)
    }
    // Like SAP, values that do not parse are reported even when help is asked for; unknown
    // options, missing and extra arguments are not.
    var state = ArgumentAssignment(command: command, candidates: optionNames(of: command))
    var index = 0
    while index < tokens.count {
      if let error = state.consume(tokens, at: &index) { return .failure(error) }
    }
    switch builtInRequest(tokens, hasVersion: root.version != nil) {
    case .help?: return .success(.help(subcommand: command))
    case let request?: return .success(request)
    case nil: break
    }
    return state.finish().map { .run($0) }
  }

  private func unknownOptionError(
    _ token: ArgumentToken, command: CommandSpec, subcommand: String?
  ) -> UsageError? {
    switch token {
    case .long(let name, _, _):
      let typed = "--" + name
      let suggestion = Suggestion.closest(to: typed, among: optionNames(of: command), rule: .option)
      return .unknownOption(typed, suggestion: suggestion, command: subcommand)
    case .short(let names, _, _):
      return ArgumentAssignment.unknownShortOption(
        names: names, candidates: optionNames(of: command), command: subcommand)
    case .value, .terminator:
      return nil
    }
  }

  /// Long names offered as suggestions: the command's own (SAP leaves out `--help` and
  /// `--version`, which would match too many typos).
  private func optionNames(of command: CommandSpec) -> [String] {
    command.arguments.compactMap { $0.longName.map { "--" + $0 } }
  }
}
