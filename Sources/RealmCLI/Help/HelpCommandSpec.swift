/// The built-in `help` subcommand (swift-argument-parser's `HelpCommand`).
enum HelpCommandSpec {
  /// Its declaration; the parser handles it specially (names are followed as far as they match).
  static let spec = CommandSpec(
    name: CommandLineParser.helpCommandName,
    abstract: "Show subcommand help information.",
    arguments: [
      .positional("subcommands", isRequired: false, isRepeating: true, help: "")
    ])
}
