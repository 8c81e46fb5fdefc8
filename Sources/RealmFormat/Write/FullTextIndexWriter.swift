import RealmModel

/// Builds a full-text index (§4.6 "Full-text indexes") from collected words, laid out as Realm
/// Core's inserts lay it out (`StringIndex::insert` of each word for a full-word index).
///
/// The nodes are a search index's (``SearchIndexWriter``): `[keys (width 32), entries…]`,
/// has-refs with the context flag, at most 1000 keys a node with inner levels above. The
/// entries are the words: at each offset (0, 4, 8, ...) the words are grouped by their chunk
/// key there (signed, in ascending order); a group of one word that ends in this chunk (1 to 4
/// bytes left) gets the word's entry, the object key tagged when one object holds it, else
/// the ascending list of its objects' keys; any other group (a word going on, or several words
/// sharing the 4 bytes) gets a sub-index for the next 4 bytes, where a word that ended is
/// under the key of 'X'.
public enum FullTextIndexWriter {
  /// Writes the index of `entries` and returns its root (an empty leaf when there are no
  /// words).
  public static func write<S: NodeSink>(_ entries: FullTextIndexEntries, into sink: inout S) -> Ref {
    var entries = entries
    // Each word's entry first, in word-number order (a list's nodes go where they are written).
    var elements = [Int64](repeating: 0, count: entries.wordCount)
    entries.forEachWordKeys { w, keys in
      elements[w] =
        keys.count == 1
        ? RefOrTagged.taggedRaw(UInt64(bitPattern: keys[keys.startIndex]))
        : Int64(CollectionLeafEncoder.keyTree(keys, into: &sink).rawValue)
    }
    var words: [[UInt8]] = []
    words.reserveCapacity(entries.wordCount)
    for w in 0..<entries.wordCount { words.append(Array(entries.word(w))) }
    let order = sortedWords(words)
    return Level(words: words, elements: elements).node(order[...], offset: 0, into: &sink)
  }

  /// Word numbers in index order: by their chunk keys at offsets 0, 4, 8, ... compared as
  /// signed integers (a word's last chunk ends with 'X', or is 0 past its end).
  static func sortedWords(_ words: [[UInt8]]) -> [Int] {
    let first = words.map { SearchIndex.chunkKey($0, at: 0) }
    var order = Array(words.indices)
    order.sort { a, b in
      if first[a] != first[b] { return first[a] < first[b] }
      let longest = max(words[a].count, words[b].count)
      var offset = 4
      while offset <= longest {
        let ka = SearchIndex.chunkKey(words[a], at: offset)
        let kb = SearchIndex.chunkKey(words[b], at: offset)
        if ka != kb { return ka < kb }
        offset += 4
      }
      return false
    }
    return order
  }

  /// The words and their entries, and the recursive layout of the levels.
  struct Level {
    let words: [[UInt8]]
    /// Per word, its entry: the tagged key of its one object, or the ref of its key list.
    let elements: [Int64]

    /// The (possibly multi-level) node for the words of `order` (sorted) at `offset`.
    func node<S: NodeSink>(_ order: ArraySlice<Int>, offset: Int, into sink: inout S) -> Ref {
      var level = IndexLeafLevel(expected: order.count)
      var i = order.startIndex
      while i < order.endIndex {
        let key = SearchIndex.chunkKey(words[order[i]], at: offset)
        var j = i + 1
        while j < order.endIndex && SearchIndex.chunkKey(words[order[j]], at: offset) == key { j += 1 }
        let word = order[i]
        let element =
          j == i + 1 && words[word].count - offset <= 4
          ? elements[word] : Int64(node(order[i..<j], offset: offset + 4, into: &sink).rawValue)
        level.append(key, element, into: &sink)
        i = j
      }
      return level.finish(into: &sink)
    }
  }
}
