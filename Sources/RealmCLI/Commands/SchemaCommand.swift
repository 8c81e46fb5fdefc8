import RealmJSON

/// `realmctl schema FILE [--format text|json|swift] [--class NAME]`.
public struct SchemaCommand: Command {
  /// How the schema is printed.
  public enum Format: String, Sendable, CaseIterable {
    /// Aligned text for people.
    case text
    /// The JSON of specs/dump-format.md.
    case json
    /// Realm Swift model classes.
    case swift
  }

  /// The checked arguments of one run.
  public struct Options: Sendable, Equatable {
    /// The Realm file.
    public var file: String
    /// The output format.
    public var format: Format
    /// Only this class, when given.
    public var className: String?
  }

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "schema",
      abstract: "Print the schema of a Realm file.",
      discussion: """
        Shows every class with its properties: type, optional, primary key, indexed, \
        link targets, and whether the class is embedded.

        Formats:
          text   aligned columns, for people
          json   the schema JSON of the dump format, as 'create' and migration
                 plans read it
          swift  the Realm Swift model classes an app would declare for this file
                 (Object, EmbeddedObject, @Persisted), ready to paste

        Examples:
          realmctl schema app.realm
          realmctl schema app.realm --class Person --format swift
          realmctl schema app.realm --format json > schema.json
        """,
      arguments: [
        .positional("file", help: "The Realm file to read."),
        .option(
          "format", valueName: "format", type: .choice(Format.allCases.map(\.rawValue)),
          default: Format.text.rawValue, help: "The output format."),
        .option("class", valueName: "name", help: "Print only the class named <name>."),
      ])
  }

  /// Reads the options from checked arguments.
  public func options(_ invocation: ParsedInvocation) -> Options {
    Options(
      file: invocation.string("file") ?? "",
      format: invocation.string("format").flatMap(Format.init(rawValue:)) ?? .text,
      className: invocation.string("class"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let options = options(invocation)
    try InputFiles.requireReadableFile(options.file)
    let realm = try OpenedRealm(options.file)
    var schema = realm.schema
    if let name = options.className { schema.classes = [try realm.requireClass(name)] }
    let format: SchemaFormat
    switch options.format {
    case .text: format = .text
    case .json: format = .json
    case .swift: format = .swift
    }
    try context.standardOutput.write(bytes: format.render(schema, objectCounts: realm.objectCounts))
    return .success
  }
}
