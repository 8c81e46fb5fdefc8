/// Walks the B+-trees that hold collections, backlink lists and index lists (§6.13).
///
/// Corresponds to `realm::BPlusTree`. A node with `is_inner = 0` is a leaf of the element
/// class; an inner node is `[elems_per_child or offsets, child..., tagged total]`.
struct BPlusTree: Sendable {
  let reader: ByteReader
  let limits: Limits

  /// Calls `body` with every leaf of the tree at `root`, in element order.
  ///
  /// The walk is bounded by depth and by a visit budget (no valid tree has more nodes than the
  /// file has 8-byte words), so cycles and shared subtrees end in an error, not a hang.
  func forEachLeaf(root: Ref, _ body: (ArrayNode) throws(FormatError) -> Void) throws(FormatError) {
    try forEachLeaf(root: root, budget: DecodeBudget(embeddedObjects: 0, nodes: reader.count / 8 + 1, reading: .unlimited), body)
  }

  /// Calls `body` with every leaf, charging every node visited to `budget`.
  func forEachLeaf(root: Ref, budget: DecodeBudget, _ body: (ArrayNode) throws(FormatError) -> Void) throws(FormatError) {
    try visit(root, level: 0, budget: budget, body)
  }

  private func visit(_ ref: Ref, level: Int, budget: DecodeBudget, _ body: (ArrayNode) throws(FormatError) -> Void) throws(FormatError) {
    budget.nodes -= 1
    guard budget.nodes >= 0 else { throw FormatError.limit("B+-tree walk visits more nodes than the file can hold (cycle?)", at: ref.rawValue) }
    guard level <= limits.maxDepth else { throw FormatError.limit("B+-tree deeper than \(limits.maxDepth)", at: ref.rawValue) }
    let node = try ArrayNode(elements: reader, ref)
    guard node.isInner else {
      try body(node)
      return
    }
    guard node.hasRefs, node.count >= 3 else {
      throw FormatError.corrupt("inner B+-tree node at \(ref) has \(node.count) slots, expected at least 3", at: ref.rawValue)
    }
    for i in 1..<(node.count - 1) {
      let child = try node.ref(i)
      guard !child.isNull else { throw FormatError.corrupt("inner B+-tree node at \(ref) has a null child \(i)", at: ref.rawValue) }
      try visit(child, level: level + 1, budget: budget, body)
    }
  }
}
