/// `realmctl version [--json]`: the version, the build, the Swift compiler, the platform and the
/// file formats read and written (what `--version --verbose` prints), for bug reports.
public struct VersionCommand: Command {
  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "version",
      abstract: "Show the version, the build, the platform and the file formats.",
      discussion: """
        Prints what a bug report needs: the version, the commit and date of the build \
        (when 'make' built it from a git checkout), the Swift compiler, the system and \
        architecture, and the Realm file formats read and written. 'realmctl --version' \
        prints the first two on one line; 'realmctl --version --verbose' prints the same \
        as this command.

        Examples:
          realmctl version
          realmctl version --json | jq -r .version
        """,
      arguments: [
        .flag("json", help: "Print the report as one JSON object on one line.")
      ])
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let report = VersionReport.current()
    try context.standardOutput.write(invocation.flag("json") ? report.json : report.verboseText)
    return .success
  }
}
