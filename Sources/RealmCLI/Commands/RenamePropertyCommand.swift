import RealmMigration
import RealmStorage

/// `realmctl rename-property FILE CLASS OLD NEW [--schema-version N]`.
public struct RenamePropertyCommand: Command {
  /// The checked arguments of one run.
  public struct Options: Sendable, Equatable {
    /// The Realm file.
    public var file: String
    /// The class that has the property.
    public var className: String
    /// The current property name.
    public var oldName: String
    /// The new property name.
    public var newName: String
    /// The schema version to set; `nil`: the file's version plus one.
    public var schemaVersion: Int?
  }

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "rename-property",
      abstract: "Rename a property of a class, keeping its data.",
      discussion: """
        The same change as a plan's renameProperty step, as a one-liner. Only the name \
        changes, so it is instant whatever the size of the file. The schema version is \
        raised by one (an app needs a new version to see the change) unless \
        --schema-version sets it; the output gives both versions. The file must not be \
        open in a Realm app.

        Example:
          realmctl rename-property app.realm Person age yearsSinceBirth
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The Realm file to change."),
        .positional("class", completion: .text, help: "The class that has the property."),
        .positional("old", completion: .text, help: "The current name of the property."),
        .positional("new", completion: .text, help: "The new name of the property."),
        .option(
          "schema-version", valueName: "n", type: .integer(minimum: 0),
          help: "The schema version to set (default: the file's version plus one)."),
        FileFormatOption.argument(default: FileFormatText.keptDefault()),
      ] + KeyOptions.arguments(purpose: "of the Realm file (the file keeps it)"))
  }

  /// Reads the options from checked arguments.
  public func options(_ invocation: ParsedInvocation) -> Options {
    Options(
      file: invocation.string("file") ?? "", className: invocation.string("class") ?? "",
      oldName: invocation.string("old") ?? "", newName: invocation.string("new") ?? "",
      schemaVersion: invocation.integer("schema-version"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let options = options(invocation)
    try InputFiles.requireReadableFile(options.file)
    var migrationOptions = MigrationOptions()
    migrationOptions.fileFormat = try FileFormatOption.format(invocation, command: spec.name)
    migrationOptions.encryptionKey = try KeyOptions.key(
      invocation, environment: context.environment, command: spec.name)
    let result = try Migrator.renameProperty(
      path: options.file, className: options.className, from: options.oldName, to: options.newName,
      schemaVersion: options.schemaVersion.map(Int64.init), options: migrationOptions)
    let from = result.fromVersion.map(String.init) ?? "none"
    let formats = FileFormatOption.change(from: result.fromFileFormat, to: result.toFileFormat).map { ", \($0)" } ?? ""
    try FileFormatOption.warnIfOldSDKsLeft(
      from: result.fromFileFormat, to: result.toFileFormat, path: options.file, context: context)
    try context.standardOutput.writeLine(
      "Renamed '\(options.className).\(options.oldName)' to '\(options.className).\(options.newName)' in "
        + "\(options.file) (schema version \(from) -> \(result.toVersion)\(formats))")
    return .success
  }
}
