import RealmModel

/// Whether an expression's values can be stored in a property, and the conversion that does
/// it: what the migrator needs for `transform.set` into an existing property.
extension ExpressionType {
  /// True when values of this type can be stored in `property` (after
  /// `RealmValue.converted(toFit:)`). Optionality is not checked here: a null for a
  /// required property is found per object. `mixed` values are checked per object too.
  public func isAssignable(to property: Property) -> Bool {
    switch property.collection {
    case .single:
      return Self.scalarAssignable(self, property.type, property.objectType)
    case .list, .set:
      switch kind {
      case .null, .mixed: return true
      case .list(let e), .set(let e): return Self.scalarAssignable(e, property.type, property.objectType)
      default: return false
      }
    case .dictionary:
      switch kind {
      case .null, .mixed: return true
      case .dictionary(let e): return Self.scalarAssignable(e, property.type, property.objectType)
      default: return false
      }
    }
  }

  private static func scalarAssignable(_ t: ExpressionType, _ type: PropertyType, _ objectType: String?) -> Bool {
    switch (t.kind, type) {
    case (.null, _), (.mixed, _), (_, .mixed): return true
    case (.int, .int), (.int, .float), (.int, .double), (.int, .decimal128): return true
    case (.float, .float), (.float, .double), (.double, .double), (.double, .float): return true
    case (.decimal128, .decimal128), (.bool, .bool), (.string, .string), (.data, .data), (.date, .date): return true
    case (.objectId, .objectId), (.uuid, .uuid): return true
    case (.link(let c), .object), (.embedded(let c), .object): return c == objectType
    default: return false
    }
  }
}

extension RealmValue {
  /// This value converted to fit `property`: ints widened to float, double or decimal128,
  /// doubles narrowed to float, lists to sets (duplicates kept: the writer decides), element
  /// by element for collections (every Int64 fits decimal128 exactly). Nil when it cannot
  /// fit, e.g. a `mixed` value of another type.
  public func converted(toFit property: Property) -> RealmValue? {
    switch property.collection {
    case .single: return convertedScalar(property.type)
    case .list, .set:
      switch self {
      case .list(let items), .set(let items): return Self.collection(items, property)
      default: return nil
      }
    case .dictionary:
      guard case .dictionary(let entries) = self else { return nil }
      var out: [DictionaryEntry] = []
      out.reserveCapacity(entries.count)
      for e in entries {
        guard let v = e.value.convertedScalar(property.type) else { return nil }
        out.append(DictionaryEntry(e.key, v))
      }
      return .dictionary(out)
    }
  }

  private static func collection(_ items: [RealmValue], _ property: Property) -> RealmValue? {
    var out: [RealmValue] = []
    out.reserveCapacity(items.count)
    for item in items {
      guard let v = item.convertedScalar(property.type) else { return nil }
      out.append(v)
    }
    return property.collection == .set ? .set(out) : .list(out)
  }

  private func convertedScalar(_ type: PropertyType) -> RealmValue? {
    switch (self, type) {
    case (.null, _), (_, .mixed): return self
    case (.int(let i), .float): return .float(Float(i))
    case (.int(let i), .double): return .double(Double(i))
    case (.int(let i), .decimal128): return .decimal128(Self.decimal(i))
    case (.float(let f), .double): return .double(Double(f))
    case (.double(let d), .float): return .float(Float(d))
    case (.bool, .bool), (.int, .int), (.float, .float), (.double, .double), (.decimal128, .decimal128),
      (.string, .string), (.data, .data), (.date, .date), (.objectId, .objectId), (.uuid, .uuid),
      (.link, .object), (.embedded, .object):
      return self
    default: return nil
    }
  }

  /// An integer as a BID decimal128 with exponent 0.
  static func decimal(_ i: Int64) -> Decimal128 {
    let sign: UInt64 = i < 0 ? 1 << 63 : 0
    let magnitude = i.magnitude
    return Decimal128(low: magnitude, high: sign | UInt64(6176) << 49)
  }
}
