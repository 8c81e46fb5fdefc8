import RealmModel

/// What a query needs to know of the classes: their properties and how links connect them.
struct QueryClass: Sendable {
  var name: String
  var isEmbedded: Bool
  var primaryKey: String?
  var properties: [Property]

  func propertyIndex(_ name: String) -> Int? { properties.firstIndex { $0.name == name } }
}

/// The schema a query is bound against.
struct QuerySchema: Sendable {
  var schema: Schema
  var classes: [QueryClass]
  private var byName: [String: Int]

  init(_ schema: Schema) {
    self.schema = schema
    classes = schema.classes.map {
      QueryClass(name: $0.name, isEmbedded: $0.isEmbedded, primaryKey: $0.primaryKey, properties: $0.properties)
    }
    var map: [String: Int] = [:]
    for (i, c) in classes.enumerated() where map[c.name] == nil { map[c.name] = i }
    byName = map
  }

  func classIndex(_ name: String) -> Int? { byName[name] }

  /// Every property (class index, property index) that can hold a link to `className`:
  /// link properties targeting it and every `mixed` property (whose values may be links).
  func incomingLinks(to className: String) -> [(Int, Int)] {
    var out: [(Int, Int)] = []
    for (ci, c) in classes.enumerated() {
      for (pi, p) in c.properties.enumerated() {
        if p.type == .object, p.objectType == className { out.append((ci, pi)) }
        if p.type == .mixed { out.append((ci, pi)) }
      }
    }
    return out
  }
}

/// The properties a query reads, per class (so that only those columns are decoded).
final class PropertyReads {
  private(set) var byClass: [Int: Set<Int>] = [:]
  func add(_ classIndex: Int, _ property: Int) { byClass[classIndex, default: []].insert(property) }
  /// A name read from a `mixed` value that may hold a link to any class.
  func addAnywhere(_ name: String, _ schema: QuerySchema) {
    for (ci, c) in schema.classes.enumerated() {
      if let pi = c.propertyIndex(name) { add(ci, pi) }
    }
  }
}

/// The object being evaluated, or one reached through links.
struct QueryObject: Sendable {
  /// Index of its class in the ``QuerySchema``.
  var classIndex: Int
  var key: Int64
  /// Property values in the class's property order (properties the query does not read may
  /// be null when the caller decoded only some columns).
  var values: [RealmValue]
}

/// Reads the objects a query reaches beyond the one it evaluates: link targets, the objects
/// that link to an object (backlinks), objects found by primary key.
///
/// ``GroupQuerySource`` implements it over a file. All methods may be called many times per
/// object: implementations cache what they compute (backlinks are found by one scan of the
/// linking class, done once).
public protocol QueryObjectSource: AnyObject {
  /// The property values of object `key` of `className` (top-level or embedded), nil when it
  /// does not exist.
  /// With `properties`, only those need to be read (the others may be null).
  func values(ofClass className: String, key: Int64, properties: Set<Int>?) throws -> [RealmValue]?
  /// The keys of the objects of `originClass` whose property `property` links to object `key`
  /// of `targetClass`, once per link (a list holding the same link twice gives it twice), in
  /// ascending key order.
  func backlinks(from originClass: String, property: String, to targetClass: String, key: Int64) throws -> [Int64]
  /// The number of links to object `key` of `className` from every property of every class
  /// (also links held by `mixed` values, also nested in their collections).
  func backlinkCount(to className: String, key: Int64) throws -> Int
  /// The key of the object of `className` whose primary key is `value`, nil when none.
  func objectKey(ofClass className: String, primaryKey value: RealmValue) throws -> Int64?
}

/// What one evaluation sees: the source of other objects, with a small cache of the objects
/// reached through links.
struct QueryContext {
  let source: (any QueryObjectSource)?
  let schema: QuerySchema
  /// The properties read per class, nil when unknown (every property is decoded).
  let reads: [Int: Set<Int>]?
  private var cache: [ObjectLink: [RealmValue]] = [:]

  init(source: (any QueryObjectSource)?, schema: QuerySchema, reads: [Int: Set<Int>]? = nil) {
    self.source = source
    self.schema = schema
    self.reads = reads
  }

  /// The object `key` of the class at `classIndex`, nil when it does not exist.
  mutating func object(classIndex: Int, key: Int64) throws -> QueryObject? {
    let name = schema.classes[classIndex].name
    let link = ObjectLink(className: name, key: key)
    if let v = cache[link] { return QueryObject(classIndex: classIndex, key: key, values: v) }
    guard let source else { throw QueryEvaluationError.noSource("following a link to \(name) \(key)") }
    let properties = reads.map { $0[classIndex] ?? [] }
    guard let v = try source.values(ofClass: name, key: key, properties: properties) else { return nil }
    if cache.count > 4096 { cache.removeAll(keepingCapacity: true) }
    cache[link] = v
    return QueryObject(classIndex: classIndex, key: key, values: v)
  }

  func backlinks(from origin: Int, property: Int, to target: Int, key: Int64) throws -> [Int64] {
    guard let source else { throw QueryEvaluationError.noSource("reading backlinks") }
    let o = schema.classes[origin]
    return try source.backlinks(
      from: o.name, property: o.properties[property].name, to: schema.classes[target].name, key: key)
  }

  func backlinkCount(classIndex: Int, key: Int64) throws -> Int {
    guard let source else { throw QueryEvaluationError.noSource("counting backlinks") }
    return try source.backlinkCount(to: schema.classes[classIndex].name, key: key)
  }
}

/// A failure while a query runs (not a fault of the query text).
public enum QueryEvaluationError: Error, Sendable, CustomStringConvertible {
  /// The query follows links or backlinks but was run without a ``QueryObjectSource``.
  case noSource(String)
  /// An operation Realm refuses while running a query.
  case unsupported(String)

  public var description: String {
    switch self {
    case .noSource(let what): return "\(what) needs the file's objects, but the query was run without them"
    case .unsupported(let message): return message
    }
  }
}
