import RealmFormat
import RealmModel
import RealmQuery

/// Operators: arithmetic, logic, `??`, comparisons, and the type rules they share.
extension Compiler {
  func compileUnary(_ op: UnaryOperator, _ operand: Syntax, _ node: Syntax) throws(ExpressionError.Located) -> Compiled {
    let inner = try compile(operand)
    let e = inner.evaluate
    let col = column(node)
    switch op {
    case .negate:
      guard inner.type.isNumeric || inner.type.isMixed || inner.type.isNull else {
        throw fail(node, "'-' needs a number, but '\(text(operand))' is \(inner.type)")
      }
      if case .decimal128 = inner.type.kind { throw decimalArithmetic(node) }
      return Compiled(
        type: inner.type,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          try Arithmetic.negate(try e(&ctx), column: col)
        },
        kernel: inner.kernel.map { k in
          Kernels.rowwise(k) { (v: RealmValue) throws(EvaluationError) -> RealmValue in try Arithmetic.negate(v, column: col) }
        })
    case .not:
      try requireBool(inner.type, operand, "the operand of '!'")
      return Compiled(
        type: .bool,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          .bool(!(try Logic.truth(try e(&ctx), "!", column: col)))
        },
        kernel: inner.kernel.map { k in
          Kernels.rowwise(k) { (v: RealmValue) throws(EvaluationError) -> RealmValue in
            .bool(!(try Logic.truth(v, "!", column: col)))
          }
        })
    }
  }

  private func decimalArithmetic(_ node: Syntax) -> ExpressionError.Located {
    fail(node, "arithmetic on decimal128 is not supported; convert with double(...) first")
  }

  func compileBinary(
    _ op: BinaryOperator, _ left: Syntax, _ right: Syntax, _ node: Syntax
  ) throws(ExpressionError.Located) -> Compiled {
    let l = try compile(left)
    let r = try compile(right)
    let el = l.evaluate
    let er = r.evaluate
    let col = column(node)
    switch op {
    case .and, .or:
      try requireBool(l.type, left, "the left side of '\(op.rawValue)'")
      try requireBool(r.type, right, "the right side of '\(op.rawValue)'")
      let isAnd = op == .and
      let name = op.rawValue
      return Compiled(
        type: .bool,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          let first = try Logic.truth(try el(&ctx), name, column: col)
          if first != isAnd { return .bool(first) }  // short-circuit
          return .bool(try Logic.truth(try er(&ctx), name, column: col))
        },
        kernel: Kernels.all([l, r]).map { k in
          Kernels.rowwise(k) { (v: [RealmValue]) throws(EvaluationError) -> RealmValue in
            let first = try Logic.truth(v[0], name, column: col)
            if first != isAnd { return .bool(first) }
            return .bool(try Logic.truth(v[1], name, column: col))
          }
        })
    case .coalesce:
      let type = try unify(l.type.required, r.type, node, "the sides of '??'")
      let left = coerce(l, to: type)
      let right = coerce(r, to: type)
      let cl = left.evaluate
      let cr = right.evaluate
      return Compiled(
        type: r.type.isOptional || r.type.isNull ? type.optional : type.required,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          let v = try cl(&ctx)
          if case .null = v { return try cr(&ctx) }
          return v
        },
        kernel: Kernels.all([left, right]).map { k in
          Kernels.rowwise(k) { (v: [RealmValue]) throws(EvaluationError) -> RealmValue in v[0].isNull ? v[1] : v[0] }
        })
    case .add, .subtract, .multiply, .divide, .remainder:
      let type = try arithmeticType(op, l.type, r.type, left, right, node)
      if op == .add, l.type.isString, r.type.isString { return concatenation(l, r, type) }
      return Compiled(
        type: type,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          try Arithmetic.apply(op, try el(&ctx), try er(&ctx), column: col)
        },
        kernel: Kernels.all([l, r]).map { k in Kernels.arithmetic(op, k[0], k[1], column: col) })
    }
  }

  /// `a + b + c + ...` on strings: one result built at once (no intermediate strings).
  /// The operands' own concatenations are flattened into this one.
  private func concatenation(_ l: Compiled, _ r: Compiled, _ type: ExpressionType) -> Compiled {
    let parts = (l.concatenatedParts ?? [l.evaluate]) + (r.concatenatedParts ?? [r.evaluate])
    var compiled = Compiled(
      type: type,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        var result = ""
        result.reserveCapacity(48)
        for part in parts {
          guard case .string(let s) = try part(&ctx) else { return .null }
          result += s
        }
        return .string(result)
      })
    compiled.concatenatedParts = parts
    if let a = l.concatenatedKernels ?? l.kernel.map({ [$0] }), let b = r.concatenatedKernels ?? r.kernel.map({ [$0] }) {
      compiled.concatenatedKernels = a + b
      compiled.kernel = Kernels.concatenation(a + b)
    }
    return compiled
  }

  private func arithmeticType(
    _ op: BinaryOperator, _ a: ExpressionType, _ b: ExpressionType, _ left: Syntax, _ right: Syntax, _ node: Syntax
  ) throws(ExpressionError.Located) -> ExpressionType {
    if a.isNull && b.isNull { return .null }
    if a.isMixed || b.isMixed { return .mixed }
    let optional = a.isOptional || b.isOptional
    if a.isNull { return b.optional }
    if b.isNull { return a.optional }
    if op == .add, a.isString, b.isString { return ExpressionType(.string, isOptional: optional) }
    if a.isNumeric, b.isNumeric {
      if a.kind == .decimal128 || b.kind == .decimal128 { throw decimalArithmetic(node) }
      let kind: ExpressionType.Kind =
        a.kind == .double || b.kind == .double ? .double : (a.kind == .float || b.kind == .float ? .float : .int)
      return ExpressionType(kind, isOptional: optional)
    }
    if op == .add, a.isString || b.isString {
      let other = a.isString ? right : left
      throw fail(node, "'+' joins two strings, but '\(text(other))' is \(a.isString ? b : a); convert it with string(...)")
    }
    let bad = a.isNumeric ? right : left
    throw fail(bad, "'\(op.rawValue)' needs numbers, but '\(text(bad))' is \(a.isNumeric ? b : a)")
  }

  // MARK: - Comparisons

  func compileComparison(
    _ op: ComparisonOperator, caseInsensitive: Bool, _ left: Syntax, _ right: Syntax, _ quantifier: Quantifier?,
    _ node: Syntax
  ) throws(ExpressionError.Located) -> Compiled {
    let l = try compile(left)
    let r = try compile(right)
    if let quantifier {
      guard let element = l.type.elementType else {
        throw fail(left, "'\(quantifier.rawValue)' needs a collection, but '\(text(left))' is \(l.type)")
      }
      var rt = r.type
      if op == .isIn {
        guard let e = rt.elementType else {
          throw fail(right, "'IN' needs a list such as {'a', 'b'}, but '\(text(right))' is \(rt)")
        }
        rt = e
      }
      try checkComparable(op, element, rt, left, right, node)
      return buildQuantified(quantifier, op, caseInsensitive, l, r)
    }
    // A collection on one side of a scalar comparison means "any element" (RQL).
    var anyLeft = false
    var anyRight = false
    var lt = l.type
    var rt = r.type
    if op == .isIn {
      guard let e = rt.elementType else {
        if rt.isMixed || rt.isNull { return try buildComparison(op, caseInsensitive, l, r, false, false, node) }
        throw fail(right, "'IN' needs a list such as {'a', 'b'}, but '\(text(right))' is \(rt)")
      }
      rt = e
      if let le = lt.elementType {
        anyLeft = true
        lt = le
      }
    } else if let le = lt.elementType, rt.elementType == nil {
      anyLeft = true
      lt = le
    } else if let re = rt.elementType, lt.elementType == nil {
      anyRight = true
      rt = re
    }
    try checkComparable(op, lt, rt, left, right, node)
    return try buildComparison(op, caseInsensitive, l, r, anyLeft, anyRight, node)
  }

  /// `ANY`/`ALL`/`NONE` of the left collection's elements (ALL of nothing is true).
  private func buildQuantified(
    _ quantifier: Quantifier, _ op: ComparisonOperator, _ ci: Bool, _ l: Compiled, _ r: Compiled
  ) -> Compiled {
    let el = l.evaluate
    let er = r.evaluate
    return Compiled(
      type: .bool,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        let items = Logic.elements(try el(&ctx))
        let b = try er(&ctx)
        switch quantifier {
        case .any: return .bool(items.contains { Logic.compare(op, ci, $0, b) })
        case .all: return .bool(items.allSatisfy { Logic.compare(op, ci, $0, b) })
        case .none: return .bool(!items.contains { Logic.compare(op, ci, $0, b) })
        }
      },
      kernel: Kernels.all([l, r]).map { k in
        Kernels.rowwise(k) { (v: [RealmValue]) -> RealmValue in
          let items = Logic.elements(v[0])
          switch quantifier {
          case .any: return .bool(items.contains { Logic.compare(op, ci, $0, v[1]) })
          case .all: return .bool(items.allSatisfy { Logic.compare(op, ci, $0, v[1]) })
          case .none: return .bool(!items.contains { Logic.compare(op, ci, $0, v[1]) })
          }
        }
      })
  }

  private func buildComparison(
    _ op: ComparisonOperator, _ ci: Bool, _ l: Compiled, _ r: Compiled, _ anyLeft: Bool, _ anyRight: Bool,
    _ node: Syntax
  ) throws(ExpressionError.Located) -> Compiled {
    let el = l.evaluate
    let er = r.evaluate
    let compare: @Sendable (RealmValue, RealmValue) -> Bool = { a, b in Logic.compare(op, ci, a, b) }
    let kernel = Kernels.all([l, r]).map { k in
      Kernels.rowwise(k) { (v: [RealmValue]) -> RealmValue in
        if anyLeft { return .bool(Logic.elements(v[0]).contains { compare($0, v[1]) }) }
        if anyRight { return .bool(Logic.elements(v[1]).contains { compare(v[0], $0) }) }
        return .bool(compare(v[0], v[1]))
      }
    }
    if anyLeft {
      return Compiled(
        type: .bool,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          let items = Logic.elements(try el(&ctx))
          let b = try er(&ctx)
          return .bool(items.contains { compare($0, b) })
        }, kernel: kernel)
    }
    if anyRight {
      return Compiled(
        type: .bool,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          let a = try el(&ctx)
          return .bool(Logic.elements(try er(&ctx)).contains { compare(a, $0) })
        }, kernel: kernel)
    }
    if let k = r.constant {
      // A literal on the right (`age >= 18`): no closure call for it.
      return Compiled(
        type: .bool,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          .bool(compare(try el(&ctx), k))
        }, kernel: kernel)
    }
    return Compiled(
      type: .bool,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        let a = try el(&ctx)
        return .bool(compare(a, try er(&ctx)))
      }, kernel: kernel)
  }

  private func checkComparable(
    _ op: ComparisonOperator, _ a: ExpressionType, _ b: ExpressionType, _ left: Syntax, _ right: Syntax,
    _ node: Syntax
  ) throws(ExpressionError.Located) {
    if a.isMixed || b.isMixed { return }
    let name = op == .isIn ? "IN" : op.rawValue
    switch op {
    case .beginsWith, .contains, .endsWith, .like:
      for (t, side) in [(a, left), (b, right)] where !(t.isString || t.isNull) {
        throw fail(side, "'\(name)' needs strings, but '\(text(side))' is \(t)")
      }
      return
    case .equal, .notEqual, .isIn:
      if a.isNull || b.isNull { return }
    case .less, .lessEqual, .greater, .greaterEqual:
      if a.isNull || b.isNull { return }
      for (t, side) in [(a, left), (b, right)] {
        switch t.kind {
        case .bool, .link, .embedded, .list, .set, .dictionary:
          throw fail(side, "'\(name)' cannot order \(t) values ('\(text(side))')")
        default: break
        }
      }
    }
    if a.isNumeric && b.isNumeric { return }
    switch (a.kind, b.kind) {
    case (.link(let x), .link(let y)), (.embedded(let x), .embedded(let y)):
      if x == y { return }
    case (.list, .list), (.set, .set), (.dictionary, .dictionary): return
    default:
      if a.required.kind == b.required.kind { return }
    }
    throw fail(node, "cannot compare \(a) with \(b) ('\(text(left))' \(name) '\(text(right))')")
  }

  // MARK: - Unification

  /// The common type of two alternatives (`?:` branches, `??`, list elements, coalesce).
  func unify(
    _ a: ExpressionType, _ b: ExpressionType, _ node: Syntax, _ what: String
  ) throws(ExpressionError.Located) -> ExpressionType {
    if a.isNull { return b.optional }
    if b.isNull { return a.optional }
    let optional = a.isOptional || b.isOptional
    if a.isMixed || b.isMixed { return .mixed }
    if a.with(isOptional: false) == b.with(isOptional: false) { return a.with(isOptional: optional) }
    if a.isNumeric, b.isNumeric, a.kind != .decimal128, b.kind != .decimal128 {
      let kind: ExpressionType.Kind =
        a.kind == .double || b.kind == .double ? .double : .float
      return ExpressionType(kind, isOptional: optional)
    }
    throw fail(node, "\(what) have different types: \(a) and \(b)")
  }

  /// Wraps `c` so that its numbers become `type`'s kind (int to double in `c ? 1 : 2.5`).
  func coerce(_ c: Compiled, to type: ExpressionType) -> Compiled {
    guard c.type.kind != type.kind, c.type.isNumeric || c.type.isMixed else { return c }
    let target = type.kind
    guard target == .double || target == .float else { return c }
    let e = c.evaluate
    let convert: @Sendable (RealmValue) -> RealmValue = { v in
      switch (v, target) {
      case (.int(let i), .double): return .double(Double(i))
      case (.float(let f), .double): return .double(Double(f))
      case (.int(let i), .float): return .float(Float(i))
      default: return v
      }
    }
    if let k = c.constant { return .constant(convert(k), type) }
    return Compiled(
      type: type,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in convert(try e(&ctx)) },
      kernel: c.kernel.map { k in Kernels.rowwise(k) { (v: RealmValue) -> RealmValue in convert(v) } })
  }
}

extension ExpressionType.Kind {
  var isDictionary: Bool { if case .dictionary = self { return true } else { return false } }
}

/// The runtime side of logic and comparisons.
enum Logic {
  /// A bool's truth; null is false; anything else is an error (a `mixed` of another type).
  static func truth(_ v: RealmValue, _ op: String, column: Int) throws(EvaluationError) -> Bool {
    switch v {
    case .bool(let b): return b
    case .null: return false
    default:
      throw EvaluationError(
        column: column, message: "'\(op)' needs a bool, found \(ValueText.typeName(v)) \(ValueText.describe(v))")
    }
  }

  /// The elements of a collection value (dictionary values); a scalar is itself.
  static func elements(_ v: RealmValue) -> [RealmValue] {
    switch v {
    case .list(let l), .set(let l): return l
    case .dictionary(let d): return d.map(\.value)
    case .null: return []
    default: return [v]
    }
  }

  static func compare(_ op: ComparisonOperator, _ ci: Bool, _ a: RealmValue, _ b: RealmValue) -> Bool {
    // Fast path for the most common filter: an int property against an int.
    if case .int(let x) = a, case .int(let y) = b, let verdict = op.verdict(order: x < y ? -1 : x == y ? 0 : 1) {
      return verdict
    }
    switch op {
    case .equal: return ValueComparison.equal(a, b, caseInsensitive: ci)
    case .notEqual: return !ValueComparison.equal(a, b, caseInsensitive: ci)
    case .less, .lessEqual, .greater, .greaterEqual: return ValueComparison.order(a, b).flatMap(op.verdict(order:)) ?? false
    case .isIn: return elements(b).contains { ValueComparison.equal(a, $0, caseInsensitive: ci) }
    case .beginsWith, .contains, .endsWith, .like:
      guard case .string(let s) = a, case .string(let p) = b else { return false }
      switch op {
      case .beginsWith: return StringMatching.beginsWith(s, p, caseInsensitive: ci)
      case .endsWith: return StringMatching.endsWith(s, p, caseInsensitive: ci)
      case .contains: return StringMatching.contains(s, p, caseInsensitive: ci)
      default: return StringMatching.like(s, p, caseInsensitive: ci)
      }
    }
  }
}

extension ComparisonOperator {
  /// Whether two values in the order `order` (negative: the left one is less, 0: equal,
  /// positive: greater) satisfy the operator; nil for the operators other than `==`, `!=`,
  /// `<`, `<=`, `>`, `>=`.
  fileprivate func verdict(order: Int) -> Bool? {
    switch self {
    case .equal: return order == 0
    case .notEqual: return order != 0
    case .less: return order < 0
    case .lessEqual: return order <= 0
    case .greater: return order > 0
    case .greaterEqual: return order >= 0
    default: return nil
    }
  }
}
