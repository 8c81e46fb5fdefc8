import RealmFormat
import RealmModel

/// A Realm Query Language query compiled for one class: the same text Realm's own parser
/// accepts, selecting the same objects in the same order.
///
/// ```swift
/// let query = try RealmQuery("age > 30 SORT(age DESC) LIMIT(3)", className: "Person", schema: schema)
/// let keys = try query.objectKeys(in: group)        // Realm's result, in Realm's order
/// let ok = try query.matches(values, key: 7, source: GroupQuerySource(group: group))
/// ```
///
/// Compiling checks the text against the schema (unknown properties, type mismatches,
/// malformed literals) and throws ``QueryError`` with the 1-based column of the fault.
/// A compiled query is immutable and `Sendable`; every evaluation takes its own context.
public struct RealmQuery: Sendable {
  /// The query text.
  public let text: String
  /// The class queried (top-level or embedded).
  public let className: String
  let schema: QuerySchema
  let classIndex: Int
  let predicate: any QueryPredicate
  let descriptors: [BoundDescriptor]
  /// Properties of the queried class the predicate and descriptors read (positions in the
  /// class's properties); the others need not be decoded.
  public var propertiesRead: Set<Int> { reads[classIndex] ?? [] }
  /// The properties read per class.
  let reads: [Int: Set<Int>]
  /// SORT/DISTINCT/LIMIT as written (for plans), empty without descriptors.
  let descriptorText: [String]
  /// How scans run (tests compare the fast paths with the generic ones).
  var scanOptions = ScanOptions.standard

  /// True when the query has `SORT`, `DISTINCT` or `LIMIT`: its result depends on the whole
  /// class, not only on each object.
  public var hasDescriptors: Bool { !descriptors.isEmpty }

  /// Compiles `text` for the class `className` of `schema`. With `group`, `obj('Class', key)`
  /// and typed-link literals (`L1:2`) are resolved in that file.
  public init(_ text: String, className: String, schema: Schema, group: Group? = nil) throws(QueryError) {
    let columns = ColumnMap(source: text)
    let qs = QuerySchema(schema)
    guard let ci = qs.classIndex(className) else {
      let hint = Suggestion.hint(for: className, among: schema.classes.map(\.name))
      throw QueryError(column: 1, message: "the schema has no class '\(className)'\(hint)")
    }
    var lookup: QueryConstants.Lookup?
    if let group {
      let source = GroupQuerySource(group: group, schema: schema)
      lookup = QueryConstants.Lookup(
        classOfTableKey: { key in group.table(key: key)?.className },
        objectKey: { cls, value in try source.objectKey(ofClass: cls, primaryKey: value) })
    }
    do {
      let syntax = try QueryParser.parse(text)
      var binder = QueryBinder(schema: qs, base: ci, source: text, lookup: lookup)
      predicate = try binder.bind(syntax.predicate)
      descriptors = try binder.bindDescriptors(syntax.descriptors)
      descriptorText = syntax.descriptors.map(Self.describe)
      reads = binder.reads.byClass
    } catch {
      throw QueryError(column: columns.column(of: error.position), message: error.message)
    }
    self.text = text
    self.className = className
    self.schema = qs
    classIndex = ci
  }

  /// True when the object with these values (the class's properties in schema order) and
  /// key matches the condition. SORT/DISTINCT/LIMIT are not applied here. `source` follows
  /// links and backlinks; without one, such queries throw ``QueryEvaluationError``.
  public func matches(values: [RealmValue], key: Int64, source: (any QueryObjectSource)?) throws -> Bool {
    var ctx = QueryContext(source: source, schema: schema, reads: reads)
    return try predicate.matches(QueryObject(classIndex: classIndex, key: key, values: values), &ctx)
  }

  /// A reusable evaluator for many objects (keeps its cache of linked objects).
  public func evaluator(source: (any QueryObjectSource)?) -> Evaluator {
    Evaluator(query: self, context: QueryContext(source: source, schema: schema, reads: reads))
  }

  /// Evaluates one query on many objects.
  public struct Evaluator {
    let query: RealmQuery
    var context: QueryContext

    /// True when the object matches the condition.
    public mutating func matches(values: [RealmValue], key: Int64) throws -> Bool {
      try query.predicate.matches(QueryObject(classIndex: query.classIndex, key: key, values: values), &context)
    }
  }

  /// The keys of the objects Realm returns for this query in `group`, in Realm's order: the
  /// matching objects in key order, then each SORT (stable), DISTINCT (keeps the first of
  /// each value) and LIMIT in the order written. Uses the file's search indexes where they
  /// narrow the condition (``plan(in:useIndexes:)``).
  public func objectKeys(in group: Group) throws -> [Int64] {
    try objectKeys(in: group, plan: nil)
  }

  /// The keys of the matching objects among those `scan` passes (in key order), after the
  /// descriptors.
  public func objectKeys(
    source: (any QueryObjectSource)?,
    scan: (_ body: (Int64, [RealmValue]) throws -> Void) throws -> Void
  ) throws -> [Int64] {
    try objectKeys(source: source, prefiltered: false, scan: scan)
  }

  /// ``objectKeys(source:scan:)``; with `prefiltered`, `scan` passes only matching objects.
  func objectKeys(
    source: (any QueryObjectSource)?, prefiltered: Bool,
    scan: (_ body: (Int64, [RealmValue]) throws -> Void) throws -> Void
  ) throws -> [Int64] {
    var ctx = QueryContext(source: source, schema: schema, reads: reads)
    let (columns, offsets) = DescriptorExecution.columns(descriptors)
    var stopAfter = Int.max
    if case .limit(let n)? = descriptors.first { stopAfter = n }
    var rows: [DescriptorRow] = []
    struct Enough: Error {}
    if stopAfter == 0 { return [] }
    // SORT then LIMIT(k): only the first k in the sort order are kept while scanning.
    var top: TopRows?
    if descriptors.count >= 2, case .sort(let sort) = descriptors[0], case .limit(let k) = descriptors[1],
      k <= TopRows.maxCount
    {
      top = TopRows(capacity: k, ascending: sort.map(\.ascending))
    }
    var matched = 0
    do {
      try scan { key, values in
        let object = QueryObject(classIndex: classIndex, key: key, values: values)
        guard try prefiltered || predicate.matches(object, &ctx) else { return }
        var row = DescriptorRow(key: key, index: matched, values: [])
        matched += 1
        for c in columns { row.values.append(try c.value(object, &ctx)) }
        if top != nil {
          top!.insert(row)
          return
        }
        rows.append(row)
        if rows.count >= stopAfter { throw Enough() }
      }
    } catch is Enough {}
    if let top { rows = top.rows }
    if descriptors.isEmpty { return rows.map(\.key) }
    return DescriptorExecution.apply(descriptors, to: rows, offsets: offsets)
  }
}

