import Foundation
import RealmModel

/// Fits a value computed by an expression or an external program to the property it is
/// written to: numbers widen (int -> double, float, decimal128), collections are checked
/// element by element; anything else that does not fit is an error naming the object.
public enum ValueCoercion {
  /// The value converted to fit `p`, or an error.
  public static func coerce(
    _ v: RealmValue, to p: Property, context: () -> String, path: String?
  ) throws -> RealmValue {
    switch p.collection {
    case .single:
      return try element(v, p, context, path)
    case .list, .set:
      let items: [RealmValue]
      switch v {
      case .list(let l), .set(let l): items = l
      case .null: items = []
      default:
        throw MigrationError(.evaluationFailed, path: path, "\(context()): '\(p.name)' is a \(p.collection.rawValue) but the value is \(ValueText.describe(v))")
      }
      let converted = try items.map { try element($0, p, context, path) }
      return p.collection == .list ? .list(converted) : .set(converted)
    case .dictionary:
      switch v {
      case .dictionary(let entries):
        return .dictionary(try entries.map { DictionaryEntry($0.key, try element($0.value, p, context, path)) })
      case .null: return .dictionary([])
      default:
        throw MigrationError(.evaluationFailed, path: path, "\(context()): '\(p.name)' is a dictionary but the value is \(ValueText.describe(v))")
      }
    }
  }

  static func element(_ v: RealmValue, _ p: Property, _ context: () -> String, _ path: String?) throws -> RealmValue {
    func mismatch() -> MigrationError {
      MigrationError(
        .evaluationFailed, path: path,
        "\(context()): '\(p.name)' needs \(p.type == .object ? "a link to \(p.objectType ?? "?")" : "a value of type '\(p.type.rawValue)'") but the value is \(ValueText.describe(v))")
    }
    if case .null = v {
      if p.isOptional || p.type == .mixed || p.type == .object { return .null }
      throw MigrationError(.evaluationFailed, path: path, "\(context()): '\(p.name)' is required but the value is null")
    }
    if case .date(let t) = v, let problem = t.validityProblem {
      // Realm refuses such a pair (`realm::Timestamp`): nothing computes one, but a file can hold it.
      throw MigrationError(.evaluationFailed, path: path, "\(context()): '\(p.name)' would get an invalid timestamp: \(problem)")
    }
    switch (p.type, v) {
    case (.mixed, .list), (.mixed, .dictionary): return v
    case (.mixed, .set), (.mixed, .embedded): throw mismatch()
    case (.mixed, _): return v
    case (.int, .int), (.bool, .bool), (.string, .string), (.data, .data), (.date, .date),
      (.objectId, .objectId), (.uuid, .uuid), (.double, .double), (.float, .float), (.decimal128, .decimal128):
      return v
    case (.double, .int(let i)): return .double(Double(i))
    case (.double, .float(let f)): return .double(Double(f))
    case (.float, .int(let i)): return .float(Float(i))
    case (.float, .double(let d)): return .float(Float(d))
    case (.decimal128, .int(let i)): return .decimal128(Decimal128(exactly: i))
    case (.int, .double(let d)):
      guard let i = Int64(exactly: d) else { throw mismatch() }
      return .int(i)
    case (.object, .link(let l)):
      guard l.className == p.objectType else { throw mismatch() }
      return v
    case (.object, .embedded(let e)):
      guard e.className == p.objectType else { throw mismatch() }
      return v
    default:
      throw mismatch()
    }
  }
}

extension Decimal128 {
  /// The exact decimal128 of an integer (coefficient |i|, exponent 0).
  public init(exactly i: Int64) {
    let magnitude = i.magnitude
    let sign: UInt64 = i < 0 ? 1 << 63 : 0
    self.init(low: magnitude, high: sign | (UInt64(6176) << 49))
  }
}
