import RealmModel

/// The words of one full-text indexed column while its index is built: each distinct word once
/// (in one byte arena, found again through a hash table), and one (word number, object key)
/// pair per distinct word of each object: in two flat arrays up to `inMemoryPairs` pairs (a
/// counting sort groups them by word at the end), beyond that in sorted runs
/// (`SortedPairRuns`: memory for one run, the rest in the scratch space), so the words of ten
/// million strings take the memory of their distinct words and a few million pairs.
public struct FullTextIndexEntries {
  /// The distinct words' bytes, one after the other.
  private(set) var arena: [UInt8] = []
  /// Where word `i` starts in ``arena``; word `i` ends where word `i + 1` starts.
  private(set) var starts: [Int] = [0]
  /// Open addressing: word number + 1 at the slot of its hash (0: free).
  private var table: [Int32] = Array(repeating: 0, count: 1024)
  /// The pairs while they are few: word numbers and keys, in the order they came.
  private var memoryWords: [UInt32] = []
  private var memoryKeys: [Int64] = []
  /// Once there are more than `inMemoryPairs`: (word number, object key with its sign bit
  /// flipped, so that keys sort as signed), in runs sorted by word, then (when the objects did
  /// not come in key order) by key.
  private(set) var pairs: SortedPairRuns
  private(set) var spilled = false
  /// Pairs kept in the flat arrays (12 bytes each) before they go to sorted runs.
  let inMemoryPairs: Int
  /// True while the objects came in ascending key order (then a stable sort by word keeps each
  /// word's keys ascending).
  private(set) var keysAscend = true
  private var firstKey: Int64?
  private var lastKey: Int64?
  /// The words of the object being added.
  private var objectWords: [UInt32] = []

  /// An empty collection whose pairs go to `scratch` (a temporary file keeps memory flat).
  public init(scratch: any ScratchStorage = MemoryScratchStorage()) {
    self.init(scratch: scratch, inMemoryPairs: 1 << 21)
  }

  /// An empty collection that keeps up to `inMemoryPairs` pairs in memory (tests give a small
  /// number to take the sorted runs' path).
  init(scratch: any ScratchStorage, inMemoryPairs: Int) {
    pairs = SortedPairRuns(scratch: scratch, bySecond: false)
    self.inMemoryPairs = inMemoryPairs
  }

  /// The number of distinct words.
  public var wordCount: Int { starts.count - 1 }
  /// The number of (word, object) pairs.
  public var pairCount: Int { spilled ? pairs.count : memoryKeys.count }

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
    noteKey(key)
    objectWords.removeAll(keepingCapacity: true)
    FullTextTokenizer.forEachWord(in: utf8) { word in objectWords.append(intern(word)) }
    guard !objectWords.isEmpty else { return }
    if objectWords.count > 1 { objectWords.sort() }
    var previous: UInt32?
    for w in objectWords where w != previous {
      addPair(w, key)
      previous = w
    }
  }

  private mutating func addPair(_ word: UInt32, _ key: Int64) {
    guard !spilled else { return pairs.append(Self.pair(word, key)) }
    memoryWords.append(word)
    memoryKeys.append(key)
    if memoryKeys.count >= inMemoryPairs {
      for (w, k) in zip(memoryWords, memoryKeys) { pairs.append(Self.pair(w, k)) }
      memoryWords = []
      memoryKeys = []
      spilled = true
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
    // Each word's keys stay ascending when `other`'s did and all come after these.
    if !other.keysAscend { keysAscend = false }
    if let lastKey, let first = other.firstKey, first <= lastKey { keysAscend = false }
    if firstKey == nil { firstKey = other.firstKey }
    if let last = other.lastKey { lastKey = max(lastKey ?? last, last) }
    guard other.spilled else {
      for (w, k) in zip(other.memoryWords, other.memoryKeys) { addPair(numbers[Int(w)], k) }
      return
    }
    var source = other.pairs
    source.sortPending()
    var merge = source.merged()
    while let p = merge.next() { addPair(numbers[Int(p.first)], Self.key(p)) }
  }

  private mutating func noteKey(_ key: Int64) {
    if let lastKey, key <= lastKey { keysAscend = false }
    if firstKey == nil { firstKey = key }
    lastKey = key
  }

  /// A pair: the word number, and the key with its sign bit flipped (unsigned order = signed).
  static func pair(_ word: UInt32, _ key: Int64) -> WordPair {
    WordPair(first: UInt64(word), second: UInt64(bitPattern: key) ^ 0x8000_0000_0000_0000)
  }

  static func key(_ p: WordPair) -> Int64 { Int64(bitPattern: p.second ^ 0x8000_0000_0000_0000) }

  /// The number of `word`, added when new.
  private mutating func intern(_ word: UnsafeBufferPointer<UInt8>) -> UInt32 {
    let hash = Self.hash(word)
    var mask = table.count - 1
    var slot = hash & mask
    while true {
      let entry = Int(table[slot])
      if entry == 0 { break }
      if starts[entry] - starts[entry - 1] == word.count && equals(entry - 1, word) { return UInt32(entry - 1) }
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
      arena.withUnsafeBufferPointer { arena in
        for w in 0...number {
          var s = Self.hash(UnsafeBufferPointer(rebasing: arena[starts[w]..<starts[w + 1]])) & mask
          while table[s] != 0 { s = (s + 1) & mask }
          table[s] = Int32(w + 1)
        }
      }
    }
    return UInt32(number)
  }

  /// FNV-1a of the bytes, folded.
  private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x0100_0000_01b3 }
    return Int(truncatingIfNeeded: h ^ (h >> 29))
  }

  /// True when word `w` is `bytes`.
  private func equals(_ w: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = starts[w]
    for i in 0..<bytes.count where arena[start + i] != bytes[i] { return false }
    return true
  }

  /// Calls `body` with each word number that has objects and its objects' keys, ascending,
  /// word after word (by number).
  mutating func forEachWordKeys(_ body: (Int, ArraySlice<Int64>) -> Void) {
    guard spilled else {
      // A counting sort by word, stable: each word's keys in the order they came.
      var offsets = [Int](repeating: 0, count: wordCount + 1)
      for w in memoryWords { offsets[Int(w) + 1] += 1 }
      for i in 0..<wordCount { offsets[i + 1] += offsets[i] }
      var next = offsets
      var keys = [Int64](repeating: 0, count: memoryKeys.count)
      for (w, key) in zip(memoryWords, memoryKeys) {
        keys[next[Int(w)]] = key
        next[Int(w)] += 1
      }
      for w in 0..<wordCount where offsets[w + 1] > offsets[w] {
        let range = offsets[w]..<offsets[w + 1]
        guard !keysAscend else {
          body(w, keys[range])
          continue
        }
        // Out of order: sorted, and a key given twice (an object added again) kept once, as
        // the sorted runs' merge keeps it.
        keys[range].sort()
        var end = range.lowerBound
        for i in range where end == range.lowerBound || keys[end - 1] != keys[i] {
          keys[end] = keys[i]
          end += 1
        }
        body(w, keys[range.lowerBound..<end])
      }
      return
    }
    if !keysAscend {
      // Sorted again by word then key: a new collection of the same pairs.
      var sorted = SortedPairRuns(scratch: pairs.scratch, bySecond: true)
      pairs.sortPending()
      var merge = pairs.merged()
      while let p = merge.next() { sorted.append(p) }
      pairs = sorted
      keysAscend = true
    }
    pairs.sortPending()
    var merge = pairs.merged()
    var current: UInt64?
    var keys: [Int64] = []
    while let p = merge.next() {
      if p.first != current {
        if let current { body(Int(current), keys[...]) }
        current = p.first
        keys.removeAll(keepingCapacity: true)
      }
      if keys.last != Self.key(p) { keys.append(Self.key(p)) }
    }
    if let current { body(Int(current), keys[...]) }
  }
}
