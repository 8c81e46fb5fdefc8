import RealmFormat
import RealmJSON
import RealmStorage

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
        .positional("file", completion: .realmFile, help: "The Realm file to read."),
        .option(
          "format", valueName: "format", type: .choice(Format.allCases.map(\.rawValue)),
          default: Format.text.rawValue, help: "The output format."),
        .option("class", valueName: "name", completion: .text, help: "Print only the class named <name>."),
      ] + KeyOptions.arguments())
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
    let key = try KeyOptions.key(invocation, environment: context.environment, command: spec.name)
    let file = try RealmInput.open(options.file, key: key)
    var schema = try RealmInput.reading(file) { () throws(FormatError) in try file.group.schema() }
    if let name = options.className {
      schema.classes = [try RealmInput.objectSchema(named: name, in: schema, path: options.file)]
    }
    var counts: [String: Int] = [:]
    for table in file.group.tables {
      if let name = table.className { counts[name] = table.objectCount }
    }
    let rendering: SchemaFormat =
      switch options.format {
      case .text: .text
      case .json: .json
      case .swift: .swift
      }
    try context.standardOutput.write(bytes: rendering.render(schema, objectCounts: counts))
    return .success
  }
}
