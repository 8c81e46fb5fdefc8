import RealmFormat
import RealmModel

/// Pages of a query's result: the matching objects after a key, read until the caller has
/// enough, and markers to find the n-th match without reading the matches before it.
extension RealmQuery {
  /// Calls `body` with the key and values of each object matching the condition whose key is
  /// greater than `key` (every matching object when nil), in key order, until `body` returns
  /// false. SORT, DISTINCT and LIMIT are not applied.
  ///
  /// A scan starts at the cluster leaf holding `key` (the leaves before it are not opened) and
  /// stops soon after `body` says so: a page of a sparse result costs the objects up to its
  /// last match, not the whole class. Index candidates are read by key, those after `key` only.
  ///
  /// - Parameters:
  ///   - group: the file's group.
  ///   - key: the key the page starts after; nil for the first page.
  ///   - plan: from ``plan(in:useIndexes:)``; nil plans here.
  ///   - columns: the properties `body` needs (nil: all); the query's own are decoded too.
  ///   - body: called with each matching object; returns false to stop.
  /// - Throws: `FormatError` for a damaged file, ``QueryEvaluationError``, or whatever `body`
  ///   throws.
  public func forEachMatch(
    in group: Group, after key: Int64?, plan: QueryPlan? = nil, columns: Set<Int>? = nil,
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Bool
  ) throws {
    struct Enough: Error {}
    let plan = try plan ?? self.plan(in: group)
    let (table, _) = try tableAndSchema(in: group)
    let needed = columns.map { $0.union(propertiesRead) }
    if var candidates = plan.candidates {
      if let key { candidates.removeAll { $0 <= key } }
      candidates.sort()
      let narrowed = plan.withCandidates(candidates)
      do {
        try forEachMatchingObject(group, table, narrowed, columns: needed, progress: nil) { k, values in
          if try !body(k, values) { throw Enough() }
        }
      } catch is Enough {}
      return
    }
    var options = scanOptions
    options.startAfterKey = key
    do {
      try scannedObjects(group, table, columns: needed, options: options, progress: nil) { k, values in
        if try !body(k, values) { throw Enough() }
      }
    } catch is Enough {}
  }

  /// The number of objects matching the condition and the key of every `stride`-th of them
  /// (the matches at positions 0, `stride`, 2 × `stride`, ... in key order), in one pass that
  /// decodes no object: with them, the match at any position is found by reading at most
  /// `stride` matches (``forEachMatch(in:after:plan:columns:_:)`` after the marker before it).
  /// SORT, DISTINCT and LIMIT are not applied.
  ///
  /// - Parameters:
  ///   - group: the file's group.
  ///   - stride: the distance between two markers (at least 1).
  ///   - plan: from ``plan(in:useIndexes:)``; nil plans here.
  ///   - progress: counts the objects read; cancelling it stops the pass.
  /// - Returns: the count, and `(count + stride - 1) / stride` keys.
  public func positionMarkers(
    in group: Group, stride: Int, plan: QueryPlan? = nil, progress: ProgressCounter? = nil
  ) throws -> (count: Int, keys: [Int64]) {
    let step = max(1, stride)
    var count = 0
    var keys: [Int64] = []
    var plan = try plan ?? self.plan(in: group)
    if let candidates = plan.candidates { plan = plan.withCandidates(candidates.sorted()) }
    try forEachMatchingKey(in: group, plan: plan, progress: progress) { key in
      if count % step == 0 { keys.append(key) }
      count += 1
    }
    return (count, keys)
  }
}

extension QueryPlan {
  /// The same plan reading `candidates` (in that order).
  func withCandidates(_ candidates: [Int64]) -> QueryPlan {
    QueryPlan(
      className: className, objectCount: objectCount, lookups: lookups, candidates: candidates, order: order, note: note)
  }
}
