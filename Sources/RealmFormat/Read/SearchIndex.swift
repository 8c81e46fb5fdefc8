import RealmModel
/// A column's search index (`StringIndex`, §4.6), read in place from the file.
///
/// Lookups walk the index nodes the file has (no copy is built in memory) and give
/// *candidates*: the keys of the objects whose index data share the looked-up chunks. A
/// tagged entry only proves a shared prefix, so callers compare the candidates' real values.
/// Every node is checked as it is read (has-refs, context flag, a keys array of width 32 in
/// strictly ascending order, one entry per key, an inner node's keys equal to its children's
/// last keys), and the walk is bounded in depth and in nodes visited: a damaged index throws
/// ``FormatError``, it never loops or traps.
public struct SearchIndex: Sendable {
  /// Where an equality lookup led.
  let reader: ByteReader
  /// The root node.
  public let root: Ref
  let limits: Limits

  /// The index of `column`, nil when it has none or has a full-text index (whose entries are
  /// words, not values).
  public init?(column: Column, in group: Group) {
    guard column.hasSearchIndex, !column.attributes.contains(.fullTextIndexed) else { return nil }
    reader = group.reader
    root = column.searchIndexRef
    limits = group.limits
  }

  /// `keys` ascending, each once: candidates of several lookups (or of entries sharing a
  /// prefix) merged.
  package static func sortedUnique(_ keys: [Int64]) -> [Int64] {
    var out = keys.sorted()
    // Equal keys are adjacent now: keep the first of each run, in place.
    var kept = 0
    for i in out.indices where kept == 0 || out[i] != out[kept - 1] {
      out[kept] = out[i]
      kept += 1
    }
    out.removeSubrange(kept...)
    return out
  }

  /// Past this offset equal prefixes share one list (`s_max_offset`).
  static let maxOffset = 200

  /// The keys of the objects whose index data may equal `data` (nil: null), ascending and
  /// without duplicates. `limit`: stop and return nil once more candidates than this are found.
  public func candidates(equalTo data: [UInt8]?, limit: Int = .max) throws(FormatError) -> [Int64]? {
    var walk = Walk(reader: reader, limits: limits, limit: limit)
    var ref = root
    var offset = 0
    while true {
      let key = Self.chunkKey(data, at: offset)
      guard let entry = try walk.find(key, from: ref) else { return [] }
      switch entry {
      case .object(let k): walk.add(k)
      case .list(let r): try walk.addList(r)
      case .subIndex(let r):
        offset += 4
        guard offset <= Self.maxOffset + 4 else {
          throw FormatError.corrupt("search index at \(root) nests sub-indexes past \(Self.maxOffset) bytes", at: r.rawValue)
        }
        ref = r
        continue
      }
      return walk.finish()
    }
  }

  /// The keys of the objects whose index data may begin with `prefix` (a string's UTF-8
  /// bytes), ascending and without duplicates; nil when more than `limit` are found.
  public func candidates(withPrefix prefix: [UInt8], limit: Int = .max) throws(FormatError) -> [Int64]? {
    var walk = Walk(reader: reader, limits: limits, limit: limit)
    var ref = root
    var offset = 0
    // Whole chunks of the prefix: exact keys, as an equality lookup.
    while prefix.count - offset >= 4 {
      let key = Self.chunkKey(prefix, at: offset, whole: true)
      guard let entry = try walk.find(key, from: ref) else { return [] }
      switch entry {
      case .object(let k):
        walk.add(k)
        return walk.finish()
      case .list(let r):
        try walk.addList(r)
        return walk.finish()
      case .subIndex(let r):
        offset += 4
        guard offset <= Self.maxOffset + 4 else {
          throw FormatError.corrupt("search index at \(root) nests sub-indexes past \(Self.maxOffset) bytes", at: r.rawValue)
        }
        ref = r
      }
    }
    // The rest (0-3 bytes): every key whose leading bytes are those, a contiguous range.
    let tail = prefix.count - offset
    var low: UInt32 = 0
    for j in 0..<tail { low |= UInt32(prefix[offset + j]) << UInt32(24 - 8 * j) }
    let span: UInt64 = 1 << UInt64(32 - 8 * tail)
    let high = UInt32(truncatingIfNeeded: UInt64(low) + span - 1)
    if tail == 0 {
      try walk.addAll(ref, keys: nil)
    } else {
      try walk.addAll(ref, keys: Int32(bitPattern: low)...Int32(bitPattern: high))
    }
    return walk.finish()
  }

  /// The key of the 4 bytes of `data` at `offset` (`StringIndex::create_key`): null and
  /// offsets past the end give 0; a tail of 0-3 bytes gets an 'X' after it (unless `whole`).
  static func chunkKey(_ data: [UInt8]?, at offset: Int, whole: Bool = false) -> Int32 {
    guard let data, offset <= data.count else { return 0 }
    let tail = data.count - offset
    var k: UInt32 = 0
    if tail <= 3 && !whole {
      for j in 0..<tail { k |= UInt32(data[offset + j]) << UInt32(24 - 8 * j) }
      k |= UInt32(0x58) << UInt32(24 - 8 * tail)
    } else {
      for j in 0..<min(4, tail) { k |= UInt32(data[offset + j]) << UInt32(24 - 8 * j) }
    }
    return Int32(bitPattern: k)
  }

  /// What an entry of an index leaf holds.
  enum Entry {
    case object(Int64)
    case list(Ref)
    case subIndex(Ref)
  }

  /// One lookup: the nodes it may still visit and the keys found.
  struct Walk {
    let reader: ByteReader
    let limits: Limits
    let limit: Int
    var found: [Int64] = []
    var overflow = false
    var nodesLeft: Int

    init(reader: ByteReader, limits: Limits, limit: Int) {
      self.reader = reader
      self.limits = limits
      self.limit = limit
      nodesLeft = reader.count / 8 + 1
    }

    mutating func add(_ key: Int64) {
      if found.count >= limit { overflow = true } else { found.append(key) }
    }

    func finish() -> [Int64]? {
      overflow ? nil : SearchIndex.sortedUnique(found)
    }

    /// An index node (context flag set) with its validated keys array.
    mutating func node(_ ref: Ref) throws(FormatError) -> (ArrayNode, ArrayNode) {
      nodesLeft -= 1
      guard nodesLeft >= 0 else { throw FormatError.limit("search index walk visits more nodes than the file can hold (cycle?)", at: ref.rawValue) }
      let node = try ArrayNode(elements: reader, ref)
      guard node.hasRefs, node.contextFlag, node.count >= 1 else {
        throw FormatError.corrupt("search index node at \(ref) is not a has-refs array with the context flag", at: ref.rawValue)
      }
      let keys = try node.element(0)
      try keys.requirePlainIntegers("a search index keys array")
      guard keys.width == 32, keys.count == node.count - 1 else {
        throw FormatError.corrupt(
          "search index node at \(ref) has \(keys.count) keys of width \(keys.width) for \(node.count - 1) entries", at: keys.ref.rawValue)
      }
      for i in 1..<max(1, keys.count) where keys.uncheckedGet(i - 1) >= keys.uncheckedGet(i) {
        throw FormatError.corrupt("search index keys at \(keys.ref) are not in ascending order", at: keys.ref.rawValue)
      }
      return (node, keys)
    }

    /// The leaf entry for `key` under the index node `ref` (inner nodes descended), nil when
    /// the index has no such key.
    mutating func find(_ key: Int32, from ref: Ref) throws(FormatError) -> Entry? {
      var current = ref
      var expectedLast: Int64?
      for _ in 0...limits.maxDepth {
        let (node, keys) = try node(current)
        if let expectedLast, keys.count == 0 || keys.uncheckedGet(keys.count - 1) != expectedLast {
          throw FormatError.corrupt("search index node at \(current) does not end with its parent's key", at: current.rawValue)
        }
        // The first key >= the one looked up.
        var lo = 0
        var hi = keys.count
        while lo < hi {
          let mid = (lo + hi) >> 1
          if keys.uncheckedGet(mid) < Int64(key) { lo = mid + 1 } else { hi = mid }
        }
        if node.isInner {
          guard lo < keys.count else { return nil }
          expectedLast = keys.uncheckedGet(lo)
          current = try childRef(node, lo + 1)
          continue
        }
        guard lo < keys.count, keys.uncheckedGet(lo) == Int64(key) else { return nil }
        return try entry(node, lo + 1)
      }
      throw FormatError.limit("search index deeper than \(limits.maxDepth)", at: ref.rawValue)
    }

    func childRef(_ node: ArrayNode, _ i: Int) throws(FormatError) -> Ref {
      let r = try node.ref(i)
      guard !r.isNull else { throw FormatError.corrupt("search index node at \(node.ref) has a null entry \(i)", at: node.ref.rawValue) }
      return r
    }

    /// Entry `i` of a leaf: a tagged object key, a list, or a sub-index.
    func entry(_ node: ArrayNode, _ i: Int) throws(FormatError) -> Entry {
      switch try node.refOrTagged(i) {
      case .tagged(let k): return .object(Int64(bitPattern: k))
      case .null: throw FormatError.corrupt("search index node at \(node.ref) has a null entry \(i)", at: node.ref.rawValue)
      case .ref(let r):
        let header = try NodeHeader(reader: reader, at: r)
        return header.contextFlag ? .subIndex(r) : .list(r)
      }
    }

    /// Adds the object keys of a list (a B+-tree of integers).
    mutating func addList(_ ref: Ref) throws(FormatError) {
      let tree = BPlusTree(reader: reader, limits: limits)
      var keys: [Int64] = []
      let budget = DecodeBudget(embeddedObjects: 0, nodes: max(0, nodesLeft), reading: .unlimited)
      try tree.forEachLeaf(root: ref, budget: budget) { (leaf) throws(FormatError) in
        try leaf.requirePlainIntegers("a search index list")
        // A leaf's count is not bounded by its bytes (width 0 holds 2^24 zeros in 8): with the
        // node budget, this bounds the keys gathered by the file's size.
        guard leaf.count <= FormatConstants.maxBPNodeSize else {
          throw FormatError.corrupt(
            "search index list leaf at \(leaf.ref) holds \(leaf.count) keys, more than the \(FormatConstants.maxBPNodeSize) a leaf can hold",
            at: leaf.ref.rawValue)
        }
        for i in 0..<leaf.count { keys.append(leaf.uncheckedGet(i)) }
      }
      nodesLeft = budget.nodes
      guard !keys.isEmpty else { throw FormatError.corrupt("search index list at \(ref) is empty", at: ref.rawValue) }
      for k in keys { add(k) }
    }

    /// Adds every object under the index node `ref` whose key at this level is in `range`
    /// (every object when nil).
    mutating func addAll(_ ref: Ref, keys range: ClosedRange<Int32>?, depth: Int = 0) throws(FormatError) {
      guard depth <= limits.maxDepth + SearchIndex.maxOffset / 4 + 1 else {
        throw FormatError.limit("search index deeper than \(limits.maxDepth)", at: ref.rawValue)
      }
      let (node, keys) = try node(ref)
      for i in 0..<keys.count {
        if overflow { return }
        let k = Int32(truncatingIfNeeded: keys.uncheckedGet(i))
        if let range {
          if node.isInner {
            // Child i holds keys up to k (and above child i-1's last key).
            if i > 0, Int32(truncatingIfNeeded: keys.uncheckedGet(i - 1)) >= range.upperBound { return }
            if k < range.lowerBound { continue }
          } else {
            if k > range.upperBound { return }
            if k < range.lowerBound { continue }
          }
        }
        if node.isInner {
          try addAll(try childRef(node, i + 1), keys: range, depth: depth + 1)
          continue
        }
        switch try entry(node, i + 1) {
        case .object(let key): add(key)
        case .list(let r): try addList(r)
        case .subIndex(let r): try addAll(r, keys: nil, depth: depth + 1)
        }
      }
    }
  }
}

extension SearchIndex {
  /// A value as the index stores it (`Mixed::get_index_data`, §4.6): ints and bools as 8
  /// bytes; floats, doubles and decimals as the int they equal (a float or double equal to an
  /// int32; a decimal truncated to an int64) or else as their own bytes; strings, binaries,
  /// ObjectIds and UUIDs as their bytes; timestamps as seconds then nanoseconds. nil for null
  /// and for the values whose data need more than the value (links: the target's table key)
  /// or that have none (collections).
  ///
  /// The data do not say the type: `0` and `false` have the same. What ``SearchIndexEntries``
  /// appends for the same value (a test checks that the two agree).
  public static func indexData(_ value: RealmValue) -> [UInt8]? {
    switch value {
    case .int(let i): return littleEndian(UInt64(bitPattern: i), 8)
    case .bool(let b): return littleEndian(b ? 1 : 0, 8)
    case .float(let f):
      if let i = SearchIndexEntries.exactInt32(Double(f)) { return littleEndian(UInt64(bitPattern: i), 8) }
      return littleEndian(UInt64(f.bitPattern), 4)
    case .double(let d):
      if let i = SearchIndexEntries.exactInt32(d) { return littleEndian(UInt64(bitPattern: i), 8) }
      return littleEndian(d.bitPattern, 8)
    case .decimal128(let d):
      if let i = d.truncatedInt64 { return littleEndian(UInt64(bitPattern: i), 8) }
      return littleEndian(d.low, 8) + littleEndian(d.high, 8)
    case .string(let s): return Array(s.utf8)
    case .data(let d): return d
    case .date(let t):
      return littleEndian(UInt64(bitPattern: t.seconds), 8) + littleEndian(UInt64(UInt32(bitPattern: t.nanoseconds)), 4)
    case .objectId(let o): return o.bytes
    case .uuid(let u): return u.bytes
    default: return nil
    }
  }

  private static func littleEndian(_ v: UInt64, _ n: Int) -> [UInt8] {
    (0..<n).map { UInt8(truncatingIfNeeded: v >> UInt64(8 * $0)) }
  }
}
