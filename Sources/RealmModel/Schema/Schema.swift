/// The type of a property's values (Realm JS vocabulary, as in `schema --format json`).
public enum PropertyType: String, Sendable, Hashable, CaseIterable {
  case bool, int, float, double, decimal128, objectId, uuid, string, data, date, mixed
  /// A link to another class (`objectType` names it).
  case object
}

/// Whether a property holds one value or a collection of them.
public enum CollectionKind: String, Sendable, Hashable {
  case single, list, set, dictionary
}

/// One persisted property of a class.
public struct Property: Sendable, Hashable {
  /// Property name.
  public var name: String
  /// Element type (for collections) or value type.
  public var type: PropertyType
  /// Single value or collection kind.
  public var collection: CollectionKind
  /// Target class of a link (`type == .object`), nil otherwise.
  public var objectType: String?
  /// Whether the value (or, for a collection, each element) may be null.
  public var isOptional: Bool
  /// Whether a search index exists (true for primary keys in format >= 22). A full-text index
  /// is not one: see ``isFullTextIndexed``.
  public var isIndexed: Bool
  /// Whether a full-text index exists (a string property; Realm Core 13 and later, file format
  /// 23): its entries are the words of the values, for `TEXT` queries. A property has a search
  /// index or a full-text index, never both (Realm Core's `is_fulltext_indexed`).
  public var isFullTextIndexed: Bool

  /// Creates a property.
  public init(
    name: String, type: PropertyType, collection: CollectionKind = .single,
    objectType: String? = nil, isOptional: Bool = false, isIndexed: Bool = false, isFullTextIndexed: Bool = false
  ) {
    self.name = name
    self.type = type
    self.collection = collection
    self.objectType = objectType
    self.isOptional = isOptional
    self.isIndexed = isIndexed
    self.isFullTextIndexed = isFullTextIndexed
  }

  /// The kind of index the property has.
  public var indexKind: IndexKind {
    get { isFullTextIndexed ? .fullText : isIndexed ? .general : .none }
    set {
      isIndexed = newValue == .general
      isFullTextIndexed = newValue == .fullText
    }
  }
}

/// The kind of index on a property (Realm Core's `IndexType`).
public enum IndexKind: String, Sendable, Hashable, CaseIterable {
  /// No index.
  case none
  /// A search index of the values (`==`, `IN`, `BEGINSWITH` lookups; every primary key).
  case general
  /// A full-text index of the words of a string property (`TEXT` queries).
  case fullText = "full-text"
}

/// One class: a `class_` table in the file.
public struct ObjectSchema: Sendable, Hashable {
  /// Class name without the `class_` prefix.
  public var name: String
  /// True for embedded classes.
  public var isEmbedded: Bool
  /// Name of the primary key property, if any.
  public var primaryKey: String?
  /// Persisted properties in column order (no backlinks).
  public var properties: [Property]

  /// Creates a class schema.
  public init(name: String, isEmbedded: Bool = false, primaryKey: String? = nil, properties: [Property]) {
    self.name = name
    self.isEmbedded = isEmbedded
    self.primaryKey = primaryKey
    self.properties = properties
  }

  /// The property called `name`.
  public func property(named name: String) -> Property? {
    properties.first { $0.name == name }
  }
}

/// A file's object schema.
public struct Schema: Sendable, Hashable {
  /// The schema version from the `metadata` table, nil when unversioned.
  public var schemaVersion: Int64?
  /// The file format version.
  public var fileFormat: Int
  /// Classes in ascending byte order of their names.
  public var classes: [ObjectSchema]

  /// Creates a schema.
  public init(schemaVersion: Int64?, fileFormat: Int, classes: [ObjectSchema]) {
    self.schemaVersion = schemaVersion
    self.fileFormat = fileFormat
    self.classes = classes
  }

  /// The class called `name`.
  public func objectSchema(named name: String) -> ObjectSchema? {
    classes.first { $0.name == name }
  }
}
