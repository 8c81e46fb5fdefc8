/// A completion script that defines a shell function named after the tool (bash, zsh).
protocol ShellFunctionCompletion {
  /// The script of `tool`, whose function `function` completes `commands`.
  static func script(tool: String, function: String, commands: [CommandSpec]) -> String
}

extension ShellFunctionCompletion {
  /// The script of the root command's tool, completing its visible subcommands in a function
  /// named `_` and the tool's name, dashes replaced (`_realmctl`).
  static func script(root: CommandSpec) -> String {
    script(tool: root.name, function: "_" + root.name.replacingDashes(), commands: root.visibleSubcommands)
  }
}
