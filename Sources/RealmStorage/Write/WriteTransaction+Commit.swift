import RealmFormat
import RealmModel

/// The commit protocol (§8.2) and rollback.
extension WriteTransaction {
  /// File size granularity: files are kept at a page multiple (§1.5).
  static let pageSize = 4096

  /// Commits the transaction: the new snapshot has `tableNames` and `tables` in slots 0 and 1
  /// of a new group top array (§3.1), rebuilt free lists, the logical size and version + 1.
  ///
  /// History (§3.5): an in-realm history (type 2) is dropped (slot 8 = 0, type and schema
  /// version kept), because its changesets would not describe this change; Realm Core treats
  /// ref 0 as an empty history based at the current version (`InRealmHistory::
  /// update_from_ref_and_version`). Tops of 9 or more slots are written with 11 slots
  /// (an evacuation point in slot 11 is dropped), smaller ones with 7.
  ///
  /// Steps: write the free lists and top array past the end; grow the file to a page
  /// multiple; `fsync`; write `top_ref[1-s]` and `file_format[1-s]` (the file's format); `fsync`; flip the
  /// select bit; `fsync`. On an error before the flip the file is rolled back (the old
  /// version stays the file's); after the flip was issued it is left as it is.
  ///
  /// - Returns: the new top ref, version and size (for a dry run: what they would be).
  /// - Throws: ``StorageError`` with code `io`/`permissionDenied` for failed system calls,
  ///   `misuse` for inconsistent frees (overlapping or double frees), `corrupt` for a free
  ///   list that does not fit the file.
  @discardableResult
  public func commit(tableNames: Ref, tables: Ref) throws(StorageError) -> CommitResult {
    if state == .open, let deferredError {
      rollback()
      throw deferredError
    }
    try checkOpen()
    for ref in [tableNames, tables] where ref.isNull || ref.rawValue & 7 != 0 || ref.rawValue < 24 {
      throw StorageError.misuse("commit needs valid refs for table names and tables, got \(ref)")
    }
    do {
      let result = try performCommit(tableNames: tableNames, tables: tables)
      state = isDryRun ? .rolledBack : .committed
      finish()
      return result
    } catch {
      // What is on disk decides (an encrypted file's unwritten pages are dropped first).
      file.discardPendingWrites()
      if issuedFlip, (try? file.read(at: 23, count: 1)) != [header.flags] {
        // The flip may have happened: the new version may already be the file's, never undo it.
        state = .committed
        finish()
      } else {
        issuedFlip = false
        rollback()
      }
      throw error
    }
  }

  /// Abandons the transaction: nothing of it stays visible. Bytes appended past the old end
  /// are truncated away and the header is restored; nodes placed in free space were never
  /// written (they are held until the commit), so the file is byte for byte as before.
  public func abort() {
    guard state == .open else { return }
    rollback()
  }

  // MARK: - Private

  /// Before the first byte is written: a streaming-form file is converted in place as Realm
  /// does on every read-write open (§1.2), since appending moves the end of the file where
  /// the footer must be. Both steps keep the file valid at every moment.
  func prepareForWriting() throws(StorageError) {
    guard header.isStreaming, !convertedStreaming, !isDryRun else { return }
    let top = header.footerTop ?? 0
    convertedStreaming = true
    try file.write(le64(top), at: 8, stage: .streamingConversion)
    try file.write([header.formats[0]], at: 21, stage: .streamingConversion)
    try file.sync(stage: .streamingConversion)
    try file.write([header.flags | 1], at: 23, stage: .streamingConversion)
    try file.sync(stage: .streamingConversion)
    header.topRefs[1] = top
    header.formats[1] = header.formats[0]
    header.flags |= 1
  }

  private func performCommit(tableNames: Ref, tables: Ref) throws(StorageError) -> CommitResult {
    try prepareForWriting()
    let newVersion = oldTop.version + 1
    // The old top array, free lists and history leave the snapshot (§8.2 step 3).
    try free(oldTop.ref)
    for ref in oldTop.freeListRefs { try free(ref) }
    try free(oldTop.evacuationRef)
    if !oldTop.historyRef.isNull { try freeDeep(oldTop.historyRef) }

    let topSize = oldTop.size >= 9 ? 11 : 7
    let topBytes = NodeHeader(width: 64, count: topSize).byteSize
    func metadataSize(entries: Int) -> Int {
      3 * NodeHeader(width: 64, count: entries).byteSize + topBytes
    }

    var free = allocator.collectFree()
    if allocator.appendStart > oldTop.logicalSize {
      // Slack between the old logical and physical end (e.g. a streaming footer).
      free.append(
        FreeChunk(
          position: oldTop.logicalSize, length: allocator.appendStart - oldTop.logicalSize,
          version: 0))
    }
    let plan = try planMetadata(free: free, metadataSize: metadataSize)
    let list = plan.list
    let cursor = plan.position
    let arrayBytes = NodeHeader(width: 64, count: list.count).byteSize
    let newLogical = plan.logicalSize
    let positionsRef = cursor
    let lengthsRef = positionsRef + arrayBytes
    let versionsRef = lengthsRef + arrayBytes
    let newTopRef = versionsRef + arrayBytes
    var slots: [Int64] = [
      Int64(tableNames.rawValue), Int64(tables.rawValue), RefOrTagged.taggedRaw(UInt64(newLogical)),
      Int64(positionsRef), Int64(lengthsRef), Int64(versionsRef), RefOrTagged.taggedRaw(newVersion),
    ]
    if topSize == 11 {
      slots += [
        RefOrTagged.taggedRaw(oldTop.historyType), 0,
        RefOrTagged.taggedRaw(oldTop.historySchemaVersion),
        RefOrTagged.taggedRaw(oldTop.syncFileIdent),
      ]
    }
    let metadata =
      NodeEncoder.integerNode(list.map { Int64($0.position) }, width: 64)
      + NodeEncoder.integerNode(list.map { Int64($0.length) }, width: 64)
      + NodeEncoder.integerNode(list.map { Int64(bitPattern: $0.version) }, width: 64)
      + NodeEncoder.integerNode(slots, width: 64, hasRefs: true)
    let result = CommitResult(
      topRef: Ref(newTopRef), version: newVersion, logicalSize: newLogical, freeCount: list.count)
    if isDryRun { return result }
    try buffer.flush(to: file, stage: .nodes)
    // The nodes placed in old free space, written only now (§8.2 step 3 still comes first).
    for position in heldNodes.keys.sorted() {
      try withBytes(heldNodes[position]!) { (b) throws(StorageError) in try buffer.write(b, at: position, to: file, stage: .nodes) }
    }
    heldNodes.removeAll()
    try buffer.flush(to: file, stage: .nodes)
    try file.write(metadata, at: cursor, stage: .freeListsAndTop)
    try file.allocate(
      upTo: newLogical, currentSize: try file.currentSize(), stage: .freeListsAndTop)
    try file.sync(stage: .freeListsAndTop)

    // §8.2 step 4: publish in the unused slot, make it durable, then flip the select bit.
    let other = 1 - header.select
    try file.write(le64(UInt64(newTopRef)), at: 8 * other, stage: .headerSlot)
    wroteHeaderSlot = true
    // The snapshot keeps the file's format (an empty realm's 0 becomes 24).
    let format = header.currentFormat == 0 ? UInt8(WritableFileFormat.current.rawValue) : header.currentFormat
    try file.write([format], at: 20 + other, stage: .headerSlot)
    try file.sync(stage: .headerSlot)
    issuedFlip = true
    try file.write([header.flags ^ 1], at: 23, stage: .selectBit)
    try file.sync(stage: .selectBit)
    return result
  }

  /// Where the free lists and the top array go, the final free list and the logical size.
  ///
  /// The free lists describe the space around themselves, so their size depends on their
  /// placement. Placed at the start of a reusable free entry (`length > size`), they shrink
  /// that entry without changing the number of entries; otherwise they are appended and the
  /// rest of the last page becomes one more entry.
  private func planMetadata(
    free: [FreeChunk], metadataSize: (Int) -> Int
  ) throws(StorageError) -> (position: Int, list: [FreeChunk], logicalSize: Int) {
    let page = WriteTransaction.pageSize
    let end = allocator.cursor
    // 1. Into free space: the file grows only by what the nodes needed.
    var withTail = free
    let logical = (end + page - 1) / page * page
    if logical > end {
      withTail.append(FreeChunk(position: end, length: logical - end, version: 0))
    }
    var list = try normalized(withTail, logicalSize: logical)
    let size = metadataSize(list.count)
    let reuseOld = allocator.reusesOldSpace
    if let i = list.firstIndex(where: { chunk in
      let usable =
        chunk.position >= allocator.appendStart || (reuseOld && chunk.version < oldTop.version)
      let sectionEnd = (chunk.position / sectionSize + 1) * sectionSize
      return usable && chunk.length > size && chunk.position + size <= sectionEnd
    }) {
      let position = list[i].position
      list[i].position += size
      list[i].length -= size
      return (position, list, logical)
    }
    // 2. Appended: past the nodes (in the next section if it would straddle one).
    var appended = free
    var cursor = end
    let sectionEnd = (cursor / sectionSize + 1) * sectionSize
    if cursor + metadataSize(list.count + 3) > sectionEnd {
      appended.append(FreeChunk(position: cursor, length: sectionEnd - cursor, version: 0))
      cursor = sectionEnd
    }
    var appendedList = try normalized(appended, logicalSize: cursor)
    let entries = appendedList.count + 1
    let metadataEnd = cursor + metadataSize(entries)
    var newLogical = (metadataEnd + page - 1) / page * page
    if newLogical == metadataEnd { newLogical += page }
    appendedList.append(
      FreeChunk(position: metadataEnd, length: newLogical - metadataEnd, version: 0))
    return (cursor, appendedList, newLogical)
  }

  private func normalized(_ chunks: [FreeChunk], logicalSize: Int) throws(StorageError)
    -> [FreeChunk]
  {
    switch normalizeFreeList(chunks, logicalSize: logicalSize) {
    case .success(let list):
      guard list.count < 0xFF_FFFF else {
        throw StorageError.unsupported(
          path: path, "the free list would have \(list.count) entries, more than a node can hold")
      }
      return list
    case .failure(let error):
      throw StorageError.misuse(
        "the transaction's free space is inconsistent (\(error.detail)); a node was freed twice or is not a node"
      )
    }
  }

  /// Undoes everything written, in an order that keeps the old version readable at every
  /// moment. Best effort: a failing call here leaves a file that still selects the old version.
  func rollback() {
    state = .rolledBack
    buffer.discard()
    file.discardPendingWrites()
    defer { finish() }
    guard file.operationCount > 0 else { return }
    if file.isEncrypted {
      // The original pages go back whole (header, streaming form and all), byte for byte.
      try? file.restoreOriginalPages(stage: .rollback)
      if file.sizeChanged() { try? file.truncate(to: file.originalSize, stage: .rollback) }
      try? file.syncRaw(stage: .rollback)
      return
    }
    let other = 1 - header.select
    if wroteHeaderSlot {
      try? file.write(le64(originalHeader.topRefs[other]), at: 8 * other, stage: .rollback)
      try? file.write([originalHeader.formats[other]], at: 20 + other, stage: .rollback)
      try? file.sync(stage: .rollback)
    }
    if file.sizeChanged() {
      try? file.truncate(to: file.originalSize, stage: .rollback)
    }
    if convertedStreaming {
      // The footer is the end of the file again: clearing the select bit re-enters the
      // streaming form, then the slot-1 fields are restored.
      try? file.sync(stage: .rollback)
      try? file.write([originalHeader.flags], at: 23, stage: .rollback)
      try? file.sync(stage: .rollback)
      try? file.write(le64(originalHeader.topRefs[1]), at: 8, stage: .rollback)
      try? file.write([originalHeader.formats[1]], at: 21, stage: .rollback)
    }
    try? file.sync(stage: .rollback)
  }
}

/// The 8 little-endian bytes of `value`.
func le64(_ value: UInt64) -> [UInt8] {
  (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
