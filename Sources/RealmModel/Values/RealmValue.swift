/// One value of a Realm property, as read from or written to a file.
///
/// Scalars map one-to-one to Realm's types. Links name their target class; embedded
/// objects are carried inline with their properties, as the dump format shows them.
public enum RealmValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int64)
  case float(Float)
  case double(Double)
  case decimal128(Decimal128)
  case objectId(ObjectId)
  case uuid(RealmUUID)
  case string(String)
  case data([UInt8])
  case date(Timestamp)
  /// A link to an object of a top-level class.
  case link(ObjectLink)
  /// An embedded object, inline.
  case embedded(EmbeddedObject)
  /// A list (also a nested list inside a mixed value).
  case list([RealmValue])
  /// A set, in stored order.
  case set([RealmValue])
  /// A dictionary, in stored (key) order.
  case dictionary([DictionaryEntry])

  /// True for `.null`.
  @inlinable public var isNull: Bool { if case .null = self { return true } else { return false } }
}

/// A link: the target class (without the `class_` prefix) and the object key.
public struct ObjectLink: Sendable, Hashable {
  /// Target class name.
  public var className: String
  /// Target object key.
  public var key: Int64
  /// Creates a link.
  public init(className: String, key: Int64) {
    self.className = className
    self.key = key
  }
}

/// An embedded object's class and its properties in column order.
public struct EmbeddedObject: Sendable, Equatable {
  /// Class name.
  public var className: String
  /// The object's key in its table (not part of the dump).
  public var key: Int64
  /// Properties in column order.
  public var properties: [NamedValue]
  /// Creates an embedded object.
  public init(className: String, key: Int64, properties: [NamedValue]) {
    self.className = className
    self.key = key
    self.properties = properties
  }
}

/// A property name with its value.
public struct NamedValue: Sendable, Equatable {
  /// Property name.
  public var name: String
  /// Value.
  public var value: RealmValue
  /// Creates a pair.
  public init(_ name: String, _ value: RealmValue) {
    self.name = name
    self.value = value
  }
}

/// One dictionary entry.
public struct DictionaryEntry: Sendable, Equatable {
  /// The key (Realm dictionaries keyed by int show the number as a string).
  public var key: String
  /// The value.
  public var value: RealmValue
  /// Creates an entry.
  public init(_ key: String, _ value: RealmValue) {
    self.key = key
    self.value = value
  }
}
