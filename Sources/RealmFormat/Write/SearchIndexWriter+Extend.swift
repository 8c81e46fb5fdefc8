import RealmModel

/// Adds entries to an existing int search index without reading the column again: the
/// index's top level (one entry per distinct low 32 bits of the values, in index order) is
/// merged with the new entries' groups, and every existing entry keeps its element (a tagged
/// object key or a sub-node, which stay where they are). Only the top level's nodes are
/// written again, as ``SearchIndexWriter/writeInts(_:stopAtDuplicate:into:)`` lays them out.
extension SearchIndexWriter {
  /// The outcome of ``extendInts(root:with:unique:reader:limits:into:)``.
  enum IntExtension {
    /// The new root, and the old top-level nodes (free each shallowly).
    case written(Ref, replaced: [Ref])
    /// A new value shares its low 32 bits with an existing entry, (`unique`) two new values
    /// are equal, or the existing entries are out of order: the caller rebuilds the index
    /// from every value (and finds the duplicate, if any, with the objects' values), and frees
    /// `written`, the nodes the merge wrote before it gave up.
    case needsRebuild(written: [Ref])
  }

  /// Merges the new entries of a non-nullable int column (pairs of ``intPair(_:key:)``,
  /// sorted) into the index at `root`.
  static func extendInts<S: NodeSink>(
    root: Ref, with runs: SortedPairRuns, unique: Bool, reader: ByteReader, limits: Limits, into sink: inout S
  ) throws(FormatError) -> IntExtension {
    var merger = TopLevelMerger(new: runs.merged(), unique: unique, level: IndexLeafLevel(expected: runs.count))
    var walk = SearchIndex.Walk(reader: reader, limits: limits, limit: .max)
    var replaced: [Ref] = []
    // The merge writes full leaves as it goes: when it gives up, they are nobody's nodes.
    // Not generic over the sink: a closure that used a `RecordingSink<S>` would look its type
    // up for every entry (a third of the merge's work); the nodes are few, the entries many.
    var recording = RecordingSink(base: sink)
    defer { sink = recording.base as! S }
    try forEachTopLevelEntry(root, walk: &walk, replaced: &replaced, depth: 0) { (key, element) throws(FormatError) -> Bool in
      merger.existing(key, element, into: &recording)
    }
    guard !merger.conflict, merger.emitNew(upTo: nil, into: &recording) else { return .needsRebuild(written: recording.written) }
    return .written(merger.level.finish(into: &recording), replaced: replaced)
  }

  /// A sink that passes the nodes on and keeps their refs.
  private struct RecordingSink: NodeSink {
    var base: any NodeSink
    var written: [Ref] = []

    mutating func append(_ node: [UInt8]) -> Ref {
      let ref = base.append(node)
      written.append(ref)
      return ref
    }
  }

  /// Calls `body` with the (key, raw element) pairs of the index node `ref`'s leaves, in
  /// order, and lists the nodes walked (and their keys arrays) in `replaced`; stops when
  /// `body` returns false.
  @discardableResult
  private static func forEachTopLevelEntry(
    _ ref: Ref, walk: inout SearchIndex.Walk, replaced: inout [Ref], depth: Int,
    _ body: (Int32, Int64) throws(FormatError) -> Bool
  ) throws(FormatError) -> Bool {
    guard depth <= walk.limits.maxDepth else { throw FormatError.limit("search index deeper than \(walk.limits.maxDepth)", at: ref.rawValue) }
    let (node, keys) = try walk.node(ref)
    replaced.append(ref)
    replaced.append(keys.ref)
    for i in 0..<keys.count {
      if node.isInner {
        guard try forEachTopLevelEntry(try walk.childRef(node, i + 1), walk: &walk, replaced: &replaced, depth: depth + 1, body) else { return false }
        continue
      }
      let element: Int64
      switch try node.refOrTagged(i + 1) {
      case .null: throw FormatError.corrupt("search index node at \(ref) has a null entry \(i + 1)", at: ref.rawValue)
      case .tagged(let k): element = RefOrTagged.taggedRaw(k)
      case .ref(let r): element = Int64(r.rawValue)
      }
      guard try body(Int32(truncatingIfNeeded: keys.uncheckedGet(i)), element) else { return false }
    }
    return true
  }

  /// The merge of the existing top-level entries with the groups of new pairs.
  private struct TopLevelMerger {
    var new: PairMerge
    let unique: Bool
    var level: IndexLeafLevel
    var conflict = false
    /// The next new pair and its chunk key (read ahead once: the merge's heap is not
    /// consulted per existing entry).
    private var next: WordPair?
    private var nextKey: Int32 = 0
    private var group: [WordPair] = []
    /// The last existing entry's key: the file's entries must ascend across its leaves too.
    private var lastExisting: Int32?

    init(new: PairMerge, unique: Bool, level: IndexLeafLevel) {
      self.new = new
      self.unique = unique
      self.level = level
      advance()
    }

    /// The chunk key at offset 0 of a pair.
    static func key(_ p: WordPair) -> Int32 { Int32(bitPattern: UInt32(truncatingIfNeeded: p.first >> 32) ^ 0x8000_0000) }

    private mutating func advance() {
      next = new.next()
      if let next { nextKey = Self.key(next) }
    }

    /// Emits the new groups before `key`, then the existing entry; false (stop) on a conflict,
    /// or when the existing entries do not ascend (a damaged index: the rebuild replaces it).
    mutating func existing<S: NodeSink>(_ key: Int32, _ element: Int64, into sink: inout S) -> Bool {
      if let lastExisting, key <= lastExisting {
        conflict = true
        return false
      }
      lastExisting = key
      if next != nil && nextKey <= key {
        guard emitNew(upTo: key, into: &sink) else { return false }
        if next != nil && nextKey == key {
          conflict = true
          return false
        }
      }
      level.append(key, element, into: &sink)
      return true
    }

    /// Emits the groups of new pairs whose key is below `limit` (all when nil); false when
    /// two new values are equal and the index is unique.
    mutating func emitNew<S: NodeSink>(upTo limit: Int32?, into sink: inout S) -> Bool {
      while let p = next, limit.map({ nextKey < $0 }) ?? true {
        let key = nextKey
        advance()
        guard next != nil, nextKey == key else {
          level.append(key, RefOrTagged.taggedRaw(p.second), into: &sink)
          continue
        }
        group.removeAll(keepingCapacity: true)
        group.append(p)
        var last = p
        while let q = next, nextKey == key {
          if unique && last.first == q.first {
            conflict = true
            return false
          }
          group.append(q)
          last = q
          advance()
        }
        level.append(key, Int64(subNode(group, into: &sink).rawValue), into: &sink)
      }
      return true
    }
  }
}
