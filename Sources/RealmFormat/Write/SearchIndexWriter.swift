import RealmModel

/// Builds a search index (`StringIndex`, §4.6) from collected entries.
///
/// Entries are sorted by their sequence of 4-byte chunk keys (signed), then null first,
/// then by value as `Mixed::compare` orders them (values of the same data, such as `0` and
/// `false`, by their type's rank; values that share more than 200 bytes share a list, strings
/// sorted as signed `char` up to format 23 and unsigned from 24), then object key. At each
/// offset they are grouped by chunk key: a group
/// of one object becomes a tagged key, a group whose data are all equal (or past the
/// 200-byte depth limit) a sorted list of object keys, any other group a sub-index for the
/// next 4 bytes. Nodes hold at most 1000 keys; larger ones get inner levels whose keys are
/// the children's last keys. Every keys array has width 32, as core reads it.
public enum SearchIndexWriter {
  /// Past this many bytes of data, equal prefixes share a list (`s_max_offset`).
  public static let maxOffset = 200

  /// Writes the index for `entries` in a file of `format` and returns its root (an empty leaf
  /// when there are none).
  public static func write<S: NodeSink>(
    _ entries: SearchIndexEntries, format: WritableFileFormat, into sink: inout S
  ) -> Ref {
    write(entries, order: sortedOrder(entries, format: format), into: &sink)
  }

  /// Writes the index for `entries` in `order` (``sortedOrder(_:format:)``).
  static func write<S: NodeSink>(_ entries: SearchIndexEntries, order: [Int], into sink: inout S) -> Ref {
    node(entries, order[...], offset: 0, into: &sink)
  }

  /// The first two entries with the same value (two nulls included) in `order`
  /// (``sortedOrder(_:format:)``, where equal values are neighbours): what a primary key must not have.
  static func firstDuplicate(_ e: SearchIndexEntries, order: [Int]) -> (Int, Int)? {
    for i in order.indices.dropFirst() where sameData(e, order[i - 1], order[i]) {
      return (order[i - 1], order[i])
    }
    return nil
  }

  /// Entry indices in index order. The first chunk key is computed once per entry: it
  /// decides most comparisons (e.g. every one between distinct int keys below 2^32).
  static func sortedOrder(_ e: SearchIndexEntries, format: WritableFileFormat) -> [Int] {
    if e.intsOnly {
      // Every entry is 8 bytes: the chunk keys at 0 and 4 decide, then the object key (the
      // chunk at 8 is the same for all, equal chunks mean equal data).
      let first = (0..<e.count).map { i -> UInt64 in
        let low = UInt32(bitPattern: e.chunkKey(i, at: 0)) ^ 0x8000_0000
        let high = UInt32(bitPattern: e.chunkKey(i, at: 4)) ^ 0x8000_0000
        return UInt64(low) << 32 | UInt64(high)
      }
      var order = Array(0..<e.count)
      order.sort { a, b in first[a] != first[b] ? first[a] < first[b] : e.key(a) < e.key(b) }
      return order
    }
    let first = (0..<e.count).map { e.chunkKey($0, at: 0) }
    var order = Array(0..<e.count)
    order.sort { a, b in
      if first[a] != first[b] { return first[a] < first[b] }
      return compare(e, a, b, format: format) < 0
    }
    return order
  }

  static func compare(_ e: SearchIndexEntries, _ a: Int, _ b: Int, format: WritableFileFormat) -> Int {
    let longest = max(e.length(a), e.length(b))
    var offset = 0
    while offset <= longest && offset <= maxOffset {
      let ka = e.chunkKey(a, at: offset)
      let kb = e.chunkKey(b, at: offset)
      if ka != kb { return ka < kb ? -1 : 1 }
      offset += 4
    }
    let na = e.isNull(a)
    let nb = e.isNull(b)
    if na != nb { return na ? -1 : 1 }
    // Same data, or the same first 204 bytes: Realm's value order.
    let c = e.compareValues(a, b, format: format)
    if c != 0 { return c }
    return e.key(a) == e.key(b) ? 0 : e.key(a) < e.key(b) ? -1 : 1
  }

  static func sameData(_ e: SearchIndexEntries, _ a: Int, _ b: Int) -> Bool {
    e.sameData(a, b)
  }

  /// Writes the (possibly multi-level) node for `order` (sorted) at `offset`.
  ///
  /// One (key, element) pair per distinct chunk key at this offset. In two passes, so that
  /// the pairs are never all held at once (a million-object primary key has a million): the
  /// sub-nodes of the groups of several objects first, in group order, then the leaves of at
  /// most 1000 pairs as they fill, then the levels above them.
  static func node<S: NodeSink>(
    _ e: SearchIndexEntries, _ order: ArraySlice<Int>, offset: Int, into sink: inout S
  ) -> Ref {
    var subNodes: [Int64] = []
    forEachGroup(e, order, offset: offset) { _, group in
      guard group.count > 1 else { return }
      if offset + 4 > maxOffset || sameData(e, group[group.startIndex], group[group.endIndex - 1]) {
        subNodes.append(Int64(CollectionLeafEncoder.keyTree(group.map { e.key($0) }, into: &sink).rawValue))
      } else {
        subNodes.append(Int64(node(e, group, offset: offset + 4, into: &sink).rawValue))
      }
    }
    var level = IndexLeafLevel(expected: order.count)
    var next = 0
    forEachGroup(e, order, offset: offset) { key, group in
      let element: Int64
      if group.count == 1 {
        element = RefOrTagged.taggedRaw(UInt64(bitPattern: e.key(group[group.startIndex])))
      } else {
        element = subNodes[next]
        next += 1
      }
      level.append(key, element, into: &sink)
    }
    return level.finish(into: &sink)
  }

  /// Calls `body` with each run of entries of `order` that share their chunk key at `offset`.
  static func forEachGroup(
    _ e: SearchIndexEntries, _ order: ArraySlice<Int>, offset: Int, _ body: (Int32, ArraySlice<Int>) -> Void
  ) {
    var i = order.startIndex
    while i < order.endIndex {
      let key = e.chunkKey(order[i], at: offset)
      var j = i + 1
      while j < order.endIndex && e.chunkKey(order[j], at: offset) == key { j += 1 }
      body(key, order[i..<j])
      i = j
    }
  }

  /// The inner nodes above `children` (keyed by their last keys), up to a single root.
  static func innerLevels<S: NodeSink>(_ children: [(key: Int32, element: Int64)], into sink: inout S) -> Ref {
    let size = FormatConstants.maxBPNodeSize
    var current = children
    while current.count > 1 {
      var level: [(key: Int32, element: Int64)] = []
      var start = 0
      repeat {
        let chunk = current[start..<min(start + size, current.count)]
        level.append((chunk.last?.key ?? 0, Int64(indexNode(chunk, isInner: true, into: &sink).rawValue)))
        start += size
      } while start < current.count
      current = level
    }
    return Ref(Int(current[0].element))
  }

  /// One index node: `[keys (width 32), entries…]`, has-refs, context flag.
  static func indexNode<S: NodeSink>(
    _ groups: ArraySlice<(key: Int32, element: Int64)>, isInner: Bool, into sink: inout S
  ) -> Ref {
    let keysRef = sink.append(NodeEncoder.integerNode(groups.map { Int64($0.key) }, width: 32))
    var elements = [Int64(keysRef.rawValue)]
    elements.reserveCapacity(groups.count + 1)
    for g in groups { elements.append(g.element) }
    return sink.append(NodeEncoder.refArray(elements, isInner: isInner, contextFlag: true))
  }
}

/// The leaves of a search-index node level, filled one (key, element) at a time in key order:
/// a leaf is written every `maxBPNodeSize` entries, the last partial one by ``finish(into:)``.
struct IndexLeafLevel {
  private var leaves: [(key: Int32, element: Int64)] = []
  private var pending: [(key: Int32, element: Int64)] = []

  /// A level for about `expected` entries (the first leaf's buffer is sized by it).
  init(expected: Int) { pending.reserveCapacity(min(FormatConstants.maxBPNodeSize, expected)) }

  mutating func append<S: NodeSink>(_ key: Int32, _ element: Int64, into sink: inout S) {
    pending.append((key, element))
    if pending.count == FormatConstants.maxBPNodeSize { flush(into: &sink) }
  }

  /// Writes the last, partial leaf (or the only one, empty, when nothing was appended) and
  /// the inner levels above the leaves; returns the root.
  mutating func finish<S: NodeSink>(into sink: inout S) -> Ref {
    if !pending.isEmpty || leaves.isEmpty { flush(into: &sink) }
    return SearchIndexWriter.innerLevels(leaves, into: &sink)
  }

  private mutating func flush<S: NodeSink>(into sink: inout S) {
    let ref = SearchIndexWriter.indexNode(pending[...], isInner: false, into: &sink)
    leaves.append((pending.last?.key ?? 0, Int64(ref.rawValue)))
    pending.removeAll(keepingCapacity: true)
  }
}
