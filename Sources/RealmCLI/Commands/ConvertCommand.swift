import RealmModel
import RealmRewrite

/// `realmctl convert FILE --file-format N [--output NEW] [--backup PATH] [--dry-run]`.
public struct ConvertCommand: Command {
  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "convert",
      abstract: "Rewrite a Realm file in another file format (\(FileFormatText.writable())), down too.",
      discussion: """
        An app refuses a file of a newer format than its SDK release writes (below), and \
        Realm only ever upgrades. convert writes the file exactly as that release's Realm \
        Core would have written it, up or down, with the same classes, objects and \
        (except in format 20, whose object keys derive from the primary keys) object keys. \
        A file holding \
        something the target format cannot store (an asymmetric class below 22, a \
        full-text index below 23, a collection nested in a Mixed below 24, a dictionary \
        in 20) is refused before anything is written, naming the class, the property and \
        the reason. The file is replaced \
        atomically (after a crash it is either exactly as before or fully converted), or \
        written to --output. A file already at the target format is left alone. An \
        encrypted file keeps its key. 'upgrade' is the same as '--file-format 24'. The file \
        must not be open in a Realm app.

        The SDK releases that write each format and open it as it is (they also open older \
        formats, upgrading the file):
        \(FileFormatText.writersByFormat)

        Examples:
          realmctl convert app.realm --file-format 23
          realmctl convert app.realm --file-format 22 --output app-core12.realm
          realmctl convert app.realm --file-format 23 --dry-run
          realmctl convert app.realm --file-format 20 --backup app.realm.bak
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The Realm file to convert."),
        {
          var a = FileFormatOption.argument(default: "Required.")
          a.isRequired = true
          return a
        }(),
      ] + FileRewriteRun.arguments(result: "the converted file") + [
        .quietFlag
      ] + KeyOptions.arguments(purpose: "of the Realm file (the converted file keeps it)"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let format = try FileFormatOption.format(invocation, command: spec.name) ?? .current
    let result = try UpgradeCommand.rewrite(
      UpgradeCommand().options(invocation), format: format, invocation: invocation, context: context,
      command: spec.name)
    try context.standardOutput.writeLine(Self.report(result))
    return .success
  }

  /// The one-line report.
  static func report(_ r: UpgradeResult) -> String {
    guard r.upgraded else {
      let copy = FileRewriteRun.unchangedCopy(to: r.outputPath, dryRun: r.dryRun)
      if r.fromFormat == 0 {
        return "\(r.path) has never been written to (it has no file format yet): nothing to convert\(copy)"
      }
      return "\(r.path) is already at file format \(r.fromFormat): nothing to convert\(copy)"
    }
    return UpgradeCommand.report(r).replacingFirst("Upgraded ", with: "Converted ")
  }
}

extension String {
  /// The string with the first occurrence of `target` at its start replaced.
  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    hasPrefix(target) ? replacement + dropFirst(target.count) : self
  }
}
