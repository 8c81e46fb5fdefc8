import RealmModel
import RealmQuery

/// Compiles the value expressions of `transform` steps for one class, once per plan; the
/// results are evaluated per object without re-reading the text. (`where` filters are Realm
/// Query Language: `RealmQuery`.)
///
/// ```swift
/// let compiler = ExpressionCompiler(schema: schema, className: "Person")!
/// let fullName = try compiler.compileValue("old.firstName + ' ' + old.lastName")
/// var context = EvaluationContext()
/// context.old = values  // the object's values in Person's property order
/// let value = try fullName.evaluate(&context)
/// ```
public struct ExpressionCompiler: Sendable {
  /// The whole schema (link targets are looked up here).
  public let schema: Schema
  /// The class whose objects are evaluated.
  public let objectSchema: ObjectSchema

  /// A compiler for the class called `className`; nil when the schema has no such class.
  public init?(schema: Schema, className: String) {
    guard let cls = schema.objectSchema(named: className) else { return nil }
    self.init(schema: schema, objectSchema: cls)
  }

  /// A compiler for `objectSchema` (which need not be in `schema` yet, e.g. while a plan
  /// adds properties to it).
  public init(schema: Schema, objectSchema: ObjectSchema) {
    self.schema = schema
    self.objectSchema = objectSchema
  }

  /// Compiles a value expression (a `transform.set` entry). `newValues` are the properties
  /// set earlier in the same step, readable as `new.name`, in the order the context's
  /// `new` array holds them.
  public func compileValue(_ source: String, newValues: [NewValue] = []) throws(ExpressionError) -> CompiledExpression {
    let (compiled, reads) = try compile(source, newValues: newValues)
    return CompiledExpression(
      source: source, type: compiled.type, evaluator: compiled.evaluate, readsOld: reads.indices,
      drawsFromEnvironment: reads.drawsFromEnvironment, kernel: reads.drawsFromEnvironment ? nil : compiled.kernel)
  }

  private func compile(_ source: String, newValues: [NewValue]) throws(ExpressionError) -> (Compiled, ReadRecorder) {
    let columns = ColumnMap(source: source)
    do {
      let tree = try Parser.parse(source)
      let compiler = Compiler(
        schema: schema, objectSchema: objectSchema, newValues: newValues, source: source)
      let compiled = try compiler.compile(tree)
      return (compiled, compiler.reads)
    } catch {
      throw ExpressionError(column: columns.column(of: error.position), message: error.message)
    }
  }
}

/// A compiled value expression.
public struct CompiledExpression: Sendable {
  /// The source text.
  public let source: String
  /// The static type of the values it produces.
  public let type: ExpressionType
  let evaluator: Evaluator
  /// Positions of the class's properties the expression reads from `old`.
  public var readsOld: Set<Int> = []
  /// True when it calls `uuid()` or `objectId()` (results depend on the evaluation order).
  public var drawsFromEnvironment = false
  /// The expression over a batch's columns, when every node has a kernel (see
  /// Kernels/ColumnKernel.swift): the column-wise transform path uses it.
  public var kernel: ColumnKernel?

  /// The value for the object in `context`.
  public func evaluate(_ context: inout EvaluationContext) throws(EvaluationError) -> RealmValue {
    try evaluator(&context)
  }
}
