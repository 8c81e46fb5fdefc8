import RealmModel

/// The static type of an expression: what it evaluates to, and whether it may be null.
///
/// The migrator creates a property set by a `transform` "with the expression's type":
/// ``property(named:)`` gives that property.
public struct ExpressionType: Sendable, Hashable, CustomStringConvertible {
  /// The kinds of value.
  public indirect enum Kind: Sendable, Hashable {
    /// Only the `null` literal (and empty lists' elements) have this type.
    case null
    /// The scalar kinds, named as in the schema.
    case bool, int, float, double, decimal128, objectId, uuid, string, data, date
    /// Any value (a `mixed` property): checked when evaluated.
    case mixed
    /// A link to an object of the named class.
    case link(String)
    /// An embedded object of the named class.
    case embedded(String)
    /// A list, with the element type.
    case list(ExpressionType)
    /// A set, with the element type.
    case set(ExpressionType)
    /// A dictionary with string keys, with the value type.
    case dictionary(ExpressionType)
  }

  /// The kind of value.
  public var kind: Kind
  /// Whether the value may be null.
  public var isOptional: Bool

  /// Creates a type.
  public init(_ kind: Kind, isOptional: Bool = false) {
    self.kind = kind
    // null and mixed are always nullable; links too, as in Realm.
    switch kind {
    case .null, .mixed, .link: self.isOptional = true
    default: self.isOptional = isOptional
    }
  }

  /// The type of a property's values, as the schema declares it.
  public init(_ property: Property, in schema: Schema) {
    let element: Kind
    switch property.type {
    case .bool: element = .bool
    case .int: element = .int
    case .float: element = .float
    case .double: element = .double
    case .decimal128: element = .decimal128
    case .objectId: element = .objectId
    case .uuid: element = .uuid
    case .string: element = .string
    case .data: element = .data
    case .date: element = .date
    case .mixed: element = .mixed
    case .object:
      let target = property.objectType ?? ""
      element = schema.objectSchema(named: target)?.isEmbedded == true ? .embedded(target) : .link(target)
    }
    let elementType = ExpressionType(element, isOptional: property.isOptional)
    switch property.collection {
    case .single: self = elementType
    case .list: self = ExpressionType(.list(elementType))
    case .set: self = ExpressionType(.set(elementType))
    case .dictionary: self = ExpressionType(.dictionary(elementType))
    }
  }

  /// The same type, possibly null.
  public var optional: ExpressionType { with(isOptional: true) }
  /// The same type, never null.
  public var required: ExpressionType {
    switch kind {
    case .null, .mixed, .link: return self
    default: return with(isOptional: false)
    }
  }

  func with(isOptional: Bool) -> ExpressionType {
    var t = self
    t.isOptional = isOptional
    if case .null = kind { t.isOptional = true }
    return t
  }

  /// The element type of a list, set or dictionary; nil for other kinds.
  public var elementType: ExpressionType? {
    switch kind {
    case .list(let e), .set(let e), .dictionary(let e): return e
    default: return nil
    }
  }

  /// The property a transform creates for values of this type; nil for the `null`
  /// literal's type (the plan's `schema` must give the type then).
  public func property(named name: String) -> Property? {
    func scalar(_ k: Kind) -> (PropertyType, String?)? {
      switch k {
      case .null: return nil
      case .bool: return (.bool, nil)
      case .int: return (.int, nil)
      case .float: return (.float, nil)
      case .double: return (.double, nil)
      case .decimal128: return (.decimal128, nil)
      case .objectId: return (.objectId, nil)
      case .uuid: return (.uuid, nil)
      case .string: return (.string, nil)
      case .data: return (.data, nil)
      case .date: return (.date, nil)
      case .mixed: return (.mixed, nil)
      case .link(let c), .embedded(let c): return (.object, c)
      case .list, .set, .dictionary: return nil
      }
    }
    let collection: CollectionKind
    let element: ExpressionType
    switch kind {
    case .list(let e): (collection, element) = (.list, e)
    case .set(let e): (collection, element) = (.set, e)
    case .dictionary(let e): (collection, element) = (.dictionary, e)
    default: (collection, element) = (.single, self)
    }
    guard let (type, objectType) = scalar(element.kind) else { return nil }
    return Property(
      name: name, type: type, collection: collection, objectType: objectType, isOptional: element.isOptional)
  }

  /// Plan notation: `string?`, `int`, `Dog`, `string[]`, `string<>`, `int{}`, `null`.
  public var description: String {
    let q = isOptional ? "?" : ""
    switch kind {
    case .null: return "null"
    case .bool: return "bool" + q
    case .int: return "int" + q
    case .float: return "float" + q
    case .double: return "double" + q
    case .decimal128: return "decimal128" + q
    case .objectId: return "objectId" + q
    case .uuid: return "uuid" + q
    case .string: return "string" + q
    case .data: return "data" + q
    case .date: return "date" + q
    case .mixed: return "mixed"
    case .link(let c): return c
    case .embedded(let c): return c + q
    case .list(let e): return "\(e)[]"
    case .set(let e): return "\(e)<>"
    case .dictionary(let e): return "\(e){}"
    }
  }

  // MARK: - Categories used by the checker

  var isNumeric: Bool {
    switch kind {
    case .int, .float, .double, .decimal128: return true
    default: return false
    }
  }
  var isMixed: Bool { if case .mixed = kind { return true } else { return false } }
  var isNull: Bool { if case .null = kind { return true } else { return false } }
  var isString: Bool { if case .string = kind { return true } else { return false } }
  var isBool: Bool { if case .bool = kind { return true } else { return false } }
  var isCollection: Bool { elementType != nil }
  var isList: Bool { if case .list = kind { return true } else { return false } }

  static let bool = ExpressionType(.bool)
  static let int = ExpressionType(.int)
  static let double = ExpressionType(.double)
  static let string = ExpressionType(.string)
  static let date = ExpressionType(.date)
  static let null = ExpressionType(.null)
  static let mixed = ExpressionType(.mixed)
}
