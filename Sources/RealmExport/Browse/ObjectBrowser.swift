import RealmFormat
import RealmModel
import RealmQuery
import RealmStorage

/// Reading a Realm file a page at a time, as a browser shows it (`realmctl studio`): pages of
/// a class by key ranges or positions, pages of a query's result, one object with the objects
/// that link to it, counts. Nothing here reads a whole class to show part of it.
///
/// ```swift
/// let browser = try ObjectBrowser(file: RealmInput.openForSession("app.realm"))
/// let first = try browser.objects(of: "Person", from: .position(0), limit: 100)
/// let next = try browser.objects(of: "Person", from: .afterKey(first.objects.last!.key), limit: 100)
/// ```
///
/// A failure of the file is a `StorageError` that names it, as every command reports it.
public struct ObjectBrowser: Sendable {
  /// Where a page starts.
  public enum Start: Sendable, Equatable {
    /// After the object with this key (the first page: after -1).
    case afterKey(Int64)
    /// At this position in key order (0: the first object).
    case position(Int)
  }

  /// One object of a page.
  public struct Object: Sendable, Equatable {
    /// The object key.
    public var key: Int64
    /// The property values, in the class's property order.
    public var values: [RealmValue]
    /// Creates an object of a page.
    public init(key: Int64, values: [RealmValue]) {
      self.key = key
      self.values = values
    }
  }

  /// The objects of a page, and whether more follow.
  public struct Page: Sendable, Equatable {
    /// The objects, in the page's order.
    public var objects: [Object]
    /// True when at least one more object follows the last one.
    public var hasMore: Bool
  }

  /// The objects of one class that link to an object through one property.
  public struct Backlinks: Sendable, Equatable {
    /// The linking class.
    public var className: String
    /// Its property that links here (a link, a list, set or dictionary of links, or a mixed).
    public var property: String
    /// The keys of the linking objects, once per link, as stored.
    public var keys: [Int64]
  }

  /// The open file.
  public let file: RealmFile
  /// Its schema.
  public let schema: Schema

  /// A browser of `file` (open it with `RealmInput.openForSession`: each page then has a read
  /// budget of its own).
  ///
  /// - Throws: `StorageError` when the schema cannot be read.
  public init(file: RealmFile) throws {
    self.file = file
    schema = try RealmInput.schema(of: file)
  }

  /// The number of objects of `className`, as the file records it.
  public func objectCount(of className: String) throws -> Int {
    try table(className).objectCount
  }

  /// Up to `limit` objects of `className` from `start` on, in key order, read without reading
  /// the objects before them (one path down the class's tree).
  public func objects(of className: String, from start: Start, limit: Int) throws -> Page {
    let table = try table(className)
    let seek: ObjectSeek
    switch start {
    case .afterKey(let key): seek = .afterKey(key)
    case .position(let p): seek = .position(p)
    }
    return try page(limit: limit) { visit in try file.group.forEachObject(in: table, from: seek, visit) }
  }

  /// The first `limit` objects `walk` hands to its visitor (which stops the walk once it has
  /// them and seen one more), read with the file's read budget.
  private func page(
    limit: Int, _ walk: (_ visit: (_ key: Int64, _ values: [RealmValue]) throws -> Bool) throws -> Void
  ) throws -> Page {
    var objects: [Object] = []
    var hasMore = false
    try RealmInput.reading(file.path) {
      try walk { key, values in
        if objects.count >= limit {
          hasMore = true
          return false
        }
        objects.append(Object(key: key, values: values))
        return true
      }
    }
    return Page(objects: objects, hasMore: hasMore)
  }

  /// Compiles a Realm Query Language query on `className`'s objects, resolving `obj(...)`
  /// literals in this file.
  ///
  /// - Throws: `QueryError` with the 1-based column of the fault.
  public func query(_ text: String, on className: String) throws(QueryError) -> RealmQuery {
    try RealmQuery(text, className: className, schema: schema, group: file.group)
  }

  /// Up to `limit` objects matching `query` whose key is greater than `key` (nil: from the
  /// first), in key order; SORT, DISTINCT and LIMIT are not applied (see ``keys(of:)``). A
  /// page reads the objects up to its last match and a few leaves more, not the whole class.
  public func objects(matching query: RealmQuery, after key: Int64?, limit: Int) throws -> Page {
    try page(limit: limit) { visit in try query.forEachMatch(in: file.group, after: key, visit) }
  }

  /// The number of objects `query` returns (after SORT, DISTINCT and LIMIT).
  public func count(_ query: RealmQuery) throws -> Int {
    try RealmInput.reading(file.path) { try query.count(in: file.group) }
  }

  /// The number of objects matching `query`'s condition and the keys of every `stride`-th of
  /// them (see `RealmQuery.positionMarkers`): the match at position p is then the
  /// `p % stride`-th match after the marker before it.
  public func positionMarkers(_ query: RealmQuery, stride: Int) throws -> (count: Int, keys: [Int64]) {
    try RealmInput.reading(file.path) { try query.positionMarkers(in: file.group, stride: stride) }
  }

  /// The keys of the objects `query` returns, in its order (with SORT, DISTINCT and LIMIT as
  /// Realm applies them).
  public func keys(of query: RealmQuery) throws -> [Int64] {
    try RealmInput.reading(file.path) { try query.objectKeys(in: file.group) }
  }

  /// The objects of `className` with `keys`, in that order (keys without an object are left
  /// out).
  public func objects(of className: String, keys: [Int64]) throws -> [Object] {
    let table = try table(className)
    var out: [Object] = []
    try RealmInput.reading(file.path) {
      for key in keys {
        if let values = try file.group.object(in: table, key: key) { out.append(Object(key: key, values: values)) }
      }
    }
    return out
  }

  /// The values of object `key` of `className`, nil when there is none.
  public func object(of className: String, key: Int64) throws -> [RealmValue]? {
    let table = try table(className)
    return try RealmInput.reading(file) { () throws(FormatError) in try file.group.object(in: table, key: key) }
  }

  /// The objects that link to object `key` of `className` ("linking objects"), per linking
  /// class and property, in the order of the file's backlink columns. Empty for a file of
  /// formats 2 to 9, whose tables keep no backlinks Realm reads this way.
  public func backlinks(to className: String, key: Int64) throws -> [Backlinks] {
    let table = try table(className)
    var out: [Backlinks] = []
    try RealmInput.reading(file.path) {
      guard !table.isLegacyLayout else { return }
      for column in table.columns where column.isBacklink {
        guard let originKey = column.oppositeTableKey, let origin = file.group.table(key: originKey),
          let originColumn = column.oppositeColumnKey.flatMap(origin.column(key:))
        else { continue }
        let keys = try file.group.backlinkOrigins(in: table, key: key, column: column) ?? []
        guard !keys.isEmpty else { continue }
        out.append(Backlinks(className: origin.linkName, property: originColumn.name, keys: keys))
      }
    }
    return out
  }

  /// The table of a class of the schema.
  private func table(_ className: String) throws -> Table {
    guard schema.objectSchema(named: className) != nil else {
      throw RealmInput.unknownClass(className, among: schema.classes.map(\.name), path: file.path)
    }
    guard let table = file.group.table(forClass: className) else {
      throw StorageError.from(FormatError.corrupt("class '\(className)' has no table"), path: file.path)
    }
    return table
  }
}
