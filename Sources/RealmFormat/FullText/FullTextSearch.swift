import RealmModel

/// The text of a `TEXT` query read as Realm reads it (`Tokenizer::get_search_tokens`).
///
/// The text is split at ASCII white space into terms. A term starting with `-` excludes its
/// word; a term ending with `*` (and not excluded) is a prefix; every other term is a word
/// that must be there. Each term is read with ``FullTextTokenizer``: it must hold at most one
/// word (`"full-text"` is refused; `"x!"` is the word `x`), and a term with no word at all
/// stands for the empty word (`"×"`, `"!"`).
public struct FullTextSearch: Sendable, Hashable {
  /// One included term: a whole word, or a prefix (`word*`).
  public struct Term: Sendable, Hashable {
    /// The word's bytes (lowercase, without diacritics), without the `*` of a prefix.
    public var word: [UInt8]
    /// True for a prefix (`word*`).
    public var isPrefix: Bool
  }

  /// The included terms, in Realm's order (the byte order of the terms' text, `*` included).
  public let includes: [Term]
  /// The excluded words, in byte order.
  public let excludes: [[UInt8]]

  /// Reads a `TEXT` query's text, or gives Realm's message for a text Realm refuses:
  /// `Missing search token` (no term at all), `Non alphanumeric characters not allowed inside
  /// search word`, `You can't include and exclude the same token`.
  public static func parse(_ text: String) -> Parsed {
    let bytes = Array(text.utf8)
    var included: [ArraySlice<UInt8>] = []
    var excluded: [ArraySlice<UInt8>] = []
    var i = 0
    while i < bytes.count {
      // C's isspace in the "C" locale: space, \t, \n, \v, \f, \r.
      if bytes[i] == 0x20 || (bytes[i] >= 0x09 && bytes[i] <= 0x0D) {
        i += 1
        continue
      }
      var j = i
      while j < bytes.count && !(bytes[j] == 0x20 || (bytes[j] >= 0x09 && bytes[j] <= 0x0D)) { j += 1 }
      if bytes[i] == UInt8(ascii: "-") {
        excluded.append(bytes[(i + 1)..<j])
      } else {
        included.append(bytes[i..<j])
      }
      i = j
    }
    var includes = Set<[UInt8]>()  // a prefix keeps its "*"
    for term in included {
      let (word, more) = FullTextTokenizer.firstWord(of: term)
      includes.insert(term.last == UInt8(ascii: "*") ? word + [UInt8(ascii: "*")] : word)
      if more { return .refused("Non alphanumeric characters not allowed inside search word") }
    }
    var excludes = Set<[UInt8]>()
    for term in excluded {
      let (word, more) = FullTextTokenizer.firstWord(of: term)
      if includes.contains(word) { return .refused("You can't include and exclude the same token") }
      excludes.insert(word)
      if more { return .refused("Non alphanumeric characters not allowed inside search word") }
    }
    if includes.isEmpty && excludes.isEmpty { return .refused("Missing search token") }
    let sortedIncludes = includes.sorted { $0.lexicographicallyPrecedes($1) }.map { t -> Term in
      t.last == UInt8(ascii: "*") ? Term(word: Array(t.dropLast()), isPrefix: true) : Term(word: t, isPrefix: false)
    }
    return .search(FullTextSearch(includes: sortedIncludes, excludes: excludes.sorted { $0.lexicographicallyPrecedes($1) }))
  }

  /// What ``parse(_:)`` made of a text.
  public enum Parsed: Sendable, Hashable {
    /// The search.
    case search(FullTextSearch)
    /// Realm refuses the text, with this message.
    case refused(String)
  }

  /// Whether an object whose value has the words `words` matches, word by word: every
  /// included word among them (a prefix as Realm's index lookup compares it, see
  /// ``FullTextIndex``), no excluded one.
  ///
  /// This is the answer of Realm's index lookup (``FullTextIndex``) but where that answer
  /// depends on more than the object's own words: a word of 4, 8, ... bytes held by two
  /// objects or more, that no other word extends, also answers a longer search word that
  /// begins with it; and a prefix is looked up wrongly below a node of more than 1000 entries
  /// of a level past the first 4 bytes.
  public func matches(words: Set<[UInt8]>) -> Bool {
    for term in includes {
      if term.isPrefix {
        guard words.contains(where: { FullTextIndex.prefixMatches(term.word, word: $0) }) else { return false }
      } else if !words.contains(term.word) {
        return false
      }
    }
    return !excludes.contains { words.contains($0) }
  }
}
