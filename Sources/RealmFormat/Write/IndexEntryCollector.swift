import RealmModel

/// The entries of one indexed column while a file is built. While every value is a non-null
/// int (a primary key's column, the common case), they are (order, object key) pairs in
/// sorted runs (``SortedPairRuns``): memory for one run, the rest in scratch space. The first
/// other value moves them all to the general, in-memory form (``SearchIndexEntries``).
struct IndexEntryCollector {
  private(set) var ints: SortedPairRuns
  private(set) var general: SearchIndexEntries?

  /// `keysAscend`: entries come in ascending key order (objects of a top-level class), so a
  /// stable sort by value alone gives the index order (equal values in key order).
  init(scratch: any ScratchStorage, keysAscend: Bool) {
    ints = SortedPairRuns(scratch: scratch, bySecond: !keysAscend)
  }

  /// Adds the entry of `value` for object `key`.
  mutating func append(_ value: RealmValue, key: Int64, tableKeys: [String: Int64]) throws(FormatError) {
    if general == nil {
      if case .int(let i) = value {
        ints.append(SearchIndexWriter.intPair(i, key: key))
        return
      }
      var moved = SearchIndexEntries()
      ints.sortPending()
      var merge = ints.merged()
      while let p = merge.next() {
        try moved.append(.int(SearchIndexWriter.intValue(p)), key: Int64(bitPattern: p.second))
      }
      ints = SortedPairRuns(scratch: ints.scratch, bySecond: ints.bySecond)
      general = moved
    }
    try general!.append(value, key: key, tableKeys: tableKeys)
  }
}
