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
  /// and refs, bounded by the file's size (``TreeWalk``).
  static func checkTree(reader: ByteReader, top: GroupTopState, path: String) throws(StorageError) {
    guard !top.ref.isNull else { return }
    do throws(FormatError) {
      var walk = TreeWalk(reader: reader, logicalSize: top.logicalSize)
      try walk.run(from: top.ref.rawValue)
      for chunk in top.freeChunks where chunk.length > 0 {
        // Chunks past the logical size cover no node (the free list's own checks judge them).
        let first = max(chunk.position, 0) >> 3
        let last = min(chunk.end, top.logicalSize + 7) >> 3
        guard first < last else { continue }
        if let word = walk.covered.firstSet(first, last) {
          throw FormatError.corrupt(
            "free-list entry \(chunk) covers the node at or before 0x\(String(word << 3, radix: 16)), which is in use",
            at: word << 3)
        }
      }
    } catch {
      throw StorageError.corrupt(path: path, error)
    }
  }
}
