import RealmStorage
import RealmExport

/// `realmctl schema FILE [--format text|json|swift|kotlin|java|javascript|typescript|dart|csharp]
/// [--class NAME]`.
public struct SchemaCommand: Command {
  /// How the schema is printed: text, the schema JSON, or model code for a Realm SDK.
  public typealias Format = SchemaFormat

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
          text        aligned columns, for people
          json        the schema JSON of the dump format, as 'create' and migration
                      plans read it
          swift       Realm Swift models (Object, @Persisted)
          kotlin      Realm Kotlin SDK models (RealmObject, @PersistedName)
          java        Realm Java models, one class per file (@RealmField)
          javascript  Realm JS models (Realm.Object, static schema, mapTo)
          typescript  the same, with TypeScript types
          dart        Realm Flutter/Dart models for its generator (@MapTo)
          csharp      Realm .NET models (IRealmObject, [MapTo])

        Model code is what an app with that SDK declares for the file, with the \
        schema version to open it with; names that are not identifiers in the \
        language are mapped back to the stored names the way the SDK does.

        Examples:
          realmctl schema app.realm
          realmctl schema app.realm --class Person --format swift
          realmctl schema app.realm --format kotlin > Models.kt
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
    let schema = try RealmInput.schema(of: file)
    if let name = options.className {
      _ = try RealmInput.objectSchema(named: name, in: schema, path: options.file)
    }
    let counts = file.objectCounts
    try context.standardOutput.write(
      bytes: options.format.render(schema, only: options.className, objectCounts: counts))
    return .success
  }
}
