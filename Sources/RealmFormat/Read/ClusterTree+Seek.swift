/// Seeking into a cluster tree: the leaves from a given key or position on, found by walking
/// down one path of the tree instead of visiting every leaf before it (§5.2).
extension ClusterTree {
  /// Where a walk starts.
  enum Start: Sendable, Equatable {
    /// At the first object whose key is greater than this one.
    case afterKey(Int64)
    /// At the object with this position in key order (0-based).
    case position(Int)
  }

  /// Calls `body` with every leaf from `start` on, in key order, and the row of the leaf where
  /// the walk starts (0 for every leaf after the first). The path down to the first leaf is one
  /// node per level (for a key) or the headers of the children of one node per level (for a
  /// position); the leaves after it are visited as ``forEachLeaf(root:_:)`` visits them.
  /// `body` returns false to stop.
  func forEachLeaf(
    root: Ref, from start: Start, _ body: (_ leaf: ClusterLeaf, _ firstRow: Int) throws(FormatError) -> Bool
  ) throws(FormatError) {
    let budget = DecodeBudget(embeddedObjects: 0, nodes: visitBudget, reading: .unlimited)
    var remaining: Start? = start
    _ = try seek(root, offset: 0, level: 0, start: &remaining, budget: budget, body)
  }

  /// Visits the sub-tree at `ref`; `start` is consumed (set to `.position(0)`) once the first
  /// leaf is found, so the sub-trees after it are visited whole. Returns false when `body`
  /// stopped the walk.
  private func seek(
    _ ref: Ref, offset: UInt64, level: Int, start: inout Start?, budget: DecodeBudget,
    _ body: (ClusterLeaf, Int) throws(FormatError) -> Bool
  ) throws(FormatError) -> Bool {
    budget.nodes -= 1
    guard budget.nodes >= 0 else { throw FormatError.limit("cluster tree walk visits more nodes than the file can hold (cycle?)", at: ref.rawValue) }
    guard level <= limits.maxDepth else { throw FormatError.limit("cluster tree deeper than \(limits.maxDepth)", at: ref.rawValue) }
    let node = try ArrayNode(elements: reader, ref)
    guard node.hasRefs, node.count >= 1 else {
      throw FormatError.corrupt("cluster node at \(ref) is not a has-refs array", at: ref.rawValue)
    }
    if !node.isInner {
      let leaf = try ClusterLeaf(node, offset: offset)
      var first = 0
      switch start {
      case .afterKey(let key)?:
        // Keys ascend within a leaf: the first row past `key`.
        var lo = 0
        var hi = leaf.count
        while lo < hi {
          let mid = (lo &+ hi) >> 1
          if leaf.key(mid) <= key { lo = mid &+ 1 } else { hi = mid }
        }
        first = lo
      case .position(let p)?:
        guard p < leaf.count else {
          start = .position(p - leaf.count)
          return true
        }
        first = p
      case nil:
        break
      }
      start = nil
      guard first < leaf.count else { return true }
      return try body(leaf, first)
    }
    let inner = try InnerClusterNode(node, shift: shift)
    var child = 0
    switch start {
    case .afterKey(let key)?:
      // The child whose range holds `key`; a key before the first child's starts at the first.
      child = inner.childContaining(UInt64(bitPattern: key) &- offset) ?? 0
      if key < 0 { child = 0 }
    case .position(let p)?:
      guard p < inner.objectCount else {
        start = .position(p - inner.objectCount)
        return true
      }
      // Skip whole children by their counts, read from their headers.
      var left = p
      while child < inner.childCount {
        let count = try objectCount(of: try node.ref(child &+ 3), depth: inner.depth - 1)
        if left < count { break }
        left -= count
        child &+= 1
      }
      start = .position(left)
    case nil:
      break
    }
    while child < inner.childCount {
      let more = try seek(
        try node.ref(child &+ 3), offset: offset &+ inner.childOffset(child), level: level + 1, start: &start,
        budget: budget, body)
      if !more { return false }
      child &+= 1
    }
    return true
  }

  /// The number of objects of the sub-tree at `ref`, whose depth is `depth` (0: a leaf), read
  /// from its node without visiting its children.
  private func objectCount(of ref: Ref, depth: Int) throws(FormatError) -> Int {
    let node = try ArrayNode(elements: reader, ref)
    guard node.hasRefs, node.count >= 1 else {
      throw FormatError.corrupt("cluster node at \(ref) is not a has-refs array", at: ref.rawValue)
    }
    if node.isInner {
      let inner = try InnerClusterNode(node, shift: shift)
      guard inner.depth == depth else {
        throw FormatError.corrupt("inner cluster node at \(ref) has depth \(inner.depth), expected \(depth)", at: ref.rawValue)
      }
      return inner.objectCount
    }
    guard depth == 0 else {
      throw FormatError.corrupt("cluster leaf at \(ref) found where an inner node of depth \(depth) is expected", at: ref.rawValue)
    }
    return try ClusterLeaf(node, offset: 0).count
  }
}
