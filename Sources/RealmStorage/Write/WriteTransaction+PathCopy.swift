import RealmFormat

/// Path copying (§8.2 step 1): changing a node means writing new copies of it and of every
/// ancestor up to the group top array.
extension WriteTransaction {
  /// One step of a path from an ancestor down to a node: element `index` of the has-refs
  /// array `node` (of the current snapshot) refers to the next step (or to the node being
  /// replaced).
  public typealias PathStep = (node: Ref, index: Int)

  /// Copies the integer array at `ref` with some elements changed, frees the original and
  /// returns the copy's ref. `ref` may be a node of the current snapshot or one written in
  /// this transaction (e.g. an array patched once per table).
  ///
  /// The copy keeps the node's flags and width; a has-refs array is widened when a new value
  /// does not fit (refs past 2^31 need width 64), while a plain integer array whose width
  /// carries meaning (nullable integers, §6.1) is refused instead.
  ///
  /// - Throws: ``StorageError/Code/misuse`` for an index out of range, a node that is not a
  ///   bit-packed integer array, or a value too wide for a plain array.
  public func copy(_ ref: Ref, setting changes: [(index: Int, value: Int64)]) throws(StorageError)
    -> Ref
  {
    let node: ArrayNode
    // A node of this transaction (patched again) is decoded from its bytes at a valid offset.
    let newBytes = allocator.isNew(ref.rawValue) ? try newNodeBytes(ref) : nil
    do throws(FormatError) {
      if let newBytes {
        node = try ArrayNode(
          ByteReader(bytes: [UInt8](repeating: 0, count: 24) + newBytes), Ref(24))
      } else {
        node = try ArrayNode(reader, ref)
      }
    } catch {
      throw StorageError.corrupt(path: path, error)
    }
    guard node.header.widthType == .bits else {
      throw StorageError.misuse("copy(setting:) on node \(ref), which is not an integer array")
    }
    var values = (0..<node.count).map { node.uncheckedGet($0) }
    var width = node.width
    for change in changes {
      guard change.index >= 0, change.index < values.count else {
        throw StorageError.misuse(
          "index \(change.index) is out of range for node \(ref) with \(values.count) elements")
      }
      values[change.index] = change.value
      let needed = NodeEncoder.bitWidth(change.value)
      if needed > width {
        guard node.hasRefs else {
          throw StorageError.misuse(
            "value \(change.value) does not fit the \(width)-bit elements of node \(ref)")
        }
        width = needed
      }
    }
    let bytes = NodeEncoder.integerNode(
      values, width: width, hasRefs: node.hasRefs, isInner: node.isInner, contextFlag: node.contextFlag)
    let copy = try allocate(bytes)
    try free(ref)
    return copy
  }

  /// The bytes of a node written in this transaction (held in memory, from the write buffer or the file).
  public func newNodeBytes(_ ref: Ref) throws(StorageError) -> [UInt8] {
    guard allocator.isNew(ref.rawValue) else {
      throw StorageError.misuse(
        "newNodeBytes(\(ref)) on a node that was not written in this transaction")
    }
    let size = try nodeSize(ref)
    if let node = heldNodes[ref.rawValue] { return node }
    if let pending = buffer.pending(at: ref.rawValue, count: size) { return pending }
    try buffer.flush(to: file, stage: .nodes)
    return try file.read(at: ref.rawValue, count: size)
  }

  /// Replaces the node at the end of `path` with `newNode`: copies every array on the path
  /// with its element pointing to the new child, frees the originals, and returns the new ref
  /// of `path[0].node`. The replaced node itself is not freed (use ``free(_:)``).
  ///
  /// ```swift
  /// // Rename a property: group tables -> table top -> spec -> names.
  /// let tables = try tx.replace(
  ///   along: [(node: tablesRef, index: tableIndex), (node: tableTop, index: 0), (node: spec, index: 1)],
  ///   with: newNamesRef)
  /// try tx.commit(tableNames: namesRef, tables: tables)
  /// ```
  public func replace(along path: [PathStep], with newNode: Ref) throws(StorageError) -> Ref {
    var child = newNode
    for step in path.reversed() {
      child = try copy(step.node, setting: [(step.index, Int64(child.rawValue))])
    }
    return child
  }
}
