import RealmModel
import RealmFormat

/// A scan's condition applied to runs of consecutive objects on any thread: what a scan does
/// to each of its chunks, for the scans of this module and for a caller that runs its own
/// pipeline over the leaves of a table (the dump's `ParallelDump`, which encodes the selected
/// objects where it selects them).
extension RealmQuery {
  /// The condition of a query, ready to test the objects of one table batch by batch
  /// (`QueryBatchFilter`): comparisons on the leaves in the file, other properties decoded
  /// on demand, conditions through links per object. Sendable: make one
  /// ``RealmQuery/ScanFilter/Session`` per chunk of leaves, on the thread that reads them.
  public struct ScanFilter: Sendable {
    let filter: QueryBatchFilter
    let group: Group
    let table: Table
    let source: GroupQuerySource
    let schema: QuerySchema
    let reads: [Int: Set<Int>]
    let lead: (property: Int, scan: StringLeafScan)?
    /// Only the objects whose key is greater (`ScanOptions.startAfterKey`).
    let startAfterKey: Int64?
    /// The properties the condition reads (positions in the class's properties).
    public let columnsRead: Set<Int>

    init(_ query: RealmQuery, group: Group, table: Table, options: ScanOptions) {
      var filter = QueryBatchFilter(query.predicate, classIndex: query.classIndex)
      filter.readsLeaves = options.readsLeaves
      startAfterKey = options.startAfterKey
      self.filter = filter
      self.group = group
      self.table = table
      source = GroupQuerySource(group: group, schema: query.schema.schema)
      schema = query.schema
      reads = query.reads
      lead = filter.leadingStringScan
      columnsRead = query.propertiesRead
    }

    /// The state of one chunk's run of leaves (not to be shared between threads).
    public func makeSession() -> Session { Session(self) }

    /// Tests the objects of a run of consecutive leaves, one leaf at a time, in key order.
    public struct Session {
      let filter: ScanFilter
      var context: QueryContext
      let leadColumn: LeafColumnReader?
      /// Leaves whose string column was looked at first, and those of them that were read.
      var looked = 0
      var kept = 0
      var scratch: (all: [Bool], out: [Bool]) = ([], [])

      init(_ filter: ScanFilter) {
        self.filter = filter
        context = QueryContext(source: filter.source, schema: filter.schema, reads: filter.reads)
        leadColumn = filter.lead.flatMap { LeafColumnReader(filter.group, table: filter.table, property: $0.property) }
      }

      /// Calls `body` with each batch of `range` (at most 256 objects, in key order) that has
      /// matching objects and their positions in it, ascending; returns how many matched.
      ///
      /// When the condition's answer rests on a string comparison on the leaves, the range's
      /// leaf of that column is read alone first and the range is skipped when nothing in it
      /// matches, while few ranges have a match (otherwise every leaf would be read twice).
      /// `ahead` are the leaves that follow, loaded in the meantime for that first read.
      /// `progress` counts the objects tested and stops the run when cancelled.
      public mutating func forEachSelection(
        in range: ObjectRange, ahead: (next: LeafLocation?, afterNext: LeafLocation?) = (nil, nil),
        progress: ProgressCounter? = nil, _ body: (_ batch: SelectionBatch, _ selected: [Int]) throws -> Void
      ) throws -> Int {
        if let lead = filter.lead, let leadColumn, looked < 8 || kept * 4 < looked {
          looked += 1
          if let afterNext = ahead.afterNext { leadColumn.prefetchLeaf(afterNext) }
          if let next = ahead.next { leadColumn.prefetchColumn(next) }
          if try QueryBatchFilter.rulesOut(range, lead.scan, in: leadColumn, scratch: &scratch) {
            if let progress {
              progress.add(range.count)
              if progress.isCancelled { throw ProgressCancelled() }
            }
            return 0
          }
          kept += 1
        }
        var matched = 0
        try filter.group.forEachSelectionBatch(in: range, filterColumns: filter.columnsRead) { batch in
          if let progress {
            progress.add(batch.count)
            if progress.isCancelled { throw ProgressCancelled() }
          }
          var selected = try filter.filter.select(batch, &context)
          if let after = filter.startAfterKey, !selected.isEmpty, batch.key(0) <= after {
            selected.removeAll { batch.key($0) <= after }
          }
          matched &+= selected.count
          if !selected.isEmpty { try body(batch, selected) }
        }
        return matched
      }
    }
  }

  /// The condition as a ``ScanFilter`` for the objects of its class in `group`, when `plan`
  /// scans and the query has no SORT, DISTINCT or LIMIT (its objects are then exactly those
  /// the filter selects, in key order); nil otherwise (index lookups read their candidates
  /// by key: ``forEachMatch(in:plan:columns:progress:_:)``).
  public func scanFilter(in group: Group, plan: QueryPlan) throws(QueryEvaluationError) -> ScanFilter? {
    guard plan.candidates == nil, !hasDescriptors else { return nil }
    let (table, _) = try tableAndSchema(in: group)
    return ScanFilter(self, group: group, table: table, options: scanOptions)
  }
}
