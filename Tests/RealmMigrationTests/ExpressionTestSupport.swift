import Testing
@testable import RealmMigration
import RealmModel
import RealmQuery
import RealmTestSupport

/// The Person, Dog and Address schema of `PersonFixture` (RealmTestSupport), with helpers to
/// compile and evaluate expressions against it.
typealias ExpressionFixture = PersonFixture

extension PersonFixture {
  static func compiler(_ className: String = "Person") -> ExpressionCompiler {
    ExpressionCompiler(schema: schema, className: className)!
  }

  /// Dogs 1 (Rex, 3, owner Person 7) and 2 (Fido, 5, no owner); Person 7 is Grace Hopper.
  struct Resolver: ObjectResolver {
    func values(of link: ObjectLink) throws -> [RealmValue]? {
      switch (link.className, link.key) {
      case ("Dog", 1): return ExpressionFixture.values(["name": .string("Rex"), "age": .int(3), "owner": .link(ObjectLink(className: "Person", key: 7))], of: dog)
      case ("Dog", 2): return ExpressionFixture.values(["name": .string("Fido"), "age": .int(5)], of: dog)
      case ("Person", 7): return ExpressionFixture.values(["firstName": .string("Grace"), "lastName": .string("Hopper"), "bestFriend": .null])
      case ("Person", 99): throw ResolverFailure()
      default: return nil
      }
    }
  }
  struct ResolverFailure: Error, CustomStringConvertible { var description: String { "storage read failed" } }

  static let environment = ExpressionEnvironment(now: Timestamp(seconds: 1_700_000_000, nanoseconds: 5), seed: 42)

  /// Compiles and evaluates a value expression on Person.
  static func eval(
    _ source: String, _ overrides: [String: RealmValue] = [:], newValues: [NewValue] = [], new: [RealmValue] = []
  ) throws -> RealmValue {
    let compiled = try compiler().compileValue(source, newValues: newValues)
    var context = EvaluationContext(old: values(overrides), new: new, resolver: Resolver(), environment: environment)
    return try compiled.evaluate(&context)
  }

  static func type(_ source: String, newValues: [NewValue] = []) throws -> ExpressionType {
    try compiler().compileValue(source, newValues: newValues).type
  }

  /// The compile error of `marked`, whose `⟪` marks the expected column (and is removed).
  static func compileError(_ marked: String, newValues: [NewValue] = []) -> (error: ExpressionError?, expectedColumn: Int) {
    let parts = marked.split(separator: "⟪", omittingEmptySubsequences: false).map(String.init)
    let source = parts.joined()
    let expectedColumn = parts.count > 1 ? parts[0].count + 1 : -1
    do {
      _ = try compiler().compileValue(source, newValues: newValues)
      return (nil, expectedColumn)
    } catch {
      return (error, expectedColumn)
    }
  }

  /// The evaluation error of `source`.
  static func evalError(_ source: String, _ overrides: [String: RealmValue] = [:]) -> EvaluationError? {
    do {
      _ = try eval(source, overrides)
      return nil
    } catch let e as EvaluationError {
      return e
    } catch {
      return nil
    }
  }
}

/// Expects `marked` (with `⟪` at the expected column) to fail to compile with `message`.
func expectCompileError(
  _ marked: String, _ message: String, newValues: [NewValue] = [],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let (error, column) = ExpressionFixture.compileError(marked, newValues: newValues)
  guard let error else {
    Issue.record("'\(marked)' compiled, expected: \(message)", sourceLocation: sourceLocation)
    return
  }
  expectEqual(error.message, message, sourceLocation: sourceLocation)
  expectEqual(error.column, column, "column of '\(marked)'", sourceLocation: sourceLocation)
}

