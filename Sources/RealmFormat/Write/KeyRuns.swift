/// Ascending object keys kept as runs of consecutive keys: a table whose keys are sequential
/// (a class with a primary key) is one run, squeezed keys (§4.9) one run per 256 objects. So
/// the keys a file builder keeps until the end cost a few bytes per cluster, not 8 bytes per
/// object (16 bytes per key only when no two keys are consecutive).
struct KeyRuns: Sendable, Equatable {
  /// The first key of each run.
  private var firsts: [Int64] = []
  /// After each run, the number of keys up to its end.
  private var ends: [Int] = []

  /// Number of keys.
  var count: Int { ends.last ?? 0 }

  /// Appends `key` (above the previous one).
  mutating func append(_ key: Int64) {
    if let first = firsts.last {
      let end = ends[ends.count - 1]
      let length = end - (ends.count > 1 ? ends[ends.count - 2] : 0)
      if key == first &+ Int64(length) {
        ends[ends.count - 1] = end + 1
        return
      }
    }
    firsts.append(key)
    ends.append(count + 1)
  }

  /// Appends `keys` in order.
  mutating func append<C: Collection>(contentsOf keys: C) where C.Element == Int64 {
    for k in keys { append(k) }
  }

  /// Key number `i` (0-based).
  subscript(i: Int) -> Int64 {
    precondition(i >= 0 && i < count, "key index out of range")
    if firsts.count == 1 { return firsts[0] &+ Int64(i) }
    let r = run(containing: i)
    return firsts[r] &+ Int64(i - (r == 0 ? 0 : ends[r - 1]))
  }

  /// Keys `range`, in order.
  func keys(_ range: Range<Int>) -> [Int64] {
    var out: [Int64] = []
    out.reserveCapacity(range.count)
    guard !range.isEmpty else { return out }
    var r = run(containing: range.lowerBound)
    var i = range.lowerBound
    while i < range.upperBound {
      let start = r == 0 ? 0 : ends[r - 1]
      let stop = min(ends[r], range.upperBound)
      for j in i..<stop { out.append(firsts[r] &+ Int64(j - start)) }
      i = stop
      r += 1
    }
    return out
  }

  /// The run holding key number `i`: the first whose end is above `i`.
  private func run(containing i: Int) -> Int {
    var low = 0
    var high = ends.count - 1
    while low < high {
      let mid = (low + high) / 2
      if ends[mid] > i { high = mid } else { low = mid + 1 }
    }
    return low
  }
}
