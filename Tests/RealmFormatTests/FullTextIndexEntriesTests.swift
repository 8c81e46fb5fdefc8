import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmFormat

/// The words a full-text index is built from: each word's objects must be the same, ascending,
/// whether the pairs stay in memory or go to sorted runs in the scratch space, whatever the
/// order the objects came in, and when collections are appended to one another.
@Suite struct FullTextIndexEntriesTests {
  static let vocabulary = ["lorem", "Ipsum", "café", "CAFE", "dolor", "sit", "amet", "zebraword", "façade", "a", "b"]

  /// Texts of one to five words each.
  static func texts(_ count: Int, seed: UInt64) -> [String] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { _ in
      (0..<(1 + Int(random.next() % 5))).map { _ in vocabulary[Int(random.next() % UInt64(vocabulary.count))] }
        .joined(separator: " ")
    }
  }

  /// Each word (as text) with its objects, in the order `forEachWordKeys` gives them.
  static func grouped(_ entries: FullTextIndexEntries) -> [String: [Int64]] {
    var entries = entries
    let words = (0..<entries.wordCount).map { String(decoding: entries.word($0), as: UTF8.self) }
    var out: [String: [Int64]] = [:]
    entries.forEachWordKeys { w, keys in
      #expect(out[words[w]] == nil)
      out[words[w]] = Array(keys)
    }
    return out
  }

  /// What the index must hold: each word's distinct objects, ascending.
  static func expected(_ texts: [String], keys: [Int64]) -> [String: [Int64]] {
    var out: [String: Set<Int64>] = [:]
    for (text, key) in zip(texts, keys) {
      for word in FullTextTokenizer.words(of: text) { out[String(decoding: word, as: UTF8.self), default: []].insert(key) }
    }
    return out.mapValues { $0.sorted() }
  }

  @Test(arguments: [false, true], [1 << 21, 64, 1])
  func eachWordHasItsObjectsAscending(shuffled: Bool, inMemoryPairs: Int) {
    let texts = Self.texts(500, seed: shuffled ? 3 : 4)
    var keys = (0..<Int64(texts.count)).map { $0 * 3 - 700 }
    if shuffled {
      var random = SeededRandom(seed: 9)
      keys.shuffle(using: &random)
    }
    var entries = FullTextIndexEntries(scratch: MemoryScratchStorage(entriesPerRun: 50), inMemoryPairs: inMemoryPairs)
    for (text, key) in zip(texts, keys) { entries.append(.string(text), key: key) }
    entries.append(.null, key: 5000)
    let want = Self.expected(texts, keys: keys)
    expectEqual(entries.wordCount, want.count)
    expectEqual(entries.pairCount, want.values.reduce(0) { $0 + $1.count })
    expectEqual(Self.grouped(entries), want)
  }

  /// An object added twice keeps one entry per word, on either path.
  @Test(arguments: [1 << 21, 4])
  func anObjectAddedAgainIsKeptOnce(inMemoryPairs: Int) {
    var entries = FullTextIndexEntries(scratch: MemoryScratchStorage(entriesPerRun: 3), inMemoryPairs: inMemoryPairs)
    for (text, key) in [("lorem ipsum", 7), ("lorem", 2), ("Lorem dolor", 7)] as [(String, Int64)] {
      entries.append(.string(text), key: key)
    }
    expectEqual(Self.grouped(entries), ["lorem": [2, 7], "ipsum": [7], "dolor": [7]])
  }

  /// Collections appended to one another (the streamed insert's batches) give the words of all.
  @Test(arguments: [(1 << 21, 1 << 21), (1 << 21, 8), (8, 1 << 21), (8, 8)])
  func appendedCollectionsHoldAllWords(_ first: Int, _ second: Int) {
    let texts = Self.texts(300, seed: 11)
    let keys = (0..<Int64(texts.count)).map { $0 }
    var a = FullTextIndexEntries(scratch: MemoryScratchStorage(entriesPerRun: 20), inMemoryPairs: first)
    var b = FullTextIndexEntries(scratch: MemoryScratchStorage(entriesPerRun: 20), inMemoryPairs: second)
    // The second half first into `b`, the first half into `a`: appended out of key order too.
    for i in 150..<300 { b.append(.string(texts[i]), key: keys[i]) }
    for i in 0..<150 { a.append(.string(texts[i]), key: keys[i]) }
    var ab = a
    ab.append(contentsOf: b)
    var ba = b
    ba.append(contentsOf: a)
    let want = Self.expected(texts, keys: keys)
    expectEqual(Self.grouped(ab), want)
    expectEqual(Self.grouped(ba), want)
  }
}
