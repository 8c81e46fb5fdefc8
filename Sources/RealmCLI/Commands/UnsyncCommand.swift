import RealmRewrite

/// `realmctl unsync FILE [--output NEW] [--backup PATH] [--dry-run] [--json]`: a synced realm
/// converted into a local realm.
public struct UnsyncCommand: Command {
  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "unsync",
      abstract: "Convert a synced realm into a local realm.",
      discussion: """
        A synced realm (Atlas Device Sync, or Realm Object Server before it) carries the \
        sync client's history and tables that only sync uses, and a Realm SDK refuses to open it with a local configuration ("Incompatible \
        histories"). unsync writes it as a local realm that an app with the same schema \
        opens offline, without a sync user, a server or a migration: the same classes, \
        objects and object keys, primary keys and links. It drops the sync history (with \
        any local changes that were never uploaded: the report counts them), the client \
        file identifier, the flexible-sync subscriptions and the sync-only tables. \
        Asymmetric classes that hold objects become ordinary classes; empty ones are \
        dropped. The file is replaced atomically (after a crash it is either exactly as \
        before or fully converted), or written to --output, leaving the original as it is. \
        An encrypted file is read with its key and the local realm is encrypted with the \
        same key. A local realm is left alone. The file must not be open in a Realm app. \
        'realmctl open' shows what a conversion would drop, and which SDK releases open the \
        file: a synced realm opens only in releases with Device Sync, which the SDKs' 20.x \
        line removed (\(FileFormatText.currentReleasesWithoutDeviceSync)): they open the \
        local realm.

        Examples:
          realmctl unsync synced.realm --dry-run
          realmctl unsync synced.realm --output local.realm
          realmctl unsync synced.realm --backup synced.realm.bak
          realmctl unsync synced.realm --json
          realmctl unsync synced.realm --key-file app.key
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The synced realm to convert.")
      ] + FileRewriteRun.arguments(result: "the local realm", report: "what would be written and dropped") + [
        .flag("json", help: "Print the report as one JSON object."),
        FileFormatOption.argument(default: FileFormatText.keptDefault()),
        .quietFlag,
      ] + KeyOptions.arguments(purpose: "of the Realm file (the local realm keeps it)"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let options = UpgradeCommand().options(invocation)
    let run = FileRewriteRun(options: options, verb: "converted", command: spec.name)
    try run.checkOutput(inPlace: "convert in place")
    let fileFormat = try FileFormatOption.format(invocation, command: spec.name)
    let result = try run.run(
      try run.rewriteOptions(invocation, context: context), title: "Converting \(options.file)", context: context,
      rewrite: { try Unsyncer.unsync(path: options.file, options: $0, fileFormat: fileFormat) }, rewritten: \.converted)
    if invocation.flag("json") {
      try context.standardOutput.write(bytes: UnsyncReport.json(result))
    } else {
      try context.standardOutput.write(UnsyncReport.text(result))
    }
    return .success
  }
}
