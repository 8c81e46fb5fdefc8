/// Writes the object cluster tree of a table (§5): leaves of at most 256 objects and inner
/// nodes of at most 256 children, all keys ascending.
public enum ClusterTreeWriter {
  /// Objects per leaf and children per inner node in release builds of core.
  public static let fanOut = 1 << FormatConstants.clusterShift

  /// A written leaf: its ref, the offset its keys are relative to, and its object count.
  public struct Leaf: Sendable, Equatable {
    /// The leaf node.
    public var ref: Ref
    /// The offset its relative keys are added to (0 for a root leaf).
    public var offset: Int64
    /// Number of objects.
    public var count: Int
  }

  /// Writes a leaf `[keys, column refs…]` (§5.1) for `keys` (ascending, non-negative)
  /// relative to `offset`: the compact form (tagged count) when they are `0..<n`, else an
  /// `ArrayUnsigned` of relative keys.
  public static func leaf<S: NodeSink>(
    keys: ArraySlice<Int64>, offset: Int64, columns: [Ref], into sink: inout S
  ) -> Leaf {
    var dense = true
    var expected: Int64 = 0
    for k in keys {
      if k - offset != expected {
        dense = false
        break
      }
      expected += 1
    }
    var elements = [Int64]()
    elements.reserveCapacity(columns.count + 1)
    if dense {
      elements.append(RefOrTagged.taggedRaw(UInt64(keys.count)))
    } else {
      let keysRef = sink.append(NodeEncoder.unsignedIntegers(keys.map { UInt64(bitPattern: $0 - offset) }))
      elements.append(Int64(keysRef.rawValue))
    }
    for c in columns { elements.append(Int64(c.rawValue)) }
    return Leaf(ref: sink.append(NodeEncoder.refArray(elements)), offset: offset, count: keys.count)
  }

  /// Writes the inner nodes above `leaves` (in key order, offsets absolute) and returns the
  /// root. A single leaf is its own root and must have offset 0.
  ///
  /// Inner nodes are `[offsets or 0, tagged depth, tagged count, children…]` (§5.2): the
  /// compact form (0) when child *i* starts at `i << (depth · 8)`, else an `ArrayUnsigned`
  /// of child offsets relative to the node's first child.
  public static func root<S: NodeSink>(leaves: [Leaf], into sink: inout S) -> Ref {
    precondition(!leaves.isEmpty, "a cluster tree has at least one leaf")
    var level = leaves
    var depth = 1
    while level.count > 1 {
      var next = [Leaf]()
      next.reserveCapacity(level.count / fanOut + 1)
      var i = 0
      while i < level.count {
        let group = level[i..<min(i + fanOut, level.count)]
        // The root has no parent to carry an offset: its children's offsets are absolute.
        let base = level.count <= fanOut ? 0 : group.first?.offset ?? 0
        let shift = depth * FormatConstants.clusterShift
        var compact = true
        for (j, child) in group.enumerated() where shift >= 63 || child.offset - base != Int64(j) << shift {
          compact = false
          break
        }
        var elements = [Int64]()
        elements.reserveCapacity(group.count + 3)
        if compact {
          elements.append(0)
        } else {
          let offsets = sink.append(NodeEncoder.unsignedIntegers(group.map { UInt64(bitPattern: $0.offset - base) }))
          elements.append(Int64(offsets.rawValue))
        }
        let total = group.reduce(0) { $0 + $1.count }
        elements.append(RefOrTagged.taggedRaw(UInt64(depth)))
        elements.append(RefOrTagged.taggedRaw(UInt64(total)))
        for child in group { elements.append(Int64(child.ref.rawValue)) }
        next.append(Leaf(ref: sink.append(NodeEncoder.refArray(elements, isInner: true)), offset: base, count: total))
        i += fanOut
      }
      level = next
      depth += 1
    }
    return level[0].ref
  }
}
