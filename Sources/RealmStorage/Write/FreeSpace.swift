import RealmFormat

/// A free-list entry (§3.4): `length` bytes at `position`, freed in snapshot `version`
/// (0 = free for anybody).
public struct FreeChunk: Sendable, Hashable, CustomStringConvertible {
  /// First byte of the chunk.
  public var position: Int
  /// Length in bytes (a positive multiple of 8).
  public var length: Int
  /// The snapshot version that freed it.
  public var version: UInt64

  /// One past the last byte (for validated chunks; wraps instead of trapping on hostile ones).
  public var end: Int { position &+ length }

  public var description: String { "\(length) bytes at \(position) (version \(version))" }
}

/// How a write transaction places new nodes.
public enum FreeSpacePolicy: Sendable, Hashable {
  /// Only at the end of the file: an aborted transaction leaves the file byte-for-byte intact.
  case appendOnly
  /// Reuse free-list chunks freed before the current snapshot's parent (version <
  /// current version), then append. Keeps files from growing on every commit.
  case reuseOlderFreeSpace
}

/// Realm's allocator keeps nodes inside 64 MiB sections (§1.6).
let sectionSize = 1 << 26

/// Places new nodes for one transaction and collects the chunks the commit lists as free.
///
/// Invariant (crash safety, §8.2): nothing returned by ``allocate(_:)`` overlaps a node
/// reachable from the current snapshot, because positions come only from free-list chunks of
/// the current snapshot or from space past the old end of the file; chunks released in this
/// transaction (``release(_:)``) are still reachable until the commit and are never reused.
struct SpaceAllocator {
  /// Free-list entries of the current snapshot that may be reused now (sorted by position).
  private var reusable: [FreeChunk]
  /// Free-list entries carried over unchanged.
  private var kept: [FreeChunk]
  /// Space released in this transaction (and alignment gaps).
  private(set) var released: [FreeChunk] = []
  /// Where appending started: past the old logical size and the old physical end.
  let appendStart: Int
  /// Next append position.
  private(set) var cursor: Int
  /// Positions of nodes placed in reused chunks (so freeing them again is recognised).
  private(set) var placedInReusedSpace: Set<Int> = []
  /// True when old free-list entries may be reused (``FreeSpacePolicy/reuseOlderFreeSpace``).
  let reusesOldSpace: Bool
  private var nextFit = 0
  private var smallestFailedSize = Int.max

  init(oldFree: [FreeChunk], reuseBelowVersion: UInt64?, appendStart: Int) {
    var reusable: [FreeChunk] = []
    var kept: [FreeChunk] = []
    for chunk in oldFree where chunk.length > 0 {
      if let limit = reuseBelowVersion, chunk.version < limit {
        reusable.append(chunk)
      } else {
        kept.append(chunk)
      }
    }
    self.reusable = reusable
    self.kept = kept
    self.appendStart = appendStart
    self.cursor = appendStart
    reusesOldSpace = reuseBelowVersion != nil
  }

  /// True when `position` was handed out by this allocator.
  func isNew(_ position: Int) -> Bool {
    position >= appendStart || placedInReusedSpace.contains(position)
  }

  /// A position for `size` bytes (a multiple of 8).
  mutating func allocate(_ size: Int) -> Int {
    if let position = takeFromReusable(size) { return position }
    return append(size)
  }

  /// Appends `size` bytes at the end, moving to the next section if the node would straddle one.
  mutating func append(_ size: Int) -> Int {
    let sectionEnd = (cursor / sectionSize + 1) * sectionSize
    if size <= sectionSize, cursor + size > sectionEnd {
      released.append(FreeChunk(position: cursor, length: sectionEnd - cursor, version: 0))
      cursor = sectionEnd
    }
    let position = cursor
    cursor += size
    return position
  }

  /// Bytes that will be appended by `append(size)` including a section gap, for planning.
  func appendWouldNeedGap(_ size: Int) -> Bool {
    let sectionEnd = (cursor / sectionSize + 1) * sectionSize
    return size <= sectionSize && cursor + size > sectionEnd
  }

  /// Records a chunk that becomes free with the new snapshot.
  mutating func release(_ chunk: FreeChunk) {
    released.append(chunk)
  }

  /// All free chunks of the new snapshot before the commit's own metadata: unused reusable
  /// space, kept entries and released space, sorted by position.
  func collectFree() -> [FreeChunk] {
    var all = kept
    all.reserveCapacity(kept.count + reusable.count + released.count + 2)
    all.append(contentsOf: reusable.lazy.filter { $0.length > 0 })
    all.append(contentsOf: released)
    all.sort { $0.position < $1.position }
    return all
  }

  private mutating func takeFromReusable(_ size: Int) -> Int? {
    guard !reusable.isEmpty, size < smallestFailedSize else { return nil }
    let count = reusable.count
    // Next fit: continue where the last allocation succeeded (bounded: one pass).
    for step in 0..<count {
      let i = (nextFit + step) % count
      let chunk = reusable[i]
      guard chunk.length >= size else { continue }
      let sectionEnd = (chunk.position / sectionSize + 1) * sectionSize
      guard chunk.position + size <= sectionEnd else { continue }
      reusable[i].position += size
      reusable[i].length -= size
      nextFit = i
      placedInReusedSpace.insert(chunk.position)
      return chunk.position
    }
    smallestFailedSize = size
    return nil
  }
}

/// Sorts, checks and merges free-list entries: every chunk 8-aligned and non-negative, inside
/// `[24, logicalSize)`, no overlaps; touching chunks with equal versions are merged.
func normalizeFreeList(
  _ chunks: [FreeChunk], logicalSize: Int
) -> Result<[FreeChunk], FormatError> {
  var sorted = chunks
  sorted.sort { $0.position < $1.position }
  var out: [FreeChunk] = []
  out.reserveCapacity(sorted.count)
  var previousEnd = 24
  for chunk in sorted {
    // Empty entries carry no space (Realm's in-memory merging can leave them); drop them.
    if chunk.length == 0 { continue }
    guard chunk.length > 0, chunk.length & 7 == 0, chunk.position & 7 == 0 else {
      return .failure(.corrupt("free-list entry \(chunk) is not 8-aligned with a positive length"))
    }
    guard chunk.position >= previousEnd else {
      return .failure(
        .corrupt("free-list entry \(chunk) overlaps the space before it (ending at \(previousEnd))")
      )
    }
    guard chunk.position <= logicalSize &- chunk.length else {
      return .failure(
        .corrupt("free-list entry \(chunk) extends past the logical file size \(logicalSize)"))
    }
    previousEnd = chunk.end
    if let last = out.last, last.end == chunk.position, last.version == chunk.version {
      out[out.count - 1].length += chunk.length
    } else {
      out.append(chunk)
    }
  }
  return .success(out)
}
