import RealmStorage

/// `realmctl open FILE [--json] [--check]`: a summary of a Realm file, optionally verified.
public struct OpenCommand: Command {
  /// The checked arguments of one run.
  public struct Options: Sendable, Equatable {
    /// The Realm file.
    public var file: String
    /// Print the summary as JSON.
    public var json: Bool
    /// Walk every node and report structural problems.
    public var check: Bool
  }

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "open",
      abstract: "Show what a Realm file contains: format, schema version, classes and sizes.",
      discussion: """
        Prints the path, the file size, the file format version with the Realm SDK \
        releases that open the file as it is and those that would upgrade it (a synced \
        realm opens only in releases with Device Sync: those without it, the SDKs' 20.x \
        line among them, are named as refusing it), the schema \
        version, the history type, every class with its number of objects (embedded \
        classes are marked), the free space, and whether the file is a compacted copy. The \
        file is opened read-only and never changed; it may be open in a Realm app at the \
        same time.

        With --check, every node of the file is read and verified: refs in range and not \
        overlapping, consistent sizes, backlinks matching links, cluster keys in order. \
        Each problem is printed on its own line; the exit status is 0 when the file is \
        clean and 1 when problems were found.

        Examples:
          realmctl open app.realm
          realmctl open app.realm --check
          realmctl open app.realm --json | jq .classes
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The Realm file to open."),
        .flag("json", help: "Print the summary as one JSON object."),
        .flag("check", help: "Verify every node of the file and report structural problems."),
      ] + KeyOptions.arguments())
  }

  /// Reads the options from checked arguments.
  public func options(_ invocation: ParsedInvocation) -> Options {
    Options(
      file: invocation.string("file") ?? "", json: invocation.flag("json"),
      check: invocation.flag("check"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let options = options(invocation)
    let key = try KeyOptions.key(invocation, environment: context.environment, command: spec.name)
    let file = try RealmInput.open(options.file, key: key)
    let summary = try FileSummary(file)
    let problems = options.check ? file.check() : nil
    if options.json {
      try context.standardOutput.write(bytes: summary.json(problems: problems))
    } else {
      try context.standardOutput.write(summary.text(problems: problems))
    }
    return problems?.isEmpty == false ? .failure : .success
  }
}
