extension RealmValue {
  /// The name of the value's type, as messages write it: `null`, `bool`, `int`, `float`,
  /// `double`, `decimal128`, `objectId`, `uuid`, `string`, `data`, `date`, `list`, `set`,
  /// `dictionary`, or the class name of a linked or embedded object.
  public var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "bool"
    case .int: return "int"
    case .float: return "float"
    case .double: return "double"
    case .decimal128: return "decimal128"
    case .objectId: return "objectId"
    case .uuid: return "uuid"
    case .string: return "string"
    case .data: return "data"
    case .date: return "date"
    case .link(let l): return l.className
    case .embedded(let e): return e.className
    case .list: return "list"
    case .set: return "set"
    case .dictionary: return "dictionary"
    }
  }
}
