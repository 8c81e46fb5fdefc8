/// One leaf ("cluster") of an object cluster tree (§5.1): keys and one slot per column.
///
/// Corresponds to `realm::Cluster`. Keys are relative to ``offset``, which the inner nodes above
/// accumulate; real keys wrap modulo 2^64 and read as signed (§5.2, Appendix B.4).
struct ClusterLeaf: Sendable {
  /// The leaf node.
  let node: ArrayNode
  /// Sum of the key offsets on the path from the root.
  let offset: UInt64
  /// The key array (general form), nil in compact form (keys 0..<count).
  let keys: ArrayNode?
  /// Number of objects.
  let count: Int

  init(_ node: ArrayNode, offset: UInt64) throws(FormatError) {
    self.node = node
    self.offset = offset
    switch try node.refOrTagged(0) {
    case .tagged(let n):
      keys = nil
      // Every column leaf holds one value per object and a node holds at most 2^24 - 1
      // elements, so a larger compact count is corrupt (and would make walks endless).
      guard n <= 0xFF_FFFF else {
        throw FormatError.corrupt("cluster at \(node.ref) claims \(n) objects, more than a node can hold", at: node.ref.rawValue)
      }
      count = Int(n)
    case .ref(let r):
      let k = try ArrayNode(elements: node.reader, r)
      try k.requirePlainIntegers("a cluster key array")
      keys = k
      count = k.count
    case .null:
      keys = nil
      count = 0
    }
    // §5.3: leaves hold at most 256 objects (release builds). The count bounds every loop over
    // the leaf, and a compact leaf of a table without columns has nothing else to check it
    // against, so an absurd count would mean an endless walk.
    guard count <= FormatConstants.maxBPNodeSize else {
      throw FormatError.corrupt(
        "cluster leaf at \(node.ref) holds \(count) objects, more than the \(FormatConstants.maxBPNodeSize) a cluster can hold",
        at: node.ref.rawValue)
    }
  }

  /// The object key of row `j` (below ``count``).
  @inline(__always)
  func key(_ j: Int) -> Int64 {
    guard let keys else { return Int64(bitPattern: offset &+ UInt64(j)) }
    return Int64(bitPattern: offset &+ keys.uncheckedUnsigned(j))
  }

  /// The column leaf for `leafIndex`, nil for a hole or a truncated slot (removed columns, §5.1).
  func columnNode(_ leafIndex: Int) throws(FormatError) -> ArrayNode? {
    try node.optionalChild(leafIndex &+ 1)
  }

  /// The row holding relative key `r`, nil when absent.
  func row(ofRelativeKey r: UInt64) -> Int? {
    guard let keys else { return r < UInt64(count) ? Int(r) : nil }
    var lo = 0
    var hi = count
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      let k = keys.uncheckedUnsigned(mid)
      if k == r { return mid }
      if k < r { lo = mid &+ 1 } else { hi = mid }
    }
    return nil
  }
}

/// Walks object cluster trees (§5.2-§5.4) with bounded depth and node visits.
struct ClusterTree: Sendable {
  let reader: ByteReader
  /// log2 of the cluster size the file was written with (8, or 2 for test builds, §5.2).
  let shift: Int
  let limits: Limits

  /// The maximum number of nodes one walk may visit: no valid tree has more nodes than the file
  /// has 8-byte words, so a larger count means a cycle or shared subtrees.
  var visitBudget: Int { reader.count / 8 + 1 }

  /// Calls `body` for every leaf of the tree at `root`, in key order.
  func forEachLeaf(root: Ref, _ body: (ClusterLeaf) throws(FormatError) -> Void) throws(FormatError) {
    try forEachLeaf(root: root, budget: DecodeBudget(embeddedObjects: 0, nodes: visitBudget, reading: .unlimited), body)
  }

  /// Calls `body` for every leaf, charging every node visited to `budget`.
  func forEachLeaf(root: Ref, budget: DecodeBudget, _ body: (ClusterLeaf) throws(FormatError) -> Void) throws(FormatError) {
    try visit(root, offset: 0, expectedDepth: nil, level: 0, budget: budget, opensLeaves: true) { (_, _, leaf) throws(FormatError) in
      if let leaf { try body(leaf) }
    }
  }

  /// Calls `body` with the ref and key offset of every leaf of the tree at `root`, in key
  /// order, reading only the inner nodes: the leaves below them are not read, so whoever
  /// opens one checks that it is a leaf (``openLeaf(_:offset:)``). A root that is a leaf is
  /// read and checked here.
  func forEachLeafRef(root: Ref, _ body: (_ leaf: Ref, _ offset: UInt64) throws(FormatError) -> Void) throws(FormatError) {
    let budget = DecodeBudget(embeddedObjects: 0, nodes: visitBudget, reading: .unlimited)
    try visit(root, offset: 0, expectedDepth: nil, level: 0, budget: budget, opensLeaves: false) { (ref, offset, _) throws(FormatError) in
      try body(ref, offset)
    }
  }

  /// The leaf at `ref` that ``forEachLeafRef(root:_:)`` gave with `offset`.
  func openLeaf(_ ref: Ref, offset: UInt64) throws(FormatError) -> ClusterLeaf {
    let node = try ArrayNode(elements: reader, ref)
    guard node.hasRefs, node.count >= 1 else {
      throw FormatError.corrupt("cluster node at \(ref) is not a has-refs array", at: ref.rawValue)
    }
    guard !node.isInner else {
      throw FormatError.corrupt("inner cluster node at \(ref) found where a cluster leaf is expected", at: ref.rawValue)
    }
    return try ClusterLeaf(node, offset: offset)
  }

  /// Visits the tree at `ref`; with `opensLeaves` false, the children of inner nodes of depth 1
  /// are given unread (nil leaf).
  private func visit(
    _ ref: Ref, offset: UInt64, expectedDepth: Int?, level: Int, budget: DecodeBudget, opensLeaves: Bool,
    _ body: (Ref, UInt64, ClusterLeaf?) throws(FormatError) -> Void
  ) throws(FormatError) {
    budget.nodes -= 1
    guard budget.nodes >= 0 else { throw FormatError.limit("cluster tree walk visits more nodes than the file can hold (cycle?)", at: ref.rawValue) }
    guard level <= limits.maxDepth else { throw FormatError.limit("cluster tree deeper than \(limits.maxDepth)", at: ref.rawValue) }
    if !opensLeaves, expectedDepth == 0 { return try body(ref, offset, nil) }
    let node = try ArrayNode(elements: reader, ref)
    guard node.hasRefs, node.count >= 1 else {
      throw FormatError.corrupt("cluster node at \(ref) is not a has-refs array", at: ref.rawValue)
    }
    if !node.isInner {
      if let expectedDepth, expectedDepth != 0 {
        throw FormatError.corrupt("cluster leaf at \(ref) found where an inner node of depth \(expectedDepth) is expected", at: ref.rawValue)
      }
      try body(ref, offset, try ClusterLeaf(node, offset: offset))
      return
    }
    let inner = try InnerClusterNode(node, shift: shift)
    if let expectedDepth, expectedDepth != inner.depth {
      throw FormatError.corrupt("inner cluster node at \(ref) has depth \(inner.depth), expected \(expectedDepth)", at: ref.rawValue)
    }
    for i in 0..<inner.childCount {
      try visit(
        try node.ref(i &+ 3), offset: offset &+ inner.childOffset(i), expectedDepth: inner.depth - 1,
        level: level + 1, budget: budget, opensLeaves: opensLeaves, body)
    }
  }

  /// The largest key of the tree at `root` (the last object of its last leaf), nil for an
  /// empty tree; only the rightmost path is read. An empty last leaf (which Realm never leaves)
  /// makes the answer nil rather than a walk.
  func lastKey(root: Ref) throws(FormatError) -> Int64? {
    var ref = root
    var offset: UInt64 = 0
    for _ in 0...limits.maxDepth {
      let node = try ArrayNode(elements: reader, ref)
      guard node.hasRefs, node.count >= 1 else {
        throw FormatError.corrupt("cluster node at \(ref) is not a has-refs array", at: ref.rawValue)
      }
      if !node.isInner {
        let leaf = try ClusterLeaf(node, offset: offset)
        return leaf.count > 0 ? leaf.key(leaf.count - 1) : nil
      }
      let inner = try InnerClusterNode(node, shift: shift)
      guard inner.childCount > 0 else { return nil }
      offset &+= inner.childOffset(inner.childCount - 1)
      ref = try node.ref(inner.childCount - 1 &+ 3)
    }
    throw FormatError.limit("cluster tree deeper than \(limits.maxDepth)", at: root.rawValue)
  }

  /// Finds the leaf and row holding `key`, nil when no object has that key.
  func find(root: Ref, key: Int64) throws(FormatError) -> (ClusterLeaf, Int)? {
    var ref = root
    var offset: UInt64 = 0
    let target = UInt64(bitPattern: key)
    for _ in 0...limits.maxDepth {
      let node = try ArrayNode(elements: reader, ref)
      guard node.hasRefs, node.count >= 1 else {
        throw FormatError.corrupt("cluster node at \(ref) is not a has-refs array", at: ref.rawValue)
      }
      let relative = target &- offset
      if !node.isInner {
        let leaf = try ClusterLeaf(node, offset: offset)
        guard let row = leaf.row(ofRelativeKey: relative) else { return nil }
        return (leaf, row)
      }
      let inner = try InnerClusterNode(node, shift: shift)
      guard let child = inner.childContaining(relative) else { return nil }
      offset &+= inner.childOffset(child)
      ref = try node.ref(child &+ 3)
    }
    throw FormatError.limit("cluster tree deeper than \(limits.maxDepth)", at: root.rawValue)
  }
}

/// An inner node of a cluster tree (§5.2): offsets, depth, count, children.
struct InnerClusterNode: Sendable {
  let node: ArrayNode
  /// Child key offsets (general form), nil in compact form.
  let offsets: ArrayNode?
  /// Sub-tree depth (1 = children are leaves).
  let depth: Int
  /// Objects in this sub-tree.
  let objectCount: Int
  let childCount: Int
  /// Bits per level in compact form: `depth * shift`.
  private let compactShift: Int

  init(_ node: ArrayNode, shift: Int) throws(FormatError) {
    guard node.count >= 4 else {
      throw FormatError.corrupt("inner cluster node at \(node.ref) has \(node.count) slots, expected at least 4", at: node.ref.rawValue)
    }
    self.node = node
    childCount = node.count - 3
    let d = try node.tagged(1)
    guard d >= 1, d <= 64 else { throw FormatError.corrupt("inner cluster node at \(node.ref) has depth \(d)", at: node.ref.rawValue) }
    depth = Int(d)
    objectCount = try checkedInt(try node.tagged(2), "cluster sub-tree count")
    let offRef = try node.ref(0)
    if offRef.isNull {
      offsets = nil
      compactShift = depth * shift
      guard compactShift < 64 else {
        throw FormatError.corrupt("inner cluster node at \(node.ref) has depth \(depth), too deep for compact offsets", at: node.ref.rawValue)
      }
    } else {
      let o = try ArrayNode(elements: node.reader, offRef)
      try o.requirePlainIntegers("a cluster offset array")
      guard o.count == childCount else {
        throw FormatError.corrupt("inner cluster node at \(node.ref) has \(childCount) children but \(o.count) offsets", at: node.ref.rawValue)
      }
      offsets = o
      compactShift = 0
    }
  }

  /// Key offset of child `i`.
  @inline(__always)
  func childOffset(_ i: Int) -> UInt64 {
    if let offsets { return offsets.uncheckedUnsigned(i) }
    return UInt64(i) << UInt64(compactShift)
  }

  /// The child whose key range holds relative key `r` (the last child with offset <= r).
  func childContaining(_ r: UInt64) -> Int? {
    guard let offsets else {
      let q = r >> UInt64(compactShift)
      return q >= UInt64(childCount) ? childCount - 1 : Int(q)
    }
    var lo = 0
    var hi = childCount
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      if offsets.uncheckedUnsigned(mid) <= r { lo = mid &+ 1 } else { hi = mid }
    }
    return lo == 0 ? nil : lo - 1
  }
}
