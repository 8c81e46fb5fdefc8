import RealmModel

/// A column's full-text index (a `StringIndex` of words, §4.6 "Full-text indexes"), read in
/// place, and `TEXT` searches answered on it exactly as Realm Core 14 answers them
/// (`StringIndex::find_all_fulltext`).
///
/// The index has the nodes of a search index, but its entries are the words of the values
/// (``FullTextTokenizer``), each object once under each of its words, and every word is spelled
/// out to its end: a word's entry (its object key, or the list of its objects' keys) is under
/// the chunk key where its last 1 to 4 bytes are, below one sub-index per 4 bytes before them.
///
/// The lookups are Realm's, with Realm's flaws, since they decide what an app's queries return:
/// a word's lookup that reaches a list of objects stops there, so a word of 4, 8, ... bytes
/// that two objects or more hold, and that no longer word extends, also answers any longer
/// search word beginning with it; a prefix's keys are computed from its bytes as signed
/// `char`s, so a prefix with `å`, `æ`, `ð`, `ø`, `þ` or `ß` after its first byte of a 4-byte
/// chunk finds nothing; and a prefix looked up past the first 4 bytes through a node of more
/// than 1000 entries starts again from its first bytes. Every node is checked as it is read,
/// and walks are bounded in depth and nodes (``SearchIndex``): a damaged index throws
/// ``FormatError``.
public struct FullTextIndex: Sendable {
  let reader: ByteReader
  /// The root node.
  public let root: Ref
  let limits: Limits

  /// The full-text index of `column`, nil when it has none (or has a search index of values).
  public init?(column: Column, in group: Group) {
    guard column.hasSearchIndex, column.attributes.contains(.fullTextIndexed) else { return nil }
    self.init(reader: group.reader, root: column.searchIndexRef, limits: group.limits)
  }

  /// The index whose root is `root` in `reader`'s bytes.
  public init(reader: ByteReader, root: Ref, limits: Limits) {
    self.reader = reader
    self.root = root
    self.limits = limits
  }

  /// What one word's lookup found (`FindRes`).
  enum Found {
    case none
    case single(Int64)
    /// The keys of a list, as stored (ascending in an index Realm or realmctl wrote).
    case list([Int64])
  }

  /// The keys of the objects a `TEXT` search finds, ascending, as Realm returns them.
  ///
  /// - Parameters:
  ///   - search: the parsed text.
  ///   - allKeys: every object key of the table, ascending (a search of excluded words only
  ///     starts from every object).
  public func keys(_ search: FullTextSearch, allKeys: () throws -> [Int64]) throws -> [Int64] {
    var walk = SearchIndex.Walk(reader: reader, limits: limits, limit: .max)
    var result: [Int64] = []
    if search.includes.isEmpty {
      result = try allKeys()
    } else {
      var first = true
      for term in search.includes {
        let found: [Int64]
        if term.isPrefix {
          var keys = Set<Int64>()
          try prefixKeys(term.word, from: root, offset: 0, depth: 0, walk: &walk, into: &keys)
          found = keys.sorted()
        } else {
          switch try lookup(term.word, walk: &walk) {
          case .none: found = []
          case .single(let k): found = [k]
          case .list(let keys): found = keys
          }
        }
        result = first ? found : Self.intersection(result, found)
        first = false
        if result.isEmpty { return [] }
      }
    }
    for word in search.excludes {
      if result.isEmpty { return [] }
      switch try lookup(word, walk: &walk) {
      case .none: break
      case .single(let k):
        if let i = Self.position(of: k, in: result) { result.remove(at: i) }
      case .list(let keys): result = Self.difference(result, keys)
      }
    }
    return result
  }

  /// The entry of one word (`index_string<index_FindAll_nocopy>` for a full-word index): the
  /// chunk keys of the word followed down the sub-indexes; a single key counts when the word
  /// ends in its chunk, a list whatever the rest of the word.
  func lookup(_ word: [UInt8], walk: inout SearchIndex.Walk) throws(FormatError) -> Found {
    var ref = root
    var offset = 0
    while true {
      let key = SearchIndex.chunkKey(word, at: offset)
      guard let entry = try walk.find(key, from: ref) else { return .none }
      switch entry {
      case .object(let k):
        // Realm rebuilds the word from the lookup's own bytes and the chunk: equal when the
        // word ends in this chunk.
        return word.count - offset <= 4 ? .single(k) : .none
      case .list(let r):
        return .list(try walk.listKeys(r))
      case .subIndex(let r):
        offset += 4
        guard offset <= SearchIndex.maxOffset else {
          throw FormatError.corrupt("full-text index at \(root) nests sub-indexes past \(offset) bytes", at: r.rawValue)
        }
        ref = r
      }
    }
  }

  /// Adds the keys under the entries whose chunk keys fall in the prefix's range
  /// (`IndexArray::_index_string_find_all_prefix`), with Realm's arithmetic: the bytes of the
  /// prefix are added as signed `char`s, and an inner node's children are searched from
  /// offset 0 again.
  func prefixKeys(
    _ prefix: [UInt8], from start: Ref, offset start0: Int, depth: Int, walk: inout SearchIndex.Walk, into keys: inout Set<Int64>
  ) throws(FormatError) {
    guard depth <= limits.maxDepth + SearchIndex.maxOffset / 4 + 1 else {
      throw FormatError.limit("full-text index deeper than \(limits.maxDepth)", at: start.rawValue)
    }
    var ref = start
    var offset = start0
    while true {
      let (node, nodeKeys) = try walk.node(ref)
      let (lower, upper, atEnd) = Self.prefixRange(prefix, at: offset)
      var pos = Self.lowerBound(nodeKeys, lower)
      if pos == nodeKeys.count { return }
      if node.isInner {
        while true {
          try prefixKeys(prefix, from: try walk.childRef(node, pos + 1), offset: 0, depth: depth + 1, walk: &walk, into: &keys)
          let key = Int32(truncatingIfNeeded: nodeKeys.uncheckedGet(pos))
          pos += 1
          if key > upper || pos == nodeKeys.count { return }
        }
      }
      let end = Self.upperBound(nodeKeys, upper)
      if pos >= end { return }
      if atEnd {
        for i in pos..<end {
          switch try walk.entry(node, i + 1) {
          case .object(let k): keys.insert(k)
          case .list(let r), .subIndex(let r): try allKeys(below: r, depth: depth + 1, walk: &walk, into: &keys)
          }
        }
        return
      }
      // A whole 4-byte chunk: one entry, whose sub-index holds the rest (a word's own entry
      // there is not one, and Realm reads it as a node it is not: nothing is found).
      guard case .subIndex(let r) = try walk.entry(node, pos + 1) else { return }
      ref = r
      offset += 4
      guard offset <= SearchIndex.maxOffset else {
        throw FormatError.corrupt("full-text index at \(root) nests sub-indexes past \(offset) bytes", at: r.rawValue)
      }
    }
  }

  /// Every key under a list or sub-index (`get_all_keys_below`).
  func allKeys(below ref: Ref, depth: Int, walk: inout SearchIndex.Walk, into keys: inout Set<Int64>) throws(FormatError) {
    guard depth <= limits.maxDepth + SearchIndex.maxOffset / 4 + 1 else {
      throw FormatError.limit("full-text index deeper than \(limits.maxDepth)", at: ref.rawValue)
    }
    let header = try NodeHeader(reader: reader, at: ref)
    guard header.contextFlag else {
      keys.formUnion(try walk.listKeys(ref))
      return
    }
    let (node, nodeKeys) = try walk.node(ref)
    for i in 0..<nodeKeys.count {
      if node.isInner {
        try allKeys(below: try walk.childRef(node, i + 1), depth: depth + 1, walk: &walk, into: &keys)
        continue
      }
      switch try walk.entry(node, i + 1) {
      case .object(let k): keys.insert(k)
      case .list(let r), .subIndex(let r): try allKeys(below: r, depth: depth + 1, walk: &walk, into: &keys)
      }
    }
  }

  /// The range of chunk keys a prefix covers at `offset`, and whether the prefix ends in this
  /// chunk; a prefix going on past it gives one key (lower == upper). Realm's arithmetic on
  /// `int32_t`, its bytes added as signed `char`s (a shift by 32 is a shift by 0, as on x86).
  static func prefixRange(_ prefix: [UInt8], at offset: Int) -> (lower: Int32, upper: Int32, atEnd: Bool) {
    let left = max(0, prefix.count - offset)
    let atEnd = left <= 4
    let n = min(left, 4)
    var lower: Int32 = 0
    for j in 0..<n { lower = (lower &<< 8) &+ Int32(Int8(bitPattern: prefix[offset + j])) }
    let shift = Int32((4 - n) * 8) & 31
    var upper = lower &+ 1
    lower = lower &<< shift
    upper = (upper &<< shift) &- 1
    return (lower, upper, atEnd)
  }

  /// True when a word whose entry a canonical index holds is found by a `prefix*` search
  /// (the lookup of `prefixKeys` on one word): each whole
  /// chunk of the prefix before its last must be the word's chunk (as Realm computes the
  /// prefix's, signed) with more of the word after it; the last one's range must hold the
  /// word's chunk there.
  public static func prefixMatches(_ prefix: [UInt8], word: [UInt8]) -> Bool {
    var offset = 0
    while true {
      let (lower, upper, atEnd) = prefixRange(prefix, at: offset)
      let key = SearchIndex.chunkKey(word, at: offset)
      if atEnd { return key >= lower && key <= upper }
      guard key == lower, word.count - offset > 4 else { return false }
      offset += 4
    }
  }

  static func lowerBound(_ keys: ArrayNode, _ value: Int32) -> Int {
    var lo = 0
    var hi = keys.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if keys.uncheckedGet(mid) < Int64(value) { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  static func upperBound(_ keys: ArrayNode, _ value: Int32) -> Int {
    var lo = 0
    var hi = keys.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if keys.uncheckedGet(mid) <= Int64(value) { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// Realm's merge of an ascending result with the keys of one term (`intersect`).
  static func intersection(_ a: [Int64], _ b: [Int64]) -> [Int64] {
    var out: [Int64] = []
    var i = 0
    var j = 0
    while i < a.count && j < b.count {
      if a[i] < b[j] {
        i += 1
      } else if a[i] > b[j] {
        j += 1
      } else {
        out.append(a[i])
        i += 1
        j += 1
      }
    }
    return out
  }

  /// `a` without the keys of `b` (both ascending).
  static func difference(_ a: [Int64], _ b: [Int64]) -> [Int64] {
    var out: [Int64] = []
    var j = 0
    for k in a {
      while j < b.count && b[j] < k { j += 1 }
      if j < b.count && b[j] == k { continue }
      out.append(k)
    }
    return out
  }

  static func position(of key: Int64, in keys: [Int64]) -> Int? {
    var lo = 0
    var hi = keys.count
    while lo < hi {
      let mid = (lo + hi) >> 1
      if keys[mid] < key { lo = mid + 1 } else { hi = mid }
    }
    return lo < keys.count && keys[lo] == key ? lo : nil
  }
}
