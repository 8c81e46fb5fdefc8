import RealmFormat
import RealmModel

/// Column kernels: expressions evaluated for a whole batch of objects at once (a cluster of a
/// column-wise transform), column in, column out, instead of object by object through the
/// closures. The compiler gives a node a kernel when its semantics can be reproduced exactly
/// over columns; an expression has a kernel when every node of it has one.
///
/// The contract: for every object, a kernel gives the value the node's closure gives, or it
/// throws ``KernelFallback`` and the caller evaluates the batch object by object (which then
/// reports the error the closure throws, with its object). Kernels evaluate every operand for
/// every object (no short-circuit); that is safe because they throw nothing else: an operand
/// that would fail on an object the closure never evaluates it for just sends the batch down
/// the object-by-object path.
/// What a kernel reads: the batch's objects as columns.
public struct KernelInput: Sendable {
  /// Number of objects.
  public let count: Int
  /// The objects' values before the step, by position in the class's layout; nil for a
  /// column the expressions do not read (it reads as null).
  public let old: [ColumnValues?]
  /// The values assigned earlier in the same step (``EvaluationContext/new``).
  public let new: [ColumnValues]

  /// Creates an input.
  public init(count: Int, old: [ColumnValues?], new: [ColumnValues]) {
    self.count = count
    self.old = old
    self.new = new
  }
}

/// Some object of the batch needs the object-by-object path (its evaluation fails, or it is a
/// case the kernel does not cover).
public struct KernelFallback: Error, Sendable {
  /// Creates the signal.
  public init() {}
}

/// Computes one node's values for a batch.
public typealias ColumnKernel = @Sendable (KernelInput) throws(KernelFallback) -> ColumnValues

/// Building blocks shared by the kernels.
enum Kernels {
  /// A kernel giving `value` for every object.
  static func constant(_ value: RealmValue) -> ColumnKernel {
    { input in .repeated(value, count: input.count) }
  }

  /// The kernels of `args`, nil when one of them has none.
  static func all(_ args: [Compiled]) -> [ColumnKernel]? {
    var out: [ColumnKernel] = []
    for a in args {
      guard let k = a.kernel else { return nil }
      out.append(k)
    }
    return out
  }

  /// A kernel applying `f` object by object to the values of `args` (in ``RealmValue``s):
  /// exact for any pure operation; an error of `f` becomes ``KernelFallback``.
  static func rowwise(
    _ args: [ColumnKernel], _ f: @escaping @Sendable ([RealmValue]) throws(EvaluationError) -> RealmValue
  ) -> ColumnKernel {
    { (input: KernelInput) throws(KernelFallback) -> ColumnValues in
      var columns: [ColumnValues] = []
      columns.reserveCapacity(args.count)
      for a in args { columns.append(try a(input).checked(input.count)) }
      return try rowwise(columns, count: input.count, f)
    }
  }

  /// `f` applied object by object to the values of `columns`.
  static func rowwise(
    _ columns: [ColumnValues], count: Int, _ f: ([RealmValue]) throws(EvaluationError) -> RealmValue
  ) throws(KernelFallback) -> ColumnValues {
    var out: [RealmValue] = []
    out.reserveCapacity(count)
    var values = [RealmValue](repeating: .null, count: columns.count)
    for row in 0..<count {
      for (i, c) in columns.enumerated() { values[i] = c.value(at: row) }
      do {
        out.append(try f(values))
      } catch {
        throw KernelFallback()
      }
    }
    return .typed(out)
  }

  /// ``rowwise(_:_:)`` for an operation with one operand.
  static func rowwise(
    _ arg: @escaping ColumnKernel, _ f: @escaping @Sendable (RealmValue) throws(EvaluationError) -> RealmValue
  ) -> ColumnKernel {
    rowwise([arg]) { (v: [RealmValue]) throws(EvaluationError) -> RealmValue in try f(v[0]) }
  }
}

extension ColumnValues {
  /// The column checked to hold `count` values (a kernel's result must).
  func checked(_ count: Int) throws(KernelFallback) -> ColumnValues {
    guard self.count == count else { throw KernelFallback() }
    return self
  }
}
