import RealmModel
/// The structural integrity check behind `realmctl open --check` (§8.4 and more).
extension Group {
  /// Walks every node reachable from the top array and reports structural problems: refs out
  /// of range or misaligned, nodes reachable twice or overlapping, space not exactly covered by
  /// nodes and free lists (§8.4), malformed free lists, cluster leaves whose column leaves do
  /// not hold one value per object, object keys out of order, wrong sub-tree counts, backlinks
  /// that do not match the forward links (§4.8, §6.12), embedded objects without exactly one
  /// parent, and primary keys without a search index (format >= 22). Files of formats 2-9
  /// get the checks of their own layout (`checkLegacy`).
  ///
  /// The work is bounded: every node is visited at most once in the space walk and every tree
  /// walk has a visit budget, so a hostile file cannot make the check hang.
  ///
  /// - Parameter maxProblems: reporting stops after this many problems.
  /// - Returns: the problems found, empty for a sound file.
  public func check(maxProblems: Int = 1000) -> [IntegrityProblem] {
    var log = ProblemLog(limit: maxProblems)
    guard !topRef.isNull else { return [] }
    checkSpace(&log)
    if let legacy {
      checkLegacy(legacy, &log)
      return log.problems
    }
    for table in tables {
      checkClusters(of: table, root: table.clusterRoot, tombstones: false, &log)
      if !table.tombstoneRoot.isNull {
        checkClusters(of: table, root: table.tombstoneRoot, tombstones: true, &log)
      }
      if fileFormat >= 22, let pk = table.primaryKey, let column = table.column(key: pk), !column.hasSearchIndex {
        log.add(.missingPrimaryKeyIndex, at: table.ref.rawValue, "primary key '\(column.name)' of table '\(table.name)' has no search index")
      }
    }
    checkBacklinks(&log)
    return log.problems
  }

  /// A range of the file: a reachable node or a free chunk.
  private struct Span {
    var start: Int
    var size: Int
    var isFree: Bool
    var end: Int { start &+ size }
    var label: String { isFree ? "free chunk at 0x\(String(start, radix: 16))" : "node at 0x\(String(start, radix: 16))" }
  }

  /// Space accounting: reachable nodes plus free chunks must tile `[24, logical size)`.
  private func checkSpace(_ log: inout ProblemLog) {
    let top = topRef.rawValue
    var spans: [Span] = []
    // One bit per 8-byte word of [0, logical size): refs are 8-aligned and below it.
    var visited = [UInt64](repeating: 0, count: logicalSize / 512 + 1)
    var stack: [(ref: Int, parent: Int)] = [(top, 0)]
    var budget = reader.count / 8 + 1
    // The reachable nodes of a sound file never overlap, so their sizes add up to at most the
    // logical size. Refs into the middle of a large node (each read as a node of its own) would
    // otherwise make the walk scan the same bytes once per such ref: quadratic in the file.
    var bytesLeft = logicalSize
    // Whether every reachable node was visited (the space accounting is meaningful only then).
    var complete = true
    func origin(_ parent: Int) -> String { parent == 0 ? "the header" : "node at 0x\(String(parent, radix: 16))" }
    while let (ref, parent) = stack.popLast() {
      guard ref & 7 == 0, ref >= FileHeader.size, ref < logicalSize else {
        log.add(.invalidRef, at: parent, "\(origin(parent)) refers to 0x\(String(ref, radix: 16)), which is misaligned or outside [24, \(logicalSize))")
        continue
      }
      let word = ref >> 3
      let (slot, bit) = (word >> 6, UInt64(1) << UInt64(word & 63))
      guard visited[slot] & bit == 0 else {
        log.add(.sharedNode, at: ref, "node at 0x\(String(ref, radix: 16)) is reachable more than once (again from \(origin(parent)))")
        continue
      }
      visited[slot] |= bit
      budget -= 1
      guard budget >= 0 else {
        log.add(.limit, at: ref, "the node walk visited more nodes than the file can hold")
        complete = false
        break
      }
      let node: ArrayNode
      do { node = try ArrayNode(reader, Ref(ref)) } catch {
        log.add(error, "node at 0x\(String(ref, radix: 16)) (from \(origin(parent))) cannot be read")
        continue
      }
      let size = node.header.byteSize
      if ref > logicalSize &- size {
        log.add(.invalidRef, at: ref, "node at 0x\(String(ref, radix: 16)) of \(size) bytes ends past the logical file size \(logicalSize)")
      }
      spans.append(Span(start: ref, size: size, isFree: false))
      bytesLeft &-= size
      guard bytesLeft >= 0 else {
        log.add(.overlap, at: ref, "the nodes reachable from the top add up to more bytes than the file's \(logicalSize): they overlap (the walk stopped at the node at 0x\(String(ref, radix: 16)))")
        complete = false
        break
      }
      guard node.hasRefs else { continue }
      guard node.header.widthType != .ignore else {
        log.add(.unreadable, at: ref, "node at 0x\(String(ref, radix: 16)) has refs but is a blob")
        continue
      }
      // Width 0: every element is 0, no ref. Skipping such nodes keeps the walk proportional
      // to the file: their count (up to 2^24) costs no byte of it.
      guard node.width > 0 else { continue }
      for i in 0..<node.count {
        let raw = node.uncheckedGet(i)
        guard raw != 0, raw & 1 == 0 else { continue }
        stack.append((ref: Int(exactly: raw) ?? -1, parent: ref))
      }
    }
    checkFreeListShape(&log)
    for chunk in freeList {
      guard chunk.position & 7 == 0, chunk.length > 0, chunk.length & 7 == 0, chunk.position >= FileHeader.size,
        chunk.position <= logicalSize &- chunk.length
      else {
        log.add(.freeList, at: chunk.position, "free chunk at 0x\(String(chunk.position, radix: 16)) of \(chunk.length) bytes is misaligned, empty or outside [24, \(logicalSize))")
        continue
      }
      spans.append(Span(start: chunk.position, size: chunk.length, isFree: true))
    }
    spans.sort { $0.start < $1.start }
    var covered = FileHeader.size
    var last: Span?
    for span in spans {
      if span.start > covered, complete {
        log.add(.unaccountedSpace, at: covered, "bytes 0x\(String(covered, radix: 16))..<0x\(String(span.start, radix: 16)) are neither a node nor free space")
      } else if span.start < covered, let last {
        log.add(.overlap, at: span.start, "\(span.label) overlaps \(last.label)")
      }
      if span.end > covered {
        covered = span.end
        last = span
      }
    }
    if covered < logicalSize, complete {
      log.add(.unaccountedSpace, at: covered, "bytes 0x\(String(covered, radix: 16))..<0x\(String(logicalSize, radix: 16)) at the end are neither a node nor free space")
    }
  }

  /// The three free-list arrays must have equal lengths (§3.4).
  private func checkFreeListShape(_ log: inout ProblemLog) {
    guard topArraySize > 3, let top = try? ArrayNode(elements: reader, topRef) else { return }
    var counts: [Int] = []
    for slot in 3..<min(6, topArraySize) {
      if let node = try? top.optionalChild(slot) { counts.append(node.count) }
    }
    if Set(counts).count > 1 {
      log.add(.freeList, at: topRef.rawValue, "the free-list arrays have different lengths \(counts)")
    }
    var previousEnd = 0
    for chunk in freeList {
      if chunk.position < previousEnd {
        log.add(.freeList, at: chunk.position, "free chunk at 0x\(String(chunk.position, radix: 16)) is out of order or overlaps the previous one")
      }
      previousEnd = max(previousEnd, chunk.position &+ chunk.length)
    }
  }
}
