import RealmStorage
import RealmEdit

/// `realmctl delete FILE --class C [--where RQL] [--cascade-embedded] [--dry-run] [--backup PATH] [--json]`.
public struct DeleteCommand: Command {
  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "delete",
      abstract: "Delete objects of a class, all or those matching a query.",
      discussion: """
        Deletes every object of the class, or those matching --where (Realm Query \
        Language), exactly as a migration plan's 'deleteObjects' step does: links to \
        them become null and they disappear from lists, sets and dictionaries. Objects \
        that own embedded objects are deleted only with --cascade-embedded, which \
        deletes those embedded objects with them (without it such a delete is refused, \
        exit status 65, naming how many would go). The schema and its version never \
        change; the file is replaced atomically.

        Examples:
          realmctl delete app.realm --class Session --where 'active == false'
          realmctl delete app.realm --class Person --where 'age < 18' --dry-run
          realmctl delete app.realm --class Order --cascade-embedded
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The Realm file to change."),
        .option("class", valueName: "name", isRequired: true, completion: .text, help: "The class of the objects to delete."),
        .option(
          "where", valueName: "query", completion: .text,
          help: "Delete only the objects matching this Realm query (e.g. 'age < 18')."),
        .flag("cascade-embedded", help: "Also delete the embedded objects the deleted objects own."),
      ] + EditOptions.arguments(purpose: "of the Realm file"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let file = invocation.string("file") ?? ""
    try InputFiles.requireReadableFile(file)
    let className = invocation.string("class") ?? ""
    let filter = invocation.string("where")
    let cascade = invocation.flag("cascade-embedded")
    let options = try EditOptions.migrationOptions(invocation, context: context, command: spec.name)
    return try EditOptions.run(invocation, context: context, verb: "delete", file: file, options: options) { o in
      try DataEditor.delete(path: file, className: className, filter: filter, cascadeEmbedded: cascade, options: o)
    }
  }
}
