import RealmFormat

extension WriteTransaction {
  /// Checks, before a transaction writes anything, that the file's nodes form a tree that can
  /// be edited in place: every node reachable from the top is reached once (no ref to an
  /// ancestor or to itself, no node shared by two parents), lies inside the logical size, and
  /// overlaps neither another node nor the file's free space.
  ///
  /// A transaction frees the nodes it replaces and writes new ones into free space, so on a
  /// file that breaks these rules it would free a node twice or overwrite a live node. No
  /// Realm file does; a damaged one is refused here, while it is still untouched (a refusal
  /// later, after nodes went into free space, would leave those bytes changed), and a node
  /// freed twice afterwards is the caller's mistake (`misuse`). One walk of the nodes' headers
  /// and refs, bounded like every walk (`NodeWalk`).
  static func checkTree(reader: ByteReader, top: GroupTopState, path: String) throws(StorageError) {
    guard !top.ref.isNull else { return }
    // One bit per 8-byte position: refs are 8-aligned, and nodes lie inside the logical size.
    var visited = [UInt64](repeating: 0, count: top.logicalSize / 512 + 1)
    var extents: [(position: Int, end: Int)] = []
    do throws(FormatError) {
      var walk = NodeWalk(reader: reader)
      walk.maxNodes = max(1, top.logicalSize / 8)
      try walk.walk(top.ref) { (ref, size) throws(FormatError) in
        guard ref.rawValue <= top.logicalSize - size else {
          throw FormatError.corrupt("a node extends past the logical file size \(top.logicalSize)", at: ref.rawValue)
        }
        guard ref.rawValue & 7 == 0 else {
          throw FormatError.corrupt("a ref is not 8-byte aligned", at: ref.rawValue)
        }
        let slot = ref.rawValue >> 3
        let bit: UInt64 = 1 << UInt64(slot & 63)
        guard visited[slot >> 6] & bit == 0 else {
          throw FormatError.corrupt(
            "a node is reached twice from the top: a ref to its own ancestor or a node shared by two parents",
            at: ref.rawValue)
        }
        visited[slot >> 6] |= bit
        extents.append((ref.rawValue, ref.rawValue + size))
      }
      extents.sort { $0.position < $1.position }
      for (a, b) in zip(extents, extents.dropFirst()) where b.position < a.end {
        throw FormatError.corrupt("the node at 0x\(String(b.position, radix: 16)) overlaps the node before it", at: b.position)
      }
      // Both lists are sorted: one merge finds a free chunk over a node.
      let free = top.freeChunks.filter { $0.length > 0 }.sorted { $0.position < $1.position }
      var n = 0
      for chunk in free {
        while n < extents.count, extents[n].end <= chunk.position { n += 1 }
        if n < extents.count, extents[n].position < chunk.end {
          throw FormatError.corrupt(
            "free-list entry \(chunk) covers the node at 0x\(String(extents[n].position, radix: 16)), which is in use",
            at: extents[n].position)
        }
      }
    } catch {
      throw StorageError.corrupt(path: path, error)
    }
  }
}
