import RealmModel

/// `+ - * / %` and unary `-` on values.
///
/// int with int stays int, with overflow and division by zero as errors (never a trap);
/// float with int or float gives float; double with any number gives double. `+` also
/// joins two strings. A null operand gives null. decimal128 has no arithmetic (the checker
/// refuses it; a `mixed` value holding one fails here).
enum Arithmetic {
  static func apply(
    _ op: BinaryOperator, _ a: RealmValue, _ b: RealmValue, column: Int
  ) throws(EvaluationError) -> RealmValue {
    switch (a, b) {
    case (.null, _), (_, .null): return .null
    case (.int(let x), .int(let y)): return .int(try integer(op, x, y, column: column))
    case (.string(let x), .string(let y)) where op == .add: return .string(x + y)
    case (.double, _), (_, .double):
      if let x = number(a), let y = number(b) { return .double(floating(op, x, y)) }
    case (.float(let x), .float(let y)): return .float(floating(op, x, y))
    case (.float(let x), .int(let y)): return .float(floating(op, x, Float(y)))
    case (.int(let x), .float(let y)): return .float(floating(op, Float(x), y))
    default: break
    }
    throw EvaluationError(
      column: column,
      message: "cannot apply '\(op.rawValue)' to \(ValueText.typeName(a)) \(ValueText.describe(a)) and "
        + "\(ValueText.typeName(b)) \(ValueText.describe(b))")
  }

  private static func number(_ v: RealmValue) -> Double? {
    switch v {
    case .int(let i): return Double(i)
    case .float(let f): return Double(f)
    case .double(let d): return d
    default: return nil
    }
  }

  private static func integer(_ op: BinaryOperator, _ x: Int64, _ y: Int64, column: Int) throws(EvaluationError) -> Int64 {
    let result: (partialValue: Int64, overflow: Bool)
    switch op {
    case .add: result = x.addingReportingOverflow(y)
    case .subtract: result = x.subtractingReportingOverflow(y)
    case .multiply: result = x.multipliedReportingOverflow(by: y)
    case .divide, .remainder:
      if y == 0 {
        throw EvaluationError(column: column, message: "division by zero in '\(x) \(op.rawValue) 0'")
      }
      result = op == .divide ? x.dividedReportingOverflow(by: y) : x.remainderReportingOverflow(dividingBy: y)
    default: result = (0, true)
    }
    if result.overflow {
      throw EvaluationError(
        column: column, message: "integer overflow in '\(x) \(op.rawValue) \(y)' (ints are 64-bit)")
    }
    return result.partialValue
  }

  private static func floating<F: BinaryFloatingPoint>(_ op: BinaryOperator, _ x: F, _ y: F) -> F {
    switch op {
    case .add: return x + y
    case .subtract: return x - y
    case .multiply: return x * y
    case .divide: return x / y
    case .remainder: return x.truncatingRemainder(dividingBy: y)
    default: return .nan
    }
  }

  static func negate(_ a: RealmValue, column: Int) throws(EvaluationError) -> RealmValue {
    switch a {
    case .null: return .null
    case .int(let x):
      guard x != .min else {
        throw EvaluationError(column: column, message: "integer overflow in '-(\(x))' (ints are 64-bit)")
      }
      return .int(-x)
    case .float(let f): return .float(-f)
    case .double(let d): return .double(-d)
    default:
      throw EvaluationError(
        column: column, message: "cannot negate \(ValueText.typeName(a)) \(ValueText.describe(a))")
    }
  }
}
