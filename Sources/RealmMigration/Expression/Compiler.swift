import RealmModel
import RealmQuery

/// A compiled node: its static type and the closure that computes it per object.
typealias Evaluator = @Sendable (inout EvaluationContext) throws(EvaluationError) -> RealmValue

struct Compiled {
  var type: ExpressionType
  var evaluate: Evaluator
  /// The value, when the node is a literal (used for regex patterns and folding).
  var constant: RealmValue?
  /// The operands, when the node is a string concatenation (flattened into an outer one).
  var concatenatedParts: [Evaluator]?
  /// The same node over a batch's columns, when its semantics carry over exactly
  /// (Kernels/ColumnKernel.swift); nil evaluates object by object.
  var kernel: ColumnKernel?
  /// The operands' kernels, when the node is a string concatenation whose parts all have one.
  var concatenatedKernels: [ColumnKernel]?

  init(type: ExpressionType, evaluate: @escaping Evaluator, constant: RealmValue? = nil, kernel: ColumnKernel? = nil) {
    self.type = type
    self.evaluate = evaluate
    self.constant = constant
    self.kernel = kernel
  }

  static func constant(_ v: RealmValue, _ type: ExpressionType) -> Compiled {
    Compiled(type: type, evaluate: { _ in v }, constant: v, kernel: Kernels.constant(v))
  }

  /// A node of `type` computed by `body` from the values of `args`, in order. With
  /// `nullIfAnyNull`, a null argument makes the result null: `body` is not called and the
  /// arguments after it are not evaluated.
  static func combining(
    _ args: [Compiled], type: ExpressionType, nullIfAnyNull: Bool,
    _ body: @escaping @Sendable ([RealmValue]) throws(EvaluationError) -> RealmValue
  ) -> Compiled {
    let evaluators = args.map(\.evaluate)
    return Compiled(
      type: type,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        var values: [RealmValue] = []
        values.reserveCapacity(evaluators.count)
        for e in evaluators {
          let v = try e(&ctx)
          if nullIfAnyNull && v.isNull { return .null }
          values.append(v)
        }
        return try body(values)
      },
      kernel: Kernels.all(args).map { k in
        Kernels.rowwise(k) { (v: [RealmValue]) throws(EvaluationError) -> RealmValue in
          if nullIfAnyNull && v.contains(where: \.isNull) { return .null }
          return try body(v)
        }
      })
  }
}

/// The `old` positions a compiled expression reads (filled while compiling).
final class ReadRecorder: @unchecked Sendable {
  var indices = Set<Int>()
  /// True when the code draws values from the environment (`uuid()`, `objectId()`): their
  /// sequence depends on the order objects are evaluated in.
  var drawsFromEnvironment = false
}

/// Type-checks a syntax tree against the class's schema and turns it into closures, with
/// property names resolved to indices. One pass: each node is checked, then built.
struct Compiler {
  let schema: Schema
  let objectSchema: ObjectSchema
  let newValues: [NewValue]
  let source: String
  private let utf8: [UInt8]
  private let columns: ColumnMap
  /// The positions of `objectSchema`'s properties the compiled code reads from `old`.
  /// Every read of ``EvaluationContext/old`` must be recorded here: the column-wise
  /// transform path decodes only these columns (the others reach the code as null).
  let reads = ReadRecorder()

  init(schema: Schema, objectSchema: ObjectSchema, newValues: [NewValue], source: String) {
    self.schema = schema
    self.objectSchema = objectSchema
    self.newValues = newValues
    self.source = source
    self.utf8 = Array(source.utf8)
    self.columns = ColumnMap(source: source)
  }

  // MARK: - Helpers

  func column(_ node: Syntax) -> Int { columns.column(of: SourcePosition(offset: node.start)) }
  func column(offset: Int) -> Int { columns.column(of: SourcePosition(offset: offset)) }

  /// The node's source text, for messages.
  func text(_ node: Syntax) -> String {
    let lo = min(max(0, node.start), utf8.count)
    let hi = min(max(lo, node.end), utf8.count)
    return String(decoding: utf8[lo..<hi], as: UTF8.self)
  }

  func fail(_ node: Syntax, _ message: String) -> ExpressionError.Located {
    .init(node.start, message)
  }

  // MARK: - Dispatch

  func compile(_ node: Syntax) throws(ExpressionError.Located) -> Compiled {
    switch node.kind {
    case .int(let v): return .constant(.int(v), .int)
    case .double(let v): return .constant(.double(v), .double)
    case .string(let v): return .constant(.string(v), .string)
    case .bool(let v): return .constant(.bool(v), .bool)
    case .null: return .constant(.null, .null)
    case .list(let items): return try compileList(items, node)
    case .root(let root):
      throw fail(node, "'\(root.rawValue)' must be followed by a property name, as in '\(root.rawValue).\(objectSchema.properties.first?.name ?? "name")'")
    case .bare(let name): return try compileBare(name, node)
    case .member(let base, let name, let nameStart): return try compileMember(base, name, nameStart, node)
    case .aggregate(let base, let name): return try compileAggregate(base, name, node)
    case .index(let base, let subscriptNode): return try compileIndex(base, subscriptNode, node)
    case .call(let name, let arguments): return try compileCall(name, arguments, node)
    case .unary(let op, let operand): return try compileUnary(op, operand, node)
    case .binary(let op, let left, let right): return try compileBinary(op, left, right, node)
    case .comparison(let op, let ci, let left, let right, let quantifier):
      return try compileComparison(op, caseInsensitive: ci, left, right, quantifier, node)
    case .conditional(let c, let a, let b): return try compileConditional(c, a, b, node)
    }
  }

  private func compileList(_ items: [Syntax], _ node: Syntax) throws(ExpressionError.Located) -> Compiled {
    var compiled: [Compiled] = []
    var element = ExpressionType.null
    for (i, item) in items.enumerated() {
      let c = try compile(item)
      if c.type.isCollection { throw fail(item, "a list cannot contain a \(c.type.isList ? "list" : "collection") ('\(text(item))')") }
      element = i == 0 ? c.type : try unify(element, c.type, item, "list elements")
      compiled.append(c)
    }
    let target = element
    compiled = compiled.map { coerce($0, to: target) }
    let type = ExpressionType(.list(element))
    if compiled.allSatisfy({ $0.constant != nil }) {
      return .constant(.list(compiled.compactMap(\.constant)), type)
    }
    return .combining(compiled, type: type, nullIfAnyNull: false) { .list($0) }
  }

  private func compileConditional(
    _ c: Syntax, _ a: Syntax, _ b: Syntax, _ node: Syntax
  ) throws(ExpressionError.Located) -> Compiled {
    let condition = try compile(c)
    try requireBool(condition.type, c, "the condition of '?'")
    let whenTrue = try compile(a)
    let whenFalse = try compile(b)
    let type = try unify(whenTrue.type, whenFalse.type, node, "the branches of '?'")
    let ec = condition.evaluate
    let a = coerce(whenTrue, to: type)
    let b = coerce(whenFalse, to: type)
    let ea = a.evaluate
    let eb = b.evaluate
    return Compiled(
      type: type,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        if case .bool(true) = try ec(&ctx) { return try ea(&ctx) }
        return try eb(&ctx)
      },
      kernel: Kernels.all([condition, a, b]).map { k in
        Kernels.rowwise(k) { (v: [RealmValue]) throws(EvaluationError) -> RealmValue in
          if case .bool(true) = v[0] { return v[1] }
          return v[2]
        }
      })
  }

  func requireBool(_ t: ExpressionType, _ node: Syntax, _ what: String) throws(ExpressionError.Located) {
    guard t.isBool || t.isMixed || t.isNull else {
      throw fail(node, "\(what) must be a bool, but '\(text(node))' is \(t)")
    }
  }
}

/// A value set earlier in the same `transform` step, readable as `new.name`.
public struct NewValue: Sendable, Hashable {
  /// Property name.
  public var name: String
  /// Its type (the compiled expression's type, or the schema's).
  public var type: ExpressionType
  /// Creates an entry.
  public init(name: String, type: ExpressionType) {
    self.name = name
    self.type = type
  }
}
