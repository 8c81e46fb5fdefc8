import Synchronization
import RealmFormat
import RealmModel

/// The objects of a file for queries: link targets by key, backlinks, primary keys.
///
/// Backlinks are found by scanning the linking class once (per linking property) and kept;
/// `@links.@count` scans every property that can link to the class once. Safe to share
/// between threads.
public final class GroupQuerySource: QueryObjectSource, Sendable {
  private let group: Group
  private let schema: Schema
  private struct Indexes {
    /// "Origin.property" -> target key -> origin keys.
    var backlinks: [String: [Int64: [Int64]]] = [:]
    /// Class -> object key -> number of incoming links.
    var counts: [String: [Int64: Int]] = [:]
    /// Class -> primary key value -> object key.
    var primaryKeys: [String: [PrimaryKey: Int64]] = [:]
  }
  private let indexes = Mutex(Indexes())

  /// A source over `group`, whose classes are described by `schema`.
  public init(group: Group, schema: Schema) {
    self.group = group
    self.schema = schema
  }

  public func values(ofClass className: String, key: Int64, properties: Set<Int>?) throws -> [RealmValue]? {
    guard let table = group.table(forClass: className) else { return nil }
    return try group.object(in: table, key: key, columns: properties)
  }

  public func backlinks(from originClass: String, property: String, to targetClass: String, key: Int64) throws -> [Int64] {
    let name = originClass + "." + property
    if let index = indexes.withLock({ $0.backlinks[name] }) { return index[key] ?? [] }
    guard let cls = schema.objectSchema(named: originClass), let pi = cls.properties.firstIndex(where: { $0.name == property }) else {
      return []
    }
    var index: [Int64: [Int64]] = [:]
    guard let table = group.table(forClass: originClass) else { return [] }
    try group.forEachObject(in: table, columns: [pi]) { originKey, values in
      guard pi < values.count else { return }
      Self.forEachLink(in: values[pi], deep: false) { link in
        if link.className == targetClass { index[link.key, default: []].append(originKey) }
      }
    }
    indexes.withLock { $0.backlinks[name] = index }
    return index[key] ?? []
  }

  public func backlinkCount(to className: String, key: Int64) throws -> Int {
    if let counts = indexes.withLock({ $0.counts[className] }) { return counts[key] ?? 0 }
    var counts: [Int64: Int] = [:]
    for cls in schema.classes {
      let columns = cls.properties.indices.filter {
        let p = cls.properties[$0]
        return (p.type == .object && p.objectType == className) || p.type == .mixed
      }
      guard !columns.isEmpty, let table = group.table(forClass: cls.name) else { continue }
      try group.forEachObject(in: table, columns: Set(columns)) { _, values in
        for c in columns where c < values.count {
          Self.forEachLink(in: values[c], deep: cls.properties[c].type == .mixed) { link in
            if link.className == className { counts[link.key, default: 0] += 1 }
          }
        }
      }
    }
    indexes.withLock { $0.counts[className] = counts }
    return counts[key] ?? 0
  }

  /// The keys from the column's full-text index (`FullTextIndex`); nil when the column has
  /// none, or when it cannot be read (a damaged index: the search then compares words).
  public func fullTextKeys(ofClass className: String, property: String, search: FullTextSearch) throws -> [Int64]? {
    guard let table = group.table(forClass: className), let column = table.column(named: property) else { return nil }
    do {
      return try Self.fullTextKeys(group, table, column, search)
    } catch is FormatError {
      return nil
    }
  }

  /// The keys `search` finds in the full-text index of `column` of `table`, nil when it has none.
  static func fullTextKeys(_ group: Group, _ table: Table, _ column: Column, _ search: FullTextSearch) throws -> [Int64]? {
    guard group.fileFormat >= 20, let index = FullTextIndex(column: column, in: group) else { return nil }
    return try index.keys(search) {
      var keys: [Int64] = []
      try group.forEachObject(in: table, columns: []) { key, _ in keys.append(key) }
      return keys
    }
  }

  public func objectKey(ofClass className: String, primaryKey value: RealmValue) throws -> Int64? {
    guard let pk = PrimaryKey(value) else { return nil }
    if let index = indexes.withLock({ $0.primaryKeys[className] }) { return index[pk] }
    guard let cls = schema.objectSchema(named: className), let name = cls.primaryKey,
      let pi = cls.properties.firstIndex(where: { $0.name == name })
    else { return nil }
    var index: [PrimaryKey: Int64] = [:]
    guard let table = group.table(forClass: className) else { return nil }
    try group.forEachObject(in: table, columns: [pi]) { key, values in
      if pi < values.count, let k = PrimaryKey(values[pi]) { index[k] = key }
    }
    indexes.withLock { $0.primaryKeys[className] = index }
    return index[pk]
  }

  /// Calls `body` for every link in a value: a link, the links of a list, set or dictionary,
  /// and (`deep`) links nested in collections inside `mixed` values.
  static func forEachLink(in value: RealmValue, deep: Bool, _ body: (ObjectLink) -> Void) {
    switch value {
    case .link(let l): body(l)
    case .embedded(let e): body(ObjectLink(className: e.className, key: e.key))
    case .list(let items), .set(let items):
      for item in items {
        switch item {
        case .list, .set, .dictionary: if deep { forEachLink(in: item, deep: true, body) }
        default: forEachLink(in: item, deep: false, body)
        }
      }
    case .dictionary(let entries):
      for e in entries {
        switch e.value {
        case .list, .set, .dictionary: if deep { forEachLink(in: e.value, deep: true, body) }
        default: forEachLink(in: e.value, deep: false, body)
        }
      }
    default: break
    }
  }

  /// A primary key value usable as a dictionary key.
  enum PrimaryKey: Hashable {
    case int(Int64), string(String), objectId(ObjectId), uuid(RealmUUID)
    init?(_ v: RealmValue) {
      switch v {
      case .int(let i): self = .int(i)
      case .string(let s): self = .string(s)
      case .objectId(let o): self = .objectId(o)
      case .uuid(let u): self = .uuid(u)
      default: return nil
      }
    }
  }
}
