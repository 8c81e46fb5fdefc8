import Dispatch
import RealmFormat
import RealmJSON
import RealmStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The parallel body of `dump` for formats that encode objects independently (JSON Lines, SQL):
/// chunks of consecutive objects (a few cluster leaves, ``ObjectRange``) are decoded and
/// encoded on every core while the calling thread writes the finished chunks in order.
///
/// Memory is bounded: at most ``window`` chunks are in flight (being encoded, or encoded and
/// waiting for their turn), each of about ``chunkObjects`` objects.
struct ParallelDump {
  /// Objects per chunk (whole ranges are added until a chunk has at least this many).
  var chunkObjects = 4096
  /// Chunks in flight at most.
  var window: Int

  /// The number of processors available, at least 1.
  static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  init(workers: Int = ParallelDump.processorCount) {
    window = 2 * workers + 2
  }

  /// One chunk's result, filled by a worker and read by the writer after `done` is signalled.
  private final class Slot: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var result: Result<[UInt8], any Error> = .success([])
    var objects = 0
  }

  /// Writes every object of `table` through `writer` (whose current class is the table's),
  /// counting them in `progress` chunk by chunk; a cancelled counter stops the dump with
  /// ``ProgressCancelled``.
  func writeObjects(
    of table: Table, in group: Group, encoder: any DumpChunkEncoder, progress: ProgressCounter? = nil,
    to writer: inout some DumpWriter
  ) throws {
    let tasks = DispatchGroup()
    // Workers may still run when an error ends the loop: wait for them before returning.
    defer { tasks.wait() }
    var pending: [Slot] = []
    pending.reserveCapacity(window)
    var written = 0
    func writeOldest() throws {
      let slot = pending.removeFirst()
      slot.done.wait()
      try writer.writeEncoded(try slot.result.get(), objectCount: slot.objects)
      written += slot.objects
      if let progress {
        progress.add(slot.objects)
        if progress.isCancelled { throw ProgressCancelled() }
      }
    }
    func dispatch(_ ranges: [ObjectRange]) throws {
      if pending.count >= window { try writeOldest() }
      let slot = Slot()
      slot.objects = ranges.reduce(0) { $0 + $1.count }
      pending.append(slot)
      DispatchQueue.global().async(group: tasks) {
        slot.result = Result {
          if let columnar = encoder as? any DumpBatchEncoder {
            return try columnar.encodeBatches { add in
              for r in ranges { try group.forEachBatch(in: r) { add($0) } }
            }
          }
          return try encoder.encode { add in
            for r in ranges { try group.forEachObject(in: r) { key, values in add(key, values) } }
          }
        }
        slot.done.signal()
      }
    }
    var batch: [ObjectRange] = []
    var batchObjects = 0
    try group.forEachObjectRange(in: table) { range in
      batch.append(range)
      batchObjects += range.count
      if batchObjects >= chunkObjects {
        try dispatch(batch)
        batch.removeAll(keepingCapacity: true)
        batchObjects = 0
      }
    }
    if !batch.isEmpty { try dispatch(batch) }
    while !pending.isEmpty { try writeOldest() }
  }
}
