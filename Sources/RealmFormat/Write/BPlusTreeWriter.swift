/// Writes B+-trees (§6.13): leaves of at most 1000 elements and compact inner nodes.
///
/// Used for lists, sets, dictionary key/value trees, backlink lists and search-index key
/// lists. The element leaves are written by the caller's closure, one range at a time, so
/// the same shape code serves every element type.
public enum BPlusTreeWriter {
  /// Elements per leaf and children per inner node (`REALM_MAX_BPNODE_SIZE`).
  public static let nodeSize = FormatConstants.maxBPNodeSize

  /// Writes a tree of `count` elements (count ≥ 1) and returns its root.
  ///
  /// `writeLeaf` writes the leaf for one range of element indices. A tree of up to 1000
  /// elements is a single leaf; beyond, inner nodes are
  /// `[tagged elements-per-child, child refs…, tagged total]` (compact form: every child but
  /// the last is full).
  public static func write<S: NodeSink, E: Error>(
    count: Int, into sink: inout S, writeLeaf: (Range<Int>, inout S) throws(E) -> Ref
  ) throws(E) -> Ref {
    var level: [(ref: Ref, count: Int)] = []
    var start = 0
    repeat {
      let end = min(start + nodeSize, count)
      level.append((try writeLeaf(start..<end, &sink), end - start))
      start = end
    } while start < count
    var perChild = nodeSize
    while level.count > 1 {
      var next: [(ref: Ref, count: Int)] = []
      var i = 0
      while i < level.count {
        let group = level[i..<min(i + nodeSize, level.count)]
        let total = group.reduce(0) { $0 + $1.count }
        var elements: [Int64] = [RefOrTagged.taggedRaw(UInt64(perChild))]
        elements.reserveCapacity(group.count + 2)
        for child in group { elements.append(Int64(child.ref.rawValue)) }
        elements.append(RefOrTagged.taggedRaw(UInt64(total)))
        next.append((sink.append(NodeEncoder.refArray(elements, isInner: true)), total))
        i += nodeSize
      }
      level = next
      perChild *= nodeSize
    }
    return level[0].ref
  }
}
