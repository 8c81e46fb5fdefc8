extension Table {
  /// Throws unless `walked`, the objects a walk of the table's cluster leaves found, is the
  /// object count the table claims: that count is the file's unverified word (the root's
  /// tagged count), and a writer that counts or writes with it must not trust a damaged or
  /// hostile one.
  public func requireObjectCount(_ walked: Int) throws(FormatError) {
    guard walked == objectCount else {
      throw FormatError.corrupt(
        "table '\(name)' says it holds \(objectCount) objects but its cluster leaves hold \(walked)", at: clusterRoot.rawValue)
    }
  }
}

extension Group {
  /// How many objects of `table` to reserve room for before a walk: its claimed count, capped
  /// by the file's size (a hostile count must not size an allocation; the arrays grow past it
  /// for a file of many empty objects).
  public func reservableObjectCount(of table: Table) -> Int {
    min(max(table.objectCount, 0), reader.count / 8)
  }
}

extension Group {
  /// Throws unless the cluster leaves of `table` hold the objects its count claims
  /// (``Table/requireObjectCount(_:)``): a walk of the tree's nodes that reads no values,
  /// for a writer that keeps the tree's counts (an in-place edit) or reports them before it
  /// walks (a dry run).
  public func requireObjectCount(of table: Table) throws {
    var walked = 0
    try forEachObjectRange(in: table) { range in
      let (sum, overflow) = walked.addingReportingOverflow(range.count)
      walked = overflow ? .max : sum
    }
    try table.requireObjectCount(walked)
  }
}
