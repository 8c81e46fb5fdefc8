import RealmFormat
import RealmModel

/// How a query finds its objects in one file: through search indexes or by reading every
/// object of the class, then in which order. Made by ``RealmQuery/plan(in:useIndexes:)``.
///
/// An index lookup gives *candidates* (the objects whose indexed values may match); every
/// candidate is still tested against the whole condition, so an index only ever narrows what
/// is read. Indexes are used for `==` and `IN` on a primary key or an indexed property of
/// type int, bool, string, date, ObjectId or UUID, for `BEGINSWITH` on an indexed string, for
/// an `AND` with such a side (the side with the fewest candidates narrows the rest) and for
/// an `OR` whose every side is such a condition.
public struct QueryPlan: Sendable, CustomStringConvertible {
  /// One index lookup of the plan.
  public struct IndexLookup: Sendable, Equatable {
    /// The indexed property.
    public var property: String
    /// True for the class's primary key.
    public var isPrimaryKey: Bool
    /// The condition looked up: `==`, `IN`, `BEGINSWITH` or `TEXT`.
    public var operation: String
    /// The objects the lookup found.
    public var candidates: Int
  }

  /// The class queried.
  public let className: String
  /// Objects in the class.
  public let objectCount: Int
  /// The index lookups whose candidates are read (empty for a scan).
  public let lookups: [IndexLookup]
  /// The candidates' keys, ascending; nil when every object is read.
  public let candidates: [Int64]?
  /// The order of the result: `key order`, or the query's SORT/DISTINCT/LIMIT.
  public let order: String
  /// Why an index that could have served was not used (damaged, too many candidates), or nil.
  public let note: String?

  /// Objects read and tested: the candidates, or every object.
  public var objectsRead: Int { candidates?.count ?? objectCount }
  /// True when the plan reads index candidates rather than every object.
  public var usesIndex: Bool { candidates != nil }

  /// The plan in a few lines, as `dump --explain` and the shell's `.explain` print it.
  public var description: String {
    var lines = ["class:   \(className) (\(objectCount) object\(objectCount == 1 ? "" : "s"))"]
    if lookups.isEmpty {
      lines.append("access:  scan of every object")
    } else {
      for (i, l) in lookups.enumerated() {
        let what = l.isPrimaryKey ? "primary key" : l.operation == "TEXT" ? "full-text index" : "index"
        lines.append(
          "\(i == 0 ? "access:  " : "         ")\(what) on '\(l.property)' (\(l.operation)): \(l.candidates) candidate\(l.candidates == 1 ? "" : "s")")
      }
    }
    if let note { lines.append("note:    \(note)") }
    lines.append("read:    \(objectsRead) object\(objectsRead == 1 ? "" : "s") tested against the whole condition")
    lines.append("order:   \(order)")
    return lines.joined(separator: "\n")
  }

  /// A short line for the shell: which index served a query.
  public var summary: String {
    guard !lookups.isEmpty else { return "scanned \(objectCount) object\(objectCount == 1 ? "" : "s")" }
    let names = lookups.map {
      "\($0.isPrimaryKey ? "primary key" : $0.operation == "TEXT" ? "full-text index" : "index") '\($0.property)' (\($0.operation))"
    }
    return "used \(names.joined(separator: " and ")): \(objectsRead) of \(objectCount) objects read"
  }
}

/// Finds the index lookups that can serve a query's condition (see ``QueryPlan``).
struct QueryPlanner {
  let group: Group
  let table: Table
  let objectSchema: ObjectSchema
  let schema: QuerySchema
  /// More candidates than this and the scan is cheaper (the keys are not collected).
  let candidateLimit: Int

  /// Candidates for `predicate`, or nil when no index serves it.
  struct Found {
    var keys: [Int64]
    var lookups: [QueryPlan.IndexLookup]
  }

  init(group: Group, table: Table, objectSchema: ObjectSchema, schema: QuerySchema) {
    self.group = group
    self.table = table
    self.objectSchema = objectSchema
    self.schema = schema
    candidateLimit = max(4096, table.objectCount / 4)
  }

  /// The index this file has for property `property` of the class, nil when none can be used.
  func index(_ property: Int) -> SearchIndex? {
    index(property, of: objectSchema, table)
  }

  /// The index of property `property` of `cls` (whose table is `table`).
  func index(_ property: Int, of cls: ObjectSchema, _ table: Table) -> SearchIndex? {
    // Formats 2-11 store indexes of another shape (or none); tables of formats 2-9 have no
    // cluster columns at all.
    guard group.fileFormat >= 20, property < cls.properties.count, cls.properties[property].collection == .single else {
      return nil
    }
    let columns = table.publicColumns
    guard columns.count == cls.properties.count, columns[property].name == cls.properties[property].name else {
      return nil
    }
    return SearchIndex(column: columns[property], in: group)
  }

  /// `link.property == constant` through one single link whose target's property has an
  /// index (a primary key, typically): the targets from the index, then the objects linking
  /// to them from the targets' backlink column (Realm's own way for such a query).
  func linkLookup(_ p: ComparePredicate) throws(FormatError) -> Found? {
    guard p.condition == .equal, let property = p.left as? PropertyExpression, property.path == nil,
      property.chain.steps.count == 1, case .forward(let linkProperty, let targetClass, .single, nil) = property.chain.steps[0],
      let constant = p.right as? ConstantExpression, constant.values.count == 1, !constant.fromList,
      let kind = ValueKind(property.type), Self.indexable(kind), let data = Self.indexData(constant.values[0]),
      linkProperty < table.publicColumns.count, let backlinkKey = table.publicColumns[linkProperty].oppositeColumnKey
    else { return nil }
    let targetName = schema.classes[targetClass].name
    guard let targetTable = group.table(forClass: targetName), let targetSchema = schema.schema.objectSchema(named: targetName),
      let backlinks = targetTable.column(key: backlinkKey), backlinks.isBacklink,
      let index = index(property.property, of: targetSchema, targetTable),
      let targets = try index.candidates(equalTo: data, limit: candidateLimit)
    else { return nil }
    var origins: [Int64] = []
    for key in targets {
      guard let found = try group.backlinkOrigins(in: targetTable, key: key, column: backlinks) else {
        throw FormatError.corrupt("the search index of class '\(targetName)' names object \(key), which does not exist")
      }
      origins += found
      guard origins.count <= candidateLimit else { return nil }
    }
    let keys = Self.sortedUnique(origins)
    let name = objectSchema.properties[linkProperty].name + "." + targetSchema.properties[property.property].name
    let lookup = QueryPlan.IndexLookup(
      property: name, isPrimaryKey: targetSchema.primaryKey == targetSchema.properties[property.property].name,
      operation: "== through a link", candidates: keys.count)
    return Found(keys: keys, lookups: [lookup])
  }

  func lookup(_ predicate: any QueryPredicate) throws(FormatError) -> Found? {
    switch predicate {
    case let p as ColumnPredicate:
      guard Self.indexable(p.kind), let index = index(p.property), let data = Self.indexData(p.constant) else { return nil }
      let keys: [Int64]?
      let operation: String
      switch p.condition {
      case .equal:
        keys = try index.candidates(equalTo: data, limit: candidateLimit)
        operation = "=="
      case .beginsWith where p.kind == .string:
        keys = try index.candidates(withPrefix: data, limit: candidateLimit)
        operation = "BEGINSWITH"
      default: return nil
      }
      guard let keys else { return nil }
      return Found(keys: keys, lookups: [lookupInfo(p.property, operation, keys.count)])
    case let p as InListPredicate:
      guard Self.indexable(p.kind), !p.matchesNull, let index = index(p.property) else { return nil }
      var all: [Int64] = []
      for needle in p.needles {
        guard let data = Self.indexData(needle),
          let keys = try index.candidates(equalTo: data, limit: candidateLimit - all.count)
        else { return nil }
        all += keys
      }
      let keys = Self.sortedUnique(all)
      return Found(keys: keys, lookups: [lookupInfo(p.property, "IN", keys.count)])
    case let p as ComparePredicate:
      return try linkLookup(p)
    case let p as TextPredicate where p.chain.isEmpty:
      // Realm answers TEXT from the index alone: its keys are the answer.
      let columns = table.publicColumns
      guard p.property < columns.count, columns.count == objectSchema.properties.count,
        columns[p.property].name == objectSchema.properties[p.property].name
      else { return nil }
      let found: [Int64]?
      do {
        found = try GroupQuerySource.fullTextKeys(group, table, columns[p.property], p.search)
      } catch let error as FormatError {
        throw error
      } catch {
        return nil
      }
      guard let keys = found, keys.count <= candidateLimit else { return nil }
      return Found(keys: keys, lookups: [lookupInfo(p.property, "TEXT", keys.count)])
    case let p as AndPredicate:
      var best: Found?
      for child in p.children {
        guard let found = try lookup(child) else { continue }
        if best == nil || found.keys.count < best!.keys.count { best = found }
      }
      return best
    case let p as OrPredicate:
      var all: [Int64] = []
      var lookups: [QueryPlan.IndexLookup] = []
      for child in p.children {
        guard let found = try lookup(child) else { return nil }
        all += found.keys
        lookups += found.lookups
        guard all.count <= candidateLimit else { return nil }
      }
      return Found(keys: Self.sortedUnique(all), lookups: lookups)
    default:
      return nil
    }
  }

  private func lookupInfo(_ property: Int, _ operation: String, _ count: Int) -> QueryPlan.IndexLookup {
    let name = objectSchema.properties[property].name
    return QueryPlan.IndexLookup(
      property: name, isPrimaryKey: objectSchema.primaryKey == name, operation: operation, candidates: count)
  }

  static func indexable(_ kind: ValueKind) -> Bool {
    switch kind {
    case .int, .bool, .string, .timestamp, .objectId, .uuid: return true
    default: return false
    }
  }

  /// A constant as the index stores it.
  static func indexData(_ value: QueryValue) -> [UInt8]? {
    switch value {
    case .int(let i): return SearchIndex.indexData(.int(i))
    case .bool(let b): return SearchIndex.indexData(.bool(b))
    case .string(let s): return SearchIndex.indexData(.string(s))
    case .timestamp(let t): return SearchIndex.indexData(.date(t))
    case .objectId(let o): return SearchIndex.indexData(.objectId(o))
    case .uuid(let u): return SearchIndex.indexData(.uuid(u))
    default: return nil
    }
  }

  static func sortedUnique(_ keys: [Int64]) -> [Int64] {
    var sorted = keys
    sorted.sort()
    var out: [Int64] = []
    out.reserveCapacity(sorted.count)
    for k in sorted where out.last != k { out.append(k) }
    return out
  }
}
