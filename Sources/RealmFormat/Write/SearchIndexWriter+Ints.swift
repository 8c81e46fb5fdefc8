/// The search index of an int column from entries in sorted runs (``SortedPairRuns``), read
/// in two streaming passes: the same nodes in the same order as ``SearchIndexWriter/write(_:into:)``
/// writes for the same entries, with memory for one group of entries that share their low
/// 32 bits, not for the column.
extension SearchIndexWriter {
  /// The pair of an int entry: its index order as one unsigned word (the chunk keys at 0 and
  /// 4 with their sign bits flipped: the low half of the value first, as its little-endian
  /// bytes compare), then the object key.
  static func intPair(_ value: Int64, key: Int64) -> WordPair {
    let v = UInt64(bitPattern: value)
    let low = UInt32(truncatingIfNeeded: v).byteSwapped ^ 0x8000_0000
    let high = UInt32(truncatingIfNeeded: v >> 32).byteSwapped ^ 0x8000_0000
    return WordPair(first: UInt64(low) << 32 | UInt64(high), second: UInt64(bitPattern: key))
  }

  /// The value of an int entry's pair.
  static func intValue(_ pair: WordPair) -> Int64 {
    let low = (UInt32(truncatingIfNeeded: pair.first >> 32) ^ 0x8000_0000).byteSwapped
    let high = (UInt32(truncatingIfNeeded: pair.first) ^ 0x8000_0000).byteSwapped
    return Int64(bitPattern: UInt64(high) << 32 | UInt64(low))
  }

  /// The outcome of ``writeInts(_:stopAtDuplicate:into:)``.
  enum IntIndexResult {
    case written(Ref)
    /// The object keys of the first two entries with the same value (in index order).
    case duplicate(Int64, Int64)
  }

  /// Writes the index of int entries given as pairs (``intPair(_:key:)``) in sorted runs;
  /// with `stopAtDuplicate` (a primary key), stops at the first two equal values instead.
  static func writeInts<S: NodeSink>(
    _ runs: SortedPairRuns, stopAtDuplicate: Bool, into sink: inout S
  ) -> IntIndexResult {
    // Pass 1: the sub-nodes of the groups of several entries (same chunk key at offset 0),
    // in group order, as `node` writes them.
    var subNodes: [Int64] = []
    var group: [WordPair] = []
    var merge = runs.merged()
    var previous: WordPair?
    while true {
      let p = merge.next()
      if let p, let q = previous, stopAtDuplicate, p.first == q.first {
        return .duplicate(Int64(bitPattern: q.second), Int64(bitPattern: p.second))
      }
      previous = p
      if let first = group.first, p.map({ $0.first >> 32 != first.first >> 32 }) ?? true {
        if group.count > 1 { subNodes.append(Int64(subNode(group, into: &sink).rawValue)) }
        group.removeAll(keepingCapacity: true)
      }
      guard let p else { break }
      group.append(p)
    }
    // Pass 2: one (chunk key, element) pair per group, leaves of at most 1000 as they fill.
    var level = IndexLeafLevel(expected: runs.count)
    var next = 0
    merge = runs.merged()
    var groupStart: WordPair?
    var groupCount = 0
    while true {
      let p = merge.next()
      if let first = groupStart, p.map({ $0.first >> 32 != first.first >> 32 }) ?? true {
        let key = Int32(bitPattern: UInt32(truncatingIfNeeded: first.first >> 32) ^ 0x8000_0000)
        let element: Int64
        if groupCount == 1 {
          element = RefOrTagged.taggedRaw(first.second)
        } else {
          element = subNodes[next]
          next += 1
        }
        level.append(key, element, into: &sink)
        groupStart = nil
        groupCount = 0
      }
      guard let p else { break }
      if groupStart == nil { groupStart = p }
      groupCount += 1
    }
    return .written(level.finish(into: &sink))
  }

  /// The sub-node of a group of several int entries sharing their low 32 bits (in index
  /// order): a key list when they are one value, else the node for their high 32 bits.
  static func subNode<S: NodeSink>(_ group: [WordPair], into sink: inout S) -> Ref {
    if group[0].first == group[group.count - 1].first {
      return CollectionLeafEncoder.keyTree(group.map { Int64(bitPattern: $0.second) }, into: &sink)
    }
    var entries = SearchIndexEntries()
    entries.ints = group.map(intValue)
    for p in group { entries.keys.append(Int64(bitPattern: p.second)) }
    return node(entries, Array(group.indices)[...], offset: 4, into: &sink)
  }
}
