/// Builds a search index (`StringIndex`, §4.6) from collected entries.
///
/// Entries are sorted by their sequence of 4-byte chunk keys (signed), then null first,
/// then data bytes, then object key. At each offset they are grouped by chunk key: a group
/// of one object becomes a tagged key, a group whose data are all equal (or past the
/// 200-byte depth limit) a sorted list of object keys, any other group a sub-index for the
/// next 4 bytes. Nodes hold at most 1000 keys; larger ones get inner levels whose keys are
/// the children's last keys. Every keys array has width 32, as core reads it.
public enum SearchIndexWriter {
  /// Past this many bytes of data, equal prefixes share a list (`s_max_offset`).
  public static let maxOffset = 200

  /// Writes the index for `entries` and returns its root (an empty leaf when there are none).
  public static func write<S: NodeSink>(_ entries: SearchIndexEntries, into sink: inout S) -> Ref {
    write(entries, order: sortedOrder(entries), into: &sink)
  }

  /// Writes the index for `entries` in `order` (``sortedOrder(_:)``).
  static func write<S: NodeSink>(_ entries: SearchIndexEntries, order: [Int], into sink: inout S) -> Ref {
    node(entries, order[...], offset: 0, into: &sink)
  }

  /// The first two entries with the same value (two nulls included) in `order`
  /// (``sortedOrder(_:)``, where equal values are neighbours): what a primary key must not have.
  static func firstDuplicate(_ e: SearchIndexEntries, order: [Int]) -> (Int, Int)? {
    for i in order.indices.dropFirst() where sameData(e, order[i - 1], order[i]) {
      return (order[i - 1], order[i])
    }
    return nil
  }

  /// Entry indices in index order. The first chunk key is computed once per entry: it
  /// decides most comparisons (e.g. every one between distinct int keys below 2^32).
  static func sortedOrder(_ e: SearchIndexEntries) -> [Int] {
    let first = (0..<e.count).map { e.chunkKey($0, at: 0) }
    return Array(0..<e.count).sorted { a, b in
      if first[a] != first[b] { return first[a] < first[b] }
      return compare(e, a, b) < 0
    }
  }

  static func compare(_ e: SearchIndexEntries, _ a: Int, _ b: Int) -> Int {
    let longest = max(Int(e.lengths[a]), Int(e.lengths[b]))
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
    let c = SetOrdering.compareBytes(e.data(a), e.data(b))
    if c != 0 { return c }
    return e.keys[a] == e.keys[b] ? 0 : e.keys[a] < e.keys[b] ? -1 : 1
  }

  static func sameData(_ e: SearchIndexEntries, _ a: Int, _ b: Int) -> Bool {
    e.isNull(a) == e.isNull(b) && e.data(a) == e.data(b)
  }

  /// Writes the (possibly multi-level) node for `order` (sorted) at `offset`.
  static func node<S: NodeSink>(
    _ e: SearchIndexEntries, _ order: ArraySlice<Int>, offset: Int, into sink: inout S
  ) -> Ref {
    // One (key, element) pair per distinct chunk key at this offset.
    var groups: [(key: Int32, element: Int64)] = []
    var i = order.startIndex
    while i < order.endIndex {
      let key = e.chunkKey(order[i], at: offset)
      var j = i + 1
      while j < order.endIndex && e.chunkKey(order[j], at: offset) == key { j += 1 }
      let group = order[i..<j]
      let element: Int64
      if group.count == 1 {
        element = RefOrTagged.taggedRaw(UInt64(bitPattern: e.keys[order[i]]))
      } else if offset + 4 > maxOffset || sameData(e, order[i], order[j - 1]) {
        element = Int64(CollectionLeafEncoder.keyTree(group.map { e.keys[$0] }, into: &sink).rawValue)
      } else {
        element = Int64(node(e, group, offset: offset + 4, into: &sink).rawValue)
      }
      groups.append((key, element))
      i = j
    }
    return levels(groups, into: &sink)
  }

  /// Leaves of at most 1000 keys, then inner nodes keyed by their children's last keys.
  static func levels<S: NodeSink>(_ groups: [(key: Int32, element: Int64)], into sink: inout S) -> Ref {
    let size = FormatConstants.maxBPNodeSize
    var level: [(key: Int32, element: Int64)] = []
    var isInner = false
    var current = groups
    repeat {
      level = []
      var start = 0
      repeat {
        let chunk = current[start..<min(start + size, current.count)]
        let ref = indexNode(chunk, isInner: isInner, into: &sink)
        level.append((chunk.last?.key ?? 0, Int64(ref.rawValue)))
        start += size
      } while start < current.count
      current = level
      isInner = true
    } while current.count > 1
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
