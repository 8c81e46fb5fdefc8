/// Coalesces consecutive node writes into large `pwrite` calls (appended nodes are
/// contiguous), keeping memory bounded by `capacity`.
struct WriteBuffer {
  let capacity: Int
  private(set) var start = 0
  private var bytes: [UInt8] = []

  init(capacity: Int) {
    self.capacity = max(capacity, 8)
    bytes.reserveCapacity(self.capacity)
  }

  /// Bytes not yet written.
  var pendingCount: Int { bytes.count }

  /// Queues `data` for `offset`, flushing first when it does not continue the pending run.
  mutating func write(
    _ data: UnsafeRawBufferPointer, at offset: Int, to file: RealmFileHandle, stage: CommitStage
  ) throws(StorageError) {
    if !bytes.isEmpty, offset != start + bytes.count || bytes.count + data.count > capacity {
      try flush(to: file, stage: stage)
    }
    if data.count >= capacity {
      try file.write(data, at: offset, stage: stage)
      return
    }
    if bytes.isEmpty { start = offset }
    bytes.append(contentsOf: data)
  }

  /// Writes the pending run.
  mutating func flush(to file: RealmFileHandle, stage: CommitStage) throws(StorageError) {
    guard !bytes.isEmpty else { return }
    try withBytes(bytes) { (b) throws(StorageError) in try file.write(b, at: start, stage: stage) }
    bytes.removeAll(keepingCapacity: true)
  }

  /// The pending bytes at `offset..<offset+count`, if they are all still in the buffer.
  func pending(at offset: Int, count: Int) -> [UInt8]? {
    guard offset >= start, offset + count <= start + bytes.count else { return nil }
    return Array(bytes[(offset - start)..<(offset - start + count)])
  }

  /// Drops pending bytes (abort).
  mutating func discard() { bytes.removeAll(keepingCapacity: true) }
}
