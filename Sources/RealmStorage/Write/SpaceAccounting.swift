import RealmFormat

/// Checks the space accounting of a file (§8.4, Realm's `MemUsageVerifier`): the header, the
/// nodes reachable from the live top array and the free-list entries cover
/// `[0, logical size)` exactly once, with no gap and no overlap.
public enum SpaceAccounting {
  /// What the check found on a valid file.
  public struct Report: Sendable, Hashable {
    /// The live top ref.
    public var topRef: Ref
    /// The logical file size (slot 2 of the top array).
    public var logicalSize: Int
    /// The snapshot version (slot 6, or 1).
    public var version: UInt64
    /// Number of reachable nodes.
    public var nodeCount: Int
    /// Bytes in reachable nodes.
    public var nodeBytes: Int
    /// Number of free-list entries.
    public var freeCount: Int
    /// Bytes listed as free.
    public var freeBytes: Int
  }

  /// Verifies the file in `reader` (its whole content).
  ///
  /// - Throws: `FormatError` naming the first gap, overlap or invalid node.
  public static func verify(_ reader: ByteReader) throws(FormatError) -> Report {
    let header = try HeaderState(reader: reader)
    let topRef = Ref(try checkedInt(header.currentTop, "top ref"))
    guard !topRef.isNull else {
      return Report(
        topRef: topRef, logicalSize: 24, version: 1, nodeCount: 0, nodeBytes: 0, freeCount: 0,
        freeBytes: 0)
    }
    let top = try GroupTopState(reader: reader, ref: topRef)
    var ranges: [(start: Int, end: Int, isFree: Bool)] = []
    var nodeBytes = 0
    try NodeWalk(reader: reader).walk(topRef) { (ref, size) throws(FormatError) in
      ranges.append((ref.rawValue, ref.rawValue + size, false))
      nodeBytes += size
    }
    let nodeCount = ranges.count
    var freeBytes = 0
    for chunk in top.freeChunks where chunk.length != 0 {
      guard chunk.length > 0, chunk.length & 7 == 0, chunk.position & 7 == 0 else {
        throw FormatError.corrupt(
          "free-list entry \(chunk) is not 8-aligned with a positive length")
      }
      ranges.append((chunk.position, try checkedAdd(chunk.position, chunk.length), true))
      freeBytes += chunk.length
    }
    ranges.sort { $0.start < $1.start }
    var covered = 24
    for r in ranges {
      let what = r.isFree ? "free chunk" : "node"
      guard r.start >= covered else {
        throw FormatError.corrupt(
          "\(what) [\(r.start), \(r.end)) overlaps the space before it (covered up to \(covered))",
          at: r.start)
      }
      guard r.start == covered else {
        throw FormatError.corrupt(
          "bytes [\(covered), \(r.start)) are neither a reachable node nor free", at: covered)
      }
      covered = r.end
    }
    guard covered == top.logicalSize else {
      throw FormatError.corrupt(
        "nodes and free space end at \(covered) but the logical file size is \(top.logicalSize)",
        at: covered)
    }
    return Report(
      topRef: topRef, logicalSize: top.logicalSize, version: top.version, nodeCount: nodeCount,
      nodeBytes: nodeBytes, freeCount: top.freeChunks.count, freeBytes: freeBytes)
  }
}
