import RealmMigration

/// `dump --where`: a Realm Query Language filter compiled once, evaluated per object with one
/// reused context (links are followed through the file).
enum DumpFilter {
  /// The compiled filter, or a usage error pointing at the column of the fault.
  static func make(
    _ query: String, objectSchema: ObjectSchema, schema: Schema, group: Group
  ) throws -> (ObjectSchema, Int64, [RealmValue]) throws -> Bool {
    let predicate: CompiledPredicate
    do {
      predicate = try ExpressionCompiler(schema: schema, objectSchema: objectSchema).compilePredicate(query)
    } catch {
      throw UsageError(.invalidValue, "Invalid '--where' query, column \(error.column): \(error.message)", command: "dump")
    }
    let box = ContextBox(EvaluationContext(resolver: GroupResolver(group: group)))
    return { _, key, values in
      box.context.old = values
      do {
        return try predicate.matches(&box.context)
      } catch let e as EvaluationError {
        throw RealmCtlError(.invalidInput, path: nil, "'--where' failed on the object with key \(key): \(e.message)")
      }
    }
  }

  /// Holds the one evaluation context (dump is single-threaded).
  final class ContextBox {
    var context: EvaluationContext
    init(_ context: EvaluationContext) { self.context = context }
  }
}
