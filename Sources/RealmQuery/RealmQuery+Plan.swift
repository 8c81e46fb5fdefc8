import RealmFormat
import RealmModel

/// Running a query on a file: the plan (indexes or a scan), the matching objects, their keys
/// and their number.
extension RealmQuery {
  /// How this query finds its objects in `group`: the index lookups that narrow it (done
  /// here, so the plan knows how many objects it reads) or a scan of every object.
  ///
  /// A damaged index is not trusted: the plan scans instead and says why in
  /// ``QueryPlan/note``. With `useIndexes` false the plan always scans (to compare).
  public func plan(in group: Group, useIndexes: Bool = true) throws(QueryEvaluationError) -> QueryPlan {
    let (table, cls) = try tableAndSchema(in: group)
    let order = descriptorText.isEmpty ? "key order" : descriptorText.joined(separator: " ")
    guard useIndexes else {
      return QueryPlan(className: className, objectCount: table.objectCount, lookups: [], candidates: nil, order: order, note: nil)
    }
    let planner = QueryPlanner(group: group, table: table, objectSchema: cls, schema: schema)
    do {
      guard let found = try planner.lookup(predicate) else {
        return QueryPlan(className: className, objectCount: table.objectCount, lookups: [], candidates: nil, order: order, note: nil)
      }
      return QueryPlan(
        className: className, objectCount: table.objectCount, lookups: found.lookups, candidates: found.keys, order: order,
        note: nil)
    } catch {
      return QueryPlan(
        className: className, objectCount: table.objectCount, lookups: [], candidates: nil, order: order,
        note: "the search index could not be read (\(error.detail)); every object was read instead")
    }
  }

  /// Calls `body` with the key and values of every object matching the condition, in key
  /// order (SORT/DISTINCT/LIMIT are not applied: see ``objectKeys(in:plan:progress:)``).
  ///
  /// - Parameters:
  ///   - group: the file's group.
  ///   - plan: from ``plan(in:useIndexes:)``; nil plans here.
  ///   - columns: the properties `body` needs (positions in the values; nil for all); the
  ///     query's own are decoded as well, the others read as null.
  ///   - progress: counts the objects read; cancelling it stops the run with
  ///     `ProgressCancelled`.
  ///   - body: called with the key and values of each matching object.
  /// - Throws: `FormatError` for a damaged file (also an index naming an object that does
  ///   not exist), ``QueryEvaluationError`` or whatever `body` throws.
  public func forEachMatch(
    in group: Group, plan: QueryPlan? = nil, columns: Set<Int>? = nil, progress: ProgressCounter? = nil,
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    let plan = try plan ?? self.plan(in: group)
    let (table, _) = try tableAndSchema(in: group)
    try forEachMatchingObject(group, table, plan, columns: columns.map { $0.union(propertiesRead) }, progress: progress, body)
  }

  /// Calls `body` with the key of every object matching the condition, in key order
  /// (SORT/DISTINCT/LIMIT are not applied). A scan decodes no object, only the columns the
  /// condition reads.
  public func forEachMatchingKey(
    in group: Group, plan: QueryPlan? = nil, progress: ProgressCounter? = nil, _ body: (_ key: Int64) throws -> Void
  ) throws {
    let plan = try plan ?? self.plan(in: group)
    let (table, _) = try tableAndSchema(in: group)
    guard plan.candidates == nil else {
      return try forEachMatchingObject(group, table, plan, columns: propertiesRead, progress: progress) { key, _ in try body(key) }
    }
    try scannedKeys(group, table, progress: progress, body)
  }

  /// The number of objects Realm returns for this query (after SORT, DISTINCT and LIMIT),
  /// decoding only the properties the query reads.
  public func count(in group: Group, plan: QueryPlan? = nil, progress: ProgressCounter? = nil) throws -> Int {
    if hasDescriptors { return try objectKeys(in: group, plan: plan, progress: progress).count }
    if let constant = predicate as? ConstantPredicate, constant.value {
      return try tableAndSchema(in: group).0.objectCount
    }
    let plan = try plan ?? self.plan(in: group)
    let (table, _) = try tableAndSchema(in: group)
    if plan.candidates == nil { return try scannedCount(group, table, options: scanOptions, progress: progress) }
    var n = 0
    try forEachMatchingObject(group, table, plan, columns: propertiesRead, progress: progress) { _, _ in n += 1 }
    return n
  }

  /// The keys of the objects Realm returns for this query in `group`, in Realm's order (see
  /// ``objectKeys(in:)``), reading the objects `plan` says.
  public func objectKeys(in group: Group, plan: QueryPlan?, progress: ProgressCounter? = nil) throws -> [Int64] {
    let plan = try plan ?? self.plan(in: group)
    let (table, _) = try tableAndSchema(in: group)
    if plan.candidates == nil, let keys = try scannedObjectKeys(group, table, progress: progress) { return keys }
    let source = GroupQuerySource(group: group, schema: schema.schema)
    return try objectKeys(source: source, prefiltered: true) { body in
      try forEachMatchingObject(group, table, plan, columns: propertiesRead, progress: progress, body)
    }
  }

  /// The objects matching the condition, with the properties `columns` (nil: all): `plan`'s
  /// candidates read by key and tested, or a scan (``scannedObjects(_:_:columns:options:progress:_:)``):
  /// every object tested a batch at a time, column by column, on every core, the other
  /// properties decoded for the matches only.
  func forEachMatchingObject(
    _ group: Group, _ table: Table, _ plan: QueryPlan, columns: Set<Int>?, progress: ProgressCounter?,
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    guard let candidates = plan.candidates else {
      return try scannedObjects(group, table, columns: columns, options: scanOptions, progress: progress, body)
    }
    var ctx = QueryContext(source: GroupQuerySource(group: group, schema: schema.schema), schema: schema, reads: reads)
    var ticker = ProgressTicker(progress)
    defer { ticker.flush() }
    for key in candidates {
      try ticker.tickCheckingCancellation()
      guard let values = try group.object(in: table, key: key, columns: columns) else {
        throw FormatError.corrupt("the search index of class '\(className)' names object \(key), which does not exist")
      }
      if try predicate.matches(QueryObject(classIndex: classIndex, key: key, values: values), &ctx) { try body(key, values) }
    }
  }

  func tableAndSchema(in group: Group) throws(QueryEvaluationError) -> (Table, ObjectSchema) {
    guard let table = group.table(forClass: className), let cls = schema.schema.objectSchema(named: className) else {
      throw QueryEvaluationError.unsupported("the file has no class '\(className)'")
    }
    return (table, cls)
  }

  /// A descriptor as written, for plans.
  static func describe(_ d: QuerySyntax.Descriptor) -> String {
    switch d {
    case .sort(let items, _): return "SORT(" + items.map { "\($0.0.text) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ") + ")"
    case .distinct(let paths, _): return "DISTINCT(" + paths.map(\.text).joined(separator: ", ") + ")"
    case .limit(let n, _): return "LIMIT(\(n))"
    }
  }
}
