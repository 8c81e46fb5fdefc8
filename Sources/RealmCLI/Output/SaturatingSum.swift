extension Sequence<Int> {
  /// The sum, Int.max when it overflows: reports add up object counts a damaged file claims
  /// (each table's count is its cluster root's word, not the objects its leaves hold).
  var saturatingSum: Int {
    reduce(0) { total, n in
      let (sum, overflow) = total.addingReportingOverflow(n)
      return overflow ? (n < 0 ? .min : .max) : sum
    }
  }
}
