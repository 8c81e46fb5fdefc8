/// An inner node of an old B+-tree (realm-legacy-format.md §5):
/// `[first, child_1, ..., child_n, tagged total]`, where `first` is a tagged number of
/// elements per child (compact form: every child but the last holds exactly that many) or a
/// ref to the `n - 1` cumulative end positions of the children (general form).
struct LegacyInnerNode: Sendable {
  let node: ArrayNode
  /// Number of children.
  let childCount: Int
  /// Elements in the whole sub-tree.
  let total: Int
  /// Compact form: elements per child.
  let elementsPerChild: Int?
  /// General form: the cumulative end positions of children `0..<n-1`.
  let offsets: ArrayNode?

  init(_ node: ArrayNode) throws(FormatError) {
    guard node.hasRefs, node.count >= 3, node.count <= FormatConstants.maxBPNodeSize + 2 else {
      throw FormatError.corrupt("inner B+-tree node at \(node.ref) has \(node.count) slots, expected 3 to 1002", at: node.ref.rawValue)
    }
    self.node = node
    childCount = node.count - 2
    guard case .tagged(let t) = try node.refOrTagged(node.count - 1), t < 1 << 40 else {
      throw FormatError.corrupt("inner B+-tree node at \(node.ref) has no element total", at: node.ref.rawValue)
    }
    total = Int(t)
    switch try node.refOrTagged(0) {
    case .tagged(let k):
      guard k > 0, k < 1 << 40 else {
        throw FormatError.corrupt("inner B+-tree node at \(node.ref) has \(k) elements per child", at: node.ref.rawValue)
      }
      elementsPerChild = Int(k)
      offsets = nil
    case .ref(let r):
      let o = try ArrayNode(elements: node.reader, r)
      try o.requirePlainIntegers("a B+-tree offset array")
      guard o.count == childCount - 1 else {
        throw FormatError.corrupt("inner B+-tree node at \(node.ref) has \(childCount) children but \(o.count) offsets", at: node.ref.rawValue)
      }
      elementsPerChild = nil
      offsets = o
    case .null:
      throw FormatError.corrupt("inner B+-tree node at \(node.ref) has neither offsets nor elements per child", at: node.ref.rawValue)
    }
  }

  /// The child `i` (below ``childCount``).
  func child(_ i: Int) throws(FormatError) -> Ref {
    let r = try node.ref(i &+ 1)
    guard !r.isNull else { throw FormatError.corrupt("inner B+-tree node at \(node.ref) has a null child \(i)", at: node.ref.rawValue) }
    return r
  }

  /// The elements before child `i` (where the child starts), as the node declares it.
  func start(ofChild i: Int) -> Int {
    if i == 0 { return 0 }
    if let k = elementsPerChild { return i.multipliedReportingOverflow(by: k).overflow ? Int.max : i * k }
    return Int(clamping: offsets!.uncheckedGet(i &- 1))
  }

  /// The child holding element `n` and `n`'s position inside it.
  func childContaining(_ n: Int) -> (child: Int, index: Int) {
    if let k = elementsPerChild {
      let c = min(n / k, childCount - 1)
      return (c, n - c * k)
    }
    // The first child whose end is above n (upper bound over the end positions).
    let o = offsets!
    var lo = 0
    var hi = childCount - 1
    while lo < hi {
      let mid = (lo &+ hi) >> 1
      if o.uncheckedGet(mid) <= Int64(n) { lo = mid &+ 1 } else { hi = mid }
    }
    return (lo, n - start(ofChild: lo))
  }
}

/// Iterates the leaves of one old B+-tree in order, starting at the leaf that holds a given
/// element: the walk is lazy (one leaf at a time), bounded in depth and charged to a
/// ``DecodeBudget``, so cycles and shared sub-trees end in an error, not a hang.
struct LegacyLeafCursor {
  private let reader: ByteReader
  private let limits: Limits
  private let budget: DecodeBudget
  /// Inner nodes on the path to the current leaf, with the next child to visit.
  private var stack: [(node: LegacyInnerNode, next: Int)] = []
  /// The first leaf, found by the descent in `init`.
  private var first: ArrayNode?

  /// Where the descent stopped: the index of the requested element in the first leaf.
  private(set) var startIndex = 0

  /// Positions the cursor on the leaf holding element `start` of the tree at `root`.
  init(reader: ByteReader, root: Ref, startingAt start: Int = 0, limits: Limits, budget: DecodeBudget) throws(FormatError) {
    self.reader = reader
    self.limits = limits
    self.budget = budget
    var ref = root
    var n = start
    while true {
      let node = try visit(ref)
      guard node.isInner else {
        first = node
        startIndex = n
        return
      }
      let inner = try LegacyInnerNode(node)
      let (child, index) = inner.childContaining(n)
      stack.append((inner, child &+ 1))
      ref = try inner.child(child)
      n = index
    }
  }

  /// The next leaf in element order, nil after the last.
  mutating func next() throws(FormatError) -> ArrayNode? {
    if let leaf = first {
      first = nil
      return leaf
    }
    while let (inner, next) = stack.last {
      guard next < inner.childCount else {
        stack.removeLast()
        continue
      }
      stack[stack.count - 1].next = next &+ 1
      var node = try visit(try inner.child(next))
      // Descend to the leftmost leaf below this child.
      while node.isInner {
        let deeper = try LegacyInnerNode(node)
        stack.append((deeper, 1))
        node = try visit(try deeper.child(0))
      }
      return node
    }
    return nil
  }

  private func visit(_ ref: Ref) throws(FormatError) -> ArrayNode {
    budget.nodes -= 1
    guard budget.nodes >= 0 else {
      throw FormatError.limit("B+-tree walk visits more nodes than the file can hold (cycle?)", at: ref.rawValue)
    }
    guard stack.count <= limits.maxDepth else {
      throw FormatError.limit("B+-tree deeper than \(limits.maxDepth)", at: ref.rawValue)
    }
    return try ArrayNode(elements: reader, ref)
  }
}

/// How the leaves of one old B+-tree are read (realm-legacy-format.md §6).
enum LegacyLeafKind: Sendable, Hashable {
  /// Integers (also bools, DateTimes, links, refs of link lists and subtables, enum indexes,
  /// the seconds and nanoseconds of timestamps); `nullable` for `ArrayIntNull` leaves.
  case ints(nullable: Bool)
  /// `BasicArray<float|double>`.
  case floats(double: Bool, nullable: Bool)
  /// Short, medium or big strings.
  case strings(nullable: Bool)
  /// Small or big binaries.
  case binaries(nullable: Bool)
  /// Has-refs integer leaves (link-list refs, backlinks, subtable refs): element count only.
  case refs
}

/// One decoded leaf of an old B+-tree.
enum LegacyLeaf: Sendable {
  case ints(IntLeaf)
  case floats(FloatingLeaf)
  case strings(StringLeaf, nullable: Bool)
  case refs(ArrayNode)

  /// Decodes `node` as a leaf of `kind`.
  ///
  /// Realm Core splits B+-tree leaves at `REALM_MAX_BPNODE_SIZE` = 1000 elements (§5), so a
  /// larger leaf is damage; the bound also keeps a damaged count from multiplying output.
  init(_ node: ArrayNode, kind: LegacyLeafKind) throws(FormatError) {
    try self.init(decoding: node, kind: kind)
    guard count <= FormatConstants.maxBPNodeSize else {
      throw FormatError.corrupt(
        "B+-tree leaf at \(node.ref) holds \(count) elements, more than the \(FormatConstants.maxBPNodeSize) of a leaf", at: node.ref.rawValue)
    }
  }

  private init(decoding node: ArrayNode, kind: LegacyLeafKind) throws(FormatError) {
    switch kind {
    case .ints(let nullable): self = .ints(try IntLeaf(node, nullable: nullable))
    case .floats(let double, let nullable): self = .floats(try FloatingLeaf(node, double: double, nullable: nullable))
    case .strings(let nullable):
      self = .strings(try StringLeaf(node, isString: true, legacyNullable: nullable), nullable: nullable)
    case .binaries(let nullable):
      guard node.hasRefs else { throw FormatError.corrupt("node at \(node.ref) is not a binary leaf", at: node.ref.rawValue) }
      self = .strings(try StringLeaf(node, isString: false), nullable: nullable)
    case .refs:
      guard node.header.widthType == .bits else {
        throw FormatError.corrupt("node at \(node.ref) is not an integer leaf", at: node.ref.rawValue)
      }
      self = .refs(node)
    }
  }

  /// Number of elements.
  var count: Int {
    switch self {
    case .ints(let l): return l.count
    case .floats(let l): return l.count
    case .strings(let l, _): return l.count
    case .refs(let n): return n.count
    }
  }
}

/// Reads elements of one old B+-tree in order, a run at a time, across leaf boundaries.
struct LegacyLeafStream {
  private var cursor: LegacyLeafCursor
  private let kind: LegacyLeafKind
  private var leaf: LegacyLeaf?
  private var position = 0

  /// A stream over the tree at `root`, positioned at element `start`.
  init(reader: ByteReader, root: Ref, kind: LegacyLeafKind, startingAt start: Int = 0, limits: Limits, budget: DecodeBudget) throws(FormatError) {
    cursor = try LegacyLeafCursor(reader: reader, root: root, startingAt: start, limits: limits, budget: budget)
    self.kind = kind
    position = cursor.startIndex
  }

  /// Calls `body` with consecutive pieces of leaves holding the next `n` elements.
  ///
  /// - Throws: `corrupt` when the tree ends before `n` more elements.
  mutating func take(_ n: Int, _ body: (LegacyLeaf, Range<Int>) throws(FormatError) -> Void) throws(FormatError) {
    var remaining = n
    while remaining > 0 {
      guard let current = try currentLeaf() else {
        throw FormatError.corrupt("a column's B+-tree ends \(remaining) elements before the last row")
      }
      let k = min(current.count - position, remaining)
      try body(current, position..<(position + k))
      position += k
      remaining -= k
    }
  }

  /// Reads every remaining element (a whole link list or list of primitives), at most `limit`.
  mutating func takeAll(limit: Int, _ body: (LegacyLeaf, Range<Int>) throws(FormatError) -> Void) throws(FormatError) {
    var total = 0
    while let current = try currentLeaf() {
      let k = current.count - position
      guard total <= limit &- k else { throw FormatError.limit("a list has more than \(limit) elements") }
      try body(current, position..<(position + k))
      total += k
      position += k
    }
  }

  /// The leaf holding the next element (moving to the next leaf when this one is used up),
  /// nil at the end of the tree.
  private mutating func currentLeaf() throws(FormatError) -> LegacyLeaf? {
    while true {
      if let leaf, position < leaf.count { return leaf }
      let isFirst = leaf == nil
      guard let next = try cursor.next() else { return nil }
      let decoded = try LegacyLeaf(next, kind: kind)
      if isFirst {
        // The descent placed `position` by the parents' counts; the leaf must agree.
        guard position < decoded.count || (position == 0 && decoded.count == 0) else {
          throw FormatError.corrupt("a B+-tree leaf at \(next.ref) holds \(decoded.count) elements, fewer than its parent says", at: next.ref.rawValue)
        }
      } else {
        position = 0
      }
      leaf = decoded
    }
  }
}

/// Sizes of old B+-trees, from the root alone.
enum LegacyTreeSize {
  /// The number of elements of the tree at `root`: an inner root's total, or the element
  /// count of a root leaf of `kind`.
  static func count(reader: ByteReader, root: Ref, kind: LegacyLeafKind) throws(FormatError) -> Int {
    let node = try ArrayNode(elements: reader, root)
    if node.isInner { return try LegacyInnerNode(node).total }
    return try LegacyLeaf(node, kind: kind).count
  }
}
