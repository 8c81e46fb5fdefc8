extension RealmValue {
  /// The value a property holds when nothing else provides one (Realm's defaults): null for
  /// optional properties, links and mixed; 0, false, "", empty data, the epoch; empty
  /// collections.
  public static func zero(for p: Property) -> RealmValue {
    switch p.collection {
    case .list: return .list([])
    case .set: return .set([])
    case .dictionary: return .dictionary([])
    case .single: break
    }
    if p.isOptional || p.type == .mixed || p.type == .object { return .null }
    return zero(of: p.type)
  }

  /// The non-null zero value of a scalar type (null for links and mixed).
  public static func zero(of t: PropertyType) -> RealmValue {
    switch t {
    case .bool: return .bool(false)
    case .int: return .int(0)
    case .float: return .float(0)
    case .double: return .double(0)
    case .decimal128: return .decimal128(.zero)
    case .objectId: return .objectId(ObjectId(high: 0, low: 0))
    case .uuid: return .uuid(RealmUUID(high: 0, low: 0))
    case .string: return .string("")
    case .data: return .data([])
    case .date: return .date(Timestamp(seconds: 0, nanoseconds: 0))
    case .mixed, .object: return .null
    }
  }
}
