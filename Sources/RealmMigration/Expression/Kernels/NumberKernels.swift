import RealmFormat
import RealmModel

/// Kernels of arithmetic: int and double columns computed in plain arrays; every other
/// combination object by object through ``Arithmetic``.
extension Kernels {
  /// `a op b` (not string concatenation), as ``Arithmetic/apply(_:_:_:column:)``.
  static func arithmetic(_ op: BinaryOperator, _ a: @escaping ColumnKernel, _ b: @escaping ColumnKernel, column: Int) -> ColumnKernel {
    { (input: KernelInput) throws(KernelFallback) -> ColumnValues in
      let n = input.count
      let x = try a(input).checked(n)
      let y = try b(input).checked(n)
      switch (x, y) {
      case (.int(let l), .int(let r)) where op == .add || op == .subtract || op == .multiply:
        var out = ScalarColumn<Int64>(values: [], nulls: nullUnion(l.nulls, r.nulls, n))
        out.values.reserveCapacity(n)
        for i in 0..<n {
          if out.isNull(i) {
            out.values.append(0)
            continue
          }
          let result: (partialValue: Int64, overflow: Bool)
          switch op {
          case .add: result = l.values[i].addingReportingOverflow(r.values[i])
          case .subtract: result = l.values[i].subtractingReportingOverflow(r.values[i])
          default: result = l.values[i].multipliedReportingOverflow(by: r.values[i])
          }
          // The closure reports the overflow with its object.
          if result.overflow { throw KernelFallback() }
          out.values.append(result.partialValue)
        }
        return .int(out)
      case (.double(let l), .double(let r)):
        return .double(floating(op, l.values, l.nulls, r.values, r.nulls, n))
      case (.double(let l), .int(let r)):
        return .double(floating(op, l.values, l.nulls, r.values.map { Double($0) }, r.nulls, n))
      case (.int(let l), .double(let r)):
        return .double(floating(op, l.values.map { Double($0) }, l.nulls, r.values, r.nulls, n))
      default:
        return try rowwise([x, y], count: n) { (v: [RealmValue]) throws(EvaluationError) -> RealmValue in
          try Arithmetic.apply(op, v[0], v[1], column: column)
        }
      }
    }
  }

  /// Null where either side is null (empty when neither has nulls).
  static func nullUnion(_ a: [Bool], _ b: [Bool], _ n: Int) -> [Bool] {
    if a.isEmpty { return b }
    if b.isEmpty { return a }
    return (0..<n).map { a[$0] || b[$0] }
  }

  /// Double arithmetic as ``Arithmetic`` does it (IEEE results, no errors).
  static func floating(_ op: BinaryOperator, _ l: [Double], _ ln: [Bool], _ r: [Double], _ rn: [Bool], _ n: Int) -> ScalarColumn<Double> {
    var out = ScalarColumn<Double>(values: [], nulls: nullUnion(ln, rn, n))
    out.values.reserveCapacity(n)
    for i in 0..<n {
      let x = l[i]
      let y = r[i]
      switch op {
      case .add: out.values.append(x + y)
      case .subtract: out.values.append(x - y)
      case .multiply: out.values.append(x * y)
      case .divide: out.values.append(x / y)
      case .remainder: out.values.append(x.truncatingRemainder(dividingBy: y))
      default: out.values.append(.nan)
      }
    }
    for i in 0..<n where out.isNull(i) { out.values[i] = 0 }
    return out
  }
}
