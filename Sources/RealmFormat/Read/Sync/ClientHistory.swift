/// The sync client's history (group top slot 8 of a SyncClient file, Realm Core
/// `sync::ClientHistory`, history schema versions 10 to 12): enough of it to count the local
/// changes never uploaded.
///
/// The root array has 21 slots; the ones read here are the upload cursor (slot 7, the client
/// version up to which changes were uploaded), the changesets (slot 13, a binary B+-tree, one
/// entry per version) and their origin file idents (slot 16, an integer B+-tree: 0 for a change
/// made on this device). The history holds the changesets of the last `entries` versions, so
/// its first entry produced version `snapshot - entries + 1`. A pending upload is an entry of
/// local origin, not empty, at or after the upload cursor: what Realm Core's
/// `ClientHistory::no_pending_local_changes` and `get_local_changes` look at.
struct ClientHistory {
  /// Entries in the sync history.
  let entries: Int
  /// Local changesets not uploaded yet.
  let pendingUploads: Int

  /// The history schema versions of Realm Core 6 and later (10: stable IDs, 11: MongoDB Realm
  /// Sync's instruction format, 12: compressed changesets), whose root layout this reads.
  static let readableSchemaVersions = 10...12
  private static let uploadClientVersionSlot = 7
  private static let changesetsSlot = 13
  private static let originFileIdentsSlot = 16
  private static let minimumRootSize = 17

  /// Reads the history at `root` of a file at snapshot `snapshotVersion`.
  init(reader: ByteReader, limits: Limits, root rootRef: Ref, snapshotVersion: Int64) throws(FormatError) {
    if rootRef.isNull {
      // No history written yet: nothing to upload.
      entries = 0
      pendingUploads = 0
      return
    }
    let root = try ArrayNode(elements: reader, rootRef)
    guard root.hasRefs, root.count >= ClientHistory.minimumRootSize else {
      throw FormatError.corrupt(
        "the sync client history's root array has \(root.count) slots, expected 21", at: rootRef.rawValue)
    }
    let uploaded = try root.tagged(ClientHistory.uploadClientVersionSlot)
    let tree = BPlusTree(reader: reader, limits: limits)
    var nonEmpty: [Bool] = []
    let changesets = try root.ref(ClientHistory.changesetsSlot)
    if !changesets.isNull {
      try tree.forEachLeaf(root: changesets) { (leaf) throws(FormatError) in
        let blobs = try StringLeaf(leaf, isString: false)
        try ClientHistory.requireLeafSize(blobs.count, leaf, "changesets")
        for i in 0..<blobs.count { nonEmpty.append(try ClientHistory.isNonEmpty(blobs, i)) }
      }
    }
    var origins: [Int64] = []
    let originsRef = try root.ref(ClientHistory.originFileIdentsSlot)
    if !originsRef.isNull {
      try tree.forEachLeaf(root: originsRef) { (leaf) throws(FormatError) in
        guard !leaf.hasRefs else {
          throw FormatError.corrupt("a leaf of the sync history's origin file idents holds refs", at: leaf.ref.rawValue)
        }
        try ClientHistory.requireLeafSize(leaf.count, leaf, "origin file idents")
        for i in 0..<leaf.count { origins.append(try leaf.get(i)) }
      }
    }
    guard origins.count == nonEmpty.count else {
      throw FormatError.corrupt(
        "the sync client history has \(nonEmpty.count) changesets but \(origins.count) origin file idents",
        at: rootRef.rawValue)
    }
    let base = snapshotVersion - Int64(nonEmpty.count)
    guard base >= 0 else {
      throw FormatError.corrupt(
        "the sync client history has \(nonEmpty.count) changesets, more than the file's \(snapshotVersion) versions",
        at: rootRef.rawValue)
    }
    guard uploaded <= UInt64(snapshotVersion) else {
      throw FormatError.corrupt(
        "the sync client history's upload cursor (version \(uploaded)) is past the file's version \(snapshotVersion)",
        at: rootRef.rawValue)
    }
    let first = Int(max(Int64(uploaded), base) - base)
    var pending = 0
    for i in first..<nonEmpty.count where origins[i] == 0 && nonEmpty[i] { pending += 1 }
    entries = nonEmpty.count
    pendingUploads = pending
  }

  /// A B+-tree leaf holds at most 1000 elements; its count is not bounded by its bytes (a
  /// width-0 leaf claims 2^24 elements in 8), so without this bound the walk, which visits at
  /// most one node per 8 bytes of the file, could gather billions of entries from a small file.
  private static func requireLeafSize(_ count: Int, _ leaf: ArrayNode, _ what: String) throws(FormatError) {
    guard count <= FormatConstants.maxBPNodeSize else {
      throw FormatError.corrupt(
        "a leaf of the sync history's \(what) holds \(count) entries, more than the \(FormatConstants.maxBPNodeSize) a leaf can hold",
        at: leaf.ref.rawValue)
    }
  }

  /// True when changeset `i` holds bytes (an empty changeset is never uploaded).
  private static func isNonEmpty(_ leaf: StringLeaf, _ i: Int) throws(FormatError) -> Bool {
    if case .big(let node) = leaf.form {
      // A big blob may be chunked (over 16 MiB); only its first node is needed.
      guard case .ref(let r) = RefOrTagged(raw: node.uncheckedGet(i)) else { return false }
      return try ArrayNode(node.reader, r).count > 0
    }
    return (try leaf.bytes(i)?.count ?? 0) > 0
  }
}
