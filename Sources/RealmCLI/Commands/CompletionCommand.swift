#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `realmctl completion bash|zsh|fish`: prints a completion script generated from the command
/// declarations, like swift-argument-parser's `--generate-completion-script`.
public struct CompletionCommand: Command {
  /// The shells with a generator.
  public enum Shell: String, Sendable, CaseIterable {
    case bash, zsh, fish
  }

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "completion",
      abstract: "Print a shell completion script.",
      discussion: """
        The script completes commands, options, option values such as the --format \
        choices, and file names (Realm files where a Realm file is expected). It is \
        generated from the same declarations as the help, so it always matches this \
        version. 'make install' installs all three.

        Examples:
          source <(realmctl completion bash)          # in ~/.bashrc
          realmctl completion zsh > "${fpath[1]}/_realmctl"
          realmctl completion fish > ~/.config/fish/completions/realmctl.fish
        """,
      arguments: [
        .positional(
          "shell", type: .choice(Shell.allCases.map(\.rawValue)),
          help: "The shell to write the script for.")
      ])
  }

  /// The script for `shell`, from the declarations under `root`.
  public static func script(for shell: Shell, root: CommandSpec = CommandRegistry.root) -> String {
    switch shell {
    case .bash: BashCompletion.script(root: root)
    case .zsh: ZshCompletion.script(root: root)
    case .fish: FishCompletion.script(root: root)
    }
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let shell = Shell(rawValue: invocation.string("shell") ?? "") ?? .bash
    try context.standardOutput.write(Self.script(for: shell))
    return .success
  }
}

/// `realmctl generate-manual` (hidden): prints the man page `realmctl.1`, for `make man`.
public struct GenerateManualCommand: Command {
  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "generate-manual",
      abstract: "Print the realmctl(1) man page (roff).",
      discussion: """
        Used by 'make man'; view the result with 'man ./realmctl.1'. The page is dated \
        today, or by SOURCE_DATE_EPOCH when it is set (reproducible builds).
        """,
      isHidden: true)
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let date = ManualPage.date(
      secondsSinceEpoch: context.environment["SOURCE_DATE_EPOCH"].flatMap(Int.init) ?? Int(time(nil)))
    try context.standardOutput.write(ManualPage.render(root: CommandRegistry.root, date: date))
    return .success
  }
}
