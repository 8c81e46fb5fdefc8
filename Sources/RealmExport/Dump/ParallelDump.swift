import Dispatch
import RealmFormat
import RealmModel
import RealmQuery

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The parallel body of `dump` for formats that encode objects independently (JSON Lines, SQL),
/// with or without `--where`: chunks of consecutive objects (a few cluster leaves) are read,
/// filtered when a query selects the objects (`RealmQuery.ScanFilter`, as a query's scan
/// filters them), decoded and encoded on every core (`OrderedParallelMap`) while the calling
/// thread writes the finished chunks in order. A filtered dump costs the plain dump of the
/// objects it selects plus the test of every object.
///
/// Memory is bounded: at most ``window`` chunks are in flight (being encoded, or encoded and
/// waiting for their turn), each of about ``chunkObjects`` objects (up to 16 times that for
/// chunks a filter keeps few objects of), and the pages of the mapped file read so far are
/// given back every ``releaseObjects`` objects.
public struct ParallelDump: Sendable {
  /// Objects per chunk (whole leaves are added until a chunk has at least this many).
  public var chunkObjects = 4096
  /// Chunks in flight at most.
  public var window: Int
  /// Objects read between two releases of the file's resident pages
  /// (`ByteReader.releaseResidentPages()`: only a mapped file gives its pages back).
  public var releaseObjects = 1 << 19

  /// The number of processors available, at least 1.
  public static var processorCount: Int { OrderedParallelMap<Int, Int>.processorCount }

  /// A dump that keeps `2 × workers + 2` chunks in flight.
  public init(workers: Int = ParallelDump.processorCount) {
    window = 2 * workers + 2
  }

  /// One chunk's bytes, the objects read and the objects written.
  typealias Chunk = (bytes: [UInt8], objects: Int, written: Int)

  /// Writes every object of `table` (with `filter`, those it selects) through `writer`
  /// (whose current class is the table's), counting the objects read in `progress` chunk by
  /// chunk; a cancelled counter stops the dump with `ProgressCancelled`.
  ///
  /// - Throws: `FormatError` for a damaged file, `QueryEvaluationError` from the filter,
  ///   whatever the writer throws.
  public func writeObjects(
    of table: Table, in group: Group, encoder: any DumpChunkEncoder, matching filter: RealmQuery.ScanFilter? = nil,
    progress: ProgressCounter? = nil, to writer: inout some DumpWriter
  ) throws {
    // The leaves are opened on the workers: the walk on the calling thread reads only the
    // inner nodes of the tree.
    let pipeline = OrderedParallelMap<[LeafLocation], Chunk>(window: window) { leaves in
      try Self.encode(leaves, of: group, encoder: encoder, filter: filter)
    }
    // Workers may still run when an error ends the loop: wait for them before returning.
    defer { pipeline.waitForWorkers() }
    let smallest = max(chunkObjects, 1)
    let largest = smallest &* 16
    var target = smallest
    func write(_ chunk: Chunk) throws {
      // Larger chunks while a filter keeps fewer than 1 in 64 objects: fewer hand-offs.
      target = chunk.written &* 64 < chunk.objects ? min(target &* 2, largest) : smallest
      try writer.writeEncoded(chunk.bytes, objectCount: chunk.written)
      if let progress {
        progress.add(chunk.objects)
        if progress.isCancelled { throw ProgressCancelled() }
      }
    }
    var batch: [LeafLocation] = []
    var batchObjects = 0
    var sinceRelease = 0
    try group.forEachLeafLocation(in: table) { leaf in
      batch.append(leaf)
      batchObjects += leaf.expectedCount
      if batchObjects >= target {
        try pipeline.submit(batch, consume: write)
        batch.removeAll(keepingCapacity: true)
        sinceRelease += batchObjects
        batchObjects = 0
        if sinceRelease >= releaseObjects {
          group.reader.releaseResidentPages()
          sinceRelease = 0
        }
      }
    }
    if !batch.isEmpty { try pipeline.submit(batch, consume: write) }
    try pipeline.finish(consume: write)
  }

  /// Reads, filters and encodes the objects of `leaves` (one chunk), on any thread.
  static func encode(
    _ leaves: [LeafLocation], of group: Group, encoder: any DumpChunkEncoder, filter: RealmQuery.ScanFilter?
  ) throws -> Chunk {
    var session = filter?.makeSession()
    var objects = 0
    var written = 0
    // Each batch of a leaf, whole or the objects the filter selects, in key order.
    func eachBatch(_ body: (SelectionBatch?, ObjectRange, [Int]?) throws -> Void) throws {
      for (n, leaf) in leaves.enumerated() {
        guard let range = try group.objectRange(at: leaf) else { continue }
        objects &+= range.count
        guard session != nil else {
          written &+= range.count
          try body(nil, range, nil)
          continue
        }
        let ahead = (n &+ 1 < leaves.count ? leaves[n &+ 1] : nil, n &+ 2 < leaves.count ? leaves[n &+ 2] : nil)
        written &+= try session!.forEachSelection(in: range, ahead: ahead) { batch, selected in
          try body(batch, range, selected)
        }
      }
    }
    let bytes: [UInt8]
    if let columnar = encoder as? any DumpBatchEncoder {
      bytes = try columnar.encodeBatches { add in
        try eachBatch { selection, range, selected in
          if let selection, let selected {
            add(try selection.objectBatch(selected))
          } else {
            try group.forEachBatch(in: range) { add($0) }
          }
        }
      }
    } else {
      bytes = try encoder.encode { add in
        try eachBatch { selection, range, selected in
          if let selection, let selected {
            try selection.forEachObject(selected, columns: nil) { key, values in add(key, values) }
          } else {
            try group.forEachObject(in: range) { key, values in add(key, values) }
          }
        }
      }
    }
    return (bytes, objects, written)
  }
}
