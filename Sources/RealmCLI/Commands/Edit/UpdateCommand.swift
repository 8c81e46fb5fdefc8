import RealmMigration
import RealmStorage
import RealmEdit

/// `realmctl update FILE --class C --set 'prop = EXPR' ... [--where RQL] [--dry-run] [--backup PATH] [--json]`.
public struct UpdateCommand: Command {
  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "update",
      abstract: "Set properties of objects from expressions.",
      discussion: """
        Sets each property named by --set to the value of its expression for every \
        object of the class, or those matching --where (Realm Query Language, as in \
        'dump --where'). The expressions are those of a migration plan's 'transform' \
        step (docs/expression-language.md): 'old.NAME' is the object's value before the update, \
        e.g. 'price = old.price * 1.1' or 'name = upper(old.name)'. The values must fit the \
        property's type. The schema and its version never change.

        Everything is checked before anything is written; an expression that fails on \
        an object names the object and leaves the file untouched (exit status 65). When \
        only plain columns change, they are written in place (a copy-on-write commit); \
        otherwise the file is replaced atomically.

        Examples:
          realmctl update app.realm --class Person --set 'age = old.age + 1'
          realmctl update app.realm --class Item --set 'price = old.price * 2' --where 'price < 10'
        """,
      arguments: [
        .positional("file", completion: .realmFile, help: "The Realm file to change."),
        .option("class", valueName: "name", isRequired: true, completion: .text, help: "The class of the objects to update."),
        .option(
          "set", valueName: "assignment", isRequired: true, isRepeating: true, completion: .text,
          help: "'property = expression'; repeat for several properties (each expression sees the values before the update)."),
        .option(
          "where", valueName: "query", completion: .text,
          help: "Update only the objects matching this Realm query (e.g. 'age >= 18')."),
      ] + EditOptions.arguments(purpose: "of the Realm file"))
  }

  /// Runs the command.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    let file = invocation.string("file") ?? ""
    var assignments: [DataEditor.Assignment] = []
    for text in invocation.strings("set") {
      guard let a = DataEditor.Assignment.parse(text) else {
        throw UsageError(.invalidValue, "'--set \(text)' is not 'property = expression'", command: spec.name)
      }
      assignments.append(a)
    }
    try InputFiles.requireReadableFile(file)
    let className = invocation.string("class") ?? ""
    let filter = invocation.string("where")
    let options = try EditOptions.migrationOptions(invocation, context: context, command: spec.name)
    return try EditOptions.run(invocation, context: context, verb: "update", file: file, options: options) { o in
      try DataEditor.update(path: file, className: className, assignments: assignments, filter: filter, options: o)
    }
  }
}
