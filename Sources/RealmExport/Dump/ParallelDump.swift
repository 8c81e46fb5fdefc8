import Dispatch
import RealmFormat
import RealmModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The parallel body of `dump` for formats that encode objects independently (JSON Lines, SQL):
/// chunks of consecutive objects (a few cluster leaves, `ObjectRange`) are decoded and
/// encoded on every core (`OrderedParallelMap`) while the calling thread writes the finished
/// chunks in order.
///
/// Memory is bounded: at most ``window`` chunks are in flight (being encoded, or encoded and
/// waiting for their turn), each of about ``chunkObjects`` objects.
public struct ParallelDump: Sendable {
  /// Objects per chunk (whole ranges are added until a chunk has at least this many).
  public var chunkObjects = 4096
  /// Chunks in flight at most.
  public var window: Int

  /// The number of processors available, at least 1.
  public static var processorCount: Int { OrderedParallelMap<Int, Int>.processorCount }

  /// A dump that keeps `2 × workers + 2` chunks in flight.
  public init(workers: Int = ParallelDump.processorCount) {
    window = 2 * workers + 2
  }

  /// Writes every object of `table` through `writer` (whose current class is the table's),
  /// counting them in `progress` chunk by chunk; a cancelled counter stops the dump with
  /// `ProgressCancelled`.
  public func writeObjects(
    of table: Table, in group: Group, encoder: any DumpChunkEncoder, progress: ProgressCounter? = nil,
    to writer: inout some DumpWriter
  ) throws {
    let pipeline = OrderedParallelMap<[ObjectRange], (bytes: [UInt8], objects: Int)>(window: window) { ranges in
      let objects = ranges.reduce(0) { $0 + $1.count }
      if let columnar = encoder as? any DumpBatchEncoder {
        return (try columnar.encodeBatches { add in
          for r in ranges { try group.forEachBatch(in: r) { add($0) } }
        }, objects)
      }
      return (try encoder.encode { add in
        for r in ranges { try group.forEachObject(in: r) { key, values in add(key, values) } }
      }, objects)
    }
    // Workers may still run when an error ends the loop: wait for them before returning.
    defer { pipeline.waitForWorkers() }
    func write(_ chunk: (bytes: [UInt8], objects: Int)) throws {
      try writer.writeEncoded(chunk.bytes, objectCount: chunk.objects)
      if let progress {
        progress.add(chunk.objects)
        if progress.isCancelled { throw ProgressCancelled() }
      }
    }
    var batch: [ObjectRange] = []
    var batchObjects = 0
    try group.forEachObjectRange(in: table) { range in
      batch.append(range)
      batchObjects += range.count
      if batchObjects >= chunkObjects {
        try pipeline.submit(batch, consume: write)
        batch.removeAll(keepingCapacity: true)
        batchObjects = 0
      }
    }
    if !batch.isEmpty { try pipeline.submit(batch, consume: write) }
    try pipeline.finish(consume: write)
  }
}
