/// The value a required property gets when nothing else provides one (Realm's defaults).
public enum ZeroValue {
  /// The zero value of a property: 0, false, "", empty data, the epoch, empty collections;
  /// null for optional properties, links and mixed.
  public static func of(_ p: Property) -> RealmValue {
    switch p.collection {
    case .list: return .list([])
    case .set: return .set([])
    case .dictionary: return .dictionary([])
    case .single: break
    }
    if p.isOptional || p.type == .object || p.type == .mixed { return .null }
    return ofType(p.type)
  }

  /// The non-null zero value of a scalar type (null for links and mixed).
  public static func ofType(_ t: PropertyType) -> RealmValue {
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
