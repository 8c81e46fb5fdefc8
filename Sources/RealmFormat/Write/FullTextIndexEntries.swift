import RealmModel

/// The words of one full-text indexed column while its index is built: each distinct word once
/// (in one byte arena, found again through a hash table), and one (word, object key) pair per
/// distinct word of each object, in flat arrays (no allocation per word or per pair).
public struct FullTextIndexEntries: Sendable {
  /// The distinct words' bytes, one after the other.
  private(set) var arena: [UInt8] = []
  /// Where word `i` starts in ``arena``; word `i` ends where word `i + 1` starts.
  private(set) var starts: [Int] = [0]
  /// Open addressing: word number + 1 at the slot of its hash (0: free).
  private var table: [Int32] = Array(repeating: 0, count: 1024)
  /// Per pair, the word number and the object key.
  private(set) var pairWords: [UInt32] = []
  private(set) var pairKeys: [Int64] = []
  /// True while the objects came in ascending key order (then each word's keys ascend).
  private(set) var keysAscend = true
  private var lastKey: Int64?
  /// The words of the object being added.
  private var objectWords: [UInt32] = []

  /// Creates an empty collection.
  public init() {}

  /// The number of distinct words.
  public var wordCount: Int { starts.count - 1 }
  /// The number of (word, object) pairs.
  public var pairCount: Int { pairKeys.count }

  /// The bytes of word `i`.
  func word(_ i: Int) -> ArraySlice<UInt8> { arena[starts[i]..<starts[i + 1]] }

  /// Adds the words of `value` for object `key`: a string's words; nothing for null (or any
  /// other value: Realm indexes only strings' words).
  public mutating func append(_ value: RealmValue, key: Int64) {
    guard case .string(var s) = value else { return }
    s.withUTF8 { append(utf8: $0, key: key) }
  }

  /// Adds the words of the values of `column` for the objects `keys` (one per value).
  public mutating func append(_ column: ColumnValues, keys: [Int64]) {
    guard case .string(let strings) = column else {
      for (i, key) in keys.enumerated() { append(column.value(at: i), key: key) }
      return
    }
    strings.bytes.withUnsafeBufferPointer { all in
      for (i, key) in keys.enumerated() where !strings.isNull(i) {
        let start = strings.start(i)
        append(utf8: UnsafeBufferPointer(rebasing: all[start..<(start + strings.length(i))]), key: key)
      }
    }
  }

  /// Adds the words of the UTF-8 string `utf8` for object `key`.
  public mutating func append(utf8: UnsafeBufferPointer<UInt8>, key: Int64) {
    if let lastKey, key <= lastKey { keysAscend = false }
    lastKey = key
    objectWords.removeAll(keepingCapacity: true)
    FullTextTokenizer.forEachWord(in: utf8) { word in objectWords.append(intern(word)) }
    guard !objectWords.isEmpty else { return }
    if objectWords.count > 1 {
      objectWords.sort()
      var previous: UInt32?
      for w in objectWords where w != previous {
        pairWords.append(w)
        pairKeys.append(key)
        previous = w
      }
    } else {
      pairWords.append(objectWords[0])
      pairKeys.append(key)
    }
  }

  /// Adds the pairs of `other` (its objects' words), after those already here.
  public mutating func append(contentsOf other: FullTextIndexEntries) {
    var numbers: [UInt32] = []
    numbers.reserveCapacity(other.wordCount)
    other.arena.withUnsafeBufferPointer { arena in
      for w in 0..<other.wordCount {
        numbers.append(intern(UnsafeBufferPointer(rebasing: arena[other.starts[w]..<other.starts[w + 1]])))
      }
    }
    for (w, key) in zip(other.pairWords, other.pairKeys) {
      if let lastKey, key < lastKey { keysAscend = false }
      lastKey = key
      pairWords.append(numbers[Int(w)])
      pairKeys.append(key)
    }
    if !other.keysAscend { keysAscend = false }
  }

  /// The number of `word`, added when new.
  private mutating func intern(_ word: UnsafeBufferPointer<UInt8>) -> UInt32 {
    // FNV-1a.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in word { hash = (hash ^ UInt64(b)) &* 0x0100_0000_01b3 }
    var mask = table.count - 1
    var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
    while true {
      let entry = Int(table[slot])
      if entry == 0 { break }
      let start = starts[entry - 1]
      let end = starts[entry]
      if end - start == word.count
        && (word.isEmpty || arena.withUnsafeBufferPointer { a in memcmpEqual(a.baseAddress! + start, word.baseAddress, word.count) })
      {
        return UInt32(entry - 1)
      }
      slot = (slot + 1) & mask
    }
    let number = starts.count - 1
    arena.append(contentsOf: word)
    starts.append(arena.count)
    table[slot] = Int32(number + 1)
    if (number + 1) * 2 > table.count {
      // Grow: every word to its slot in a table twice as large.
      table = Array(repeating: 0, count: table.count * 2)
      mask = table.count - 1
      for w in 0...number {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in arena[starts[w]..<starts[w + 1]] { h = (h ^ UInt64(b)) &* 0x0100_0000_01b3 }
        var s = Int(truncatingIfNeeded: h ^ (h >> 29)) & mask
        while table[s] != 0 { s = (s + 1) & mask }
        table[s] = Int32(w + 1)
      }
    }
    return UInt32(number)
  }

  /// The keys of each word, ascending: word `w`'s are `keys[offsets[w]..<offsets[w + 1]]`.
  func keysByWord() -> (keys: [Int64], offsets: [Int]) {
    var offsets = [Int](repeating: 0, count: wordCount + 1)
    for w in pairWords { offsets[Int(w) + 1] += 1 }
    for i in 0..<wordCount { offsets[i + 1] += offsets[i] }
    var next = offsets
    var keys = [Int64](repeating: 0, count: pairKeys.count)
    for (w, key) in zip(pairWords, pairKeys) {
      keys[next[Int(w)]] = key
      next[Int(w)] += 1
    }
    if !keysAscend {
      for w in 0..<wordCount where offsets[w + 1] - offsets[w] > 1 {
        keys[offsets[w]..<offsets[w + 1]].sort()
      }
    }
    return (keys, offsets)
  }
}

/// True when the `count` bytes at `a` and `b` are equal.
@inline(__always)
private func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
  guard let b else { return count == 0 }
  for i in 0..<count where a[i] != b[i] { return false }
  return true
}
