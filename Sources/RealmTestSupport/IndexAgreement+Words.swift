import Foundation
import RealmModel

extension IndexAgreement.Plan {
  // TODO(issue 27): use RealmFormat's tokenizer (branch s10-fulltext) once merged, and try
  // accented words too.
  /// `p TEXT "w"` for words sampled from the stored strings of an indexed string property,
  /// and one `"prefix*"`: judged when the probe (a `TEXT` query Realm refuses on a column
  /// without a full-text index) shows the index.
  ///
  /// Words are tokenised as Realm does for ASCII: letters and digits, lowercased; anything
  /// else separates words. A word is tried only when the non-ASCII characters around it
  /// cannot change which objects have it: it is found in the same objects whether they are
  /// taken as letters, as separators, or folded to ASCII letters without their diacritics
  /// (as Realm folds Latin-1 letters: `café` is the word `cafe`). So Realm's handling of
  /// other characters does not matter.
  mutating func words(_ cls: String, _ p: Property, _ column: [(Int64, RealmValue)]) {
    let name = Self.name(p.name)
    let probe = queries.count
    add(cls, "\(name) TEXT \"realmctlprobe\"", Expectation(label: "\(cls).\(p.name) TEXT probe", keys: [], isProbe: true, property: "\(cls).\(p.name)"))
    let texts: [(Int64, [UInt8])] = column.compactMap { k, v in
      if case .string(let s) = v { return (k, Array(s.utf8)) }
      return nil
    }
    let asLetters = texts.map { (key: $0.0, words: Self.tokens($0.1, nonASCIIIsLetter: true)) }
    let asSeparators = texts.map { (key: $0.0, words: Self.tokens($0.1, nonASCIIIsLetter: false)) }
    let folded = texts.map { k, text in
      let plain = String(decoding: text, as: UTF8.self).folding(options: .diacriticInsensitive, locale: nil)
      return (key: k, words: Self.tokens(Array(plain.utf8), nonASCIIIsLetter: false))
    }
    var frequency: [String: Int] = [:]
    for (_, words) in asLetters { for w in words where w.utf8.allSatisfy({ $0 < 0x80 }) { frequency[w, default: 0] += 1 } }
    let candidates = frequency.keys.filter { $0.utf8.count <= 30 }.sorted { (frequency[$0]!, $0) > (frequency[$1]!, $1) }
    var tried = 0
    func holders(_ match: (Set<String>) -> Bool) -> [Int64]? {
      let a = asLetters.filter { match($0.words) }.map(\.key)
      let b = asSeparators.filter { match($0.words) }.map(\.key)
      let c = folded.filter { match($0.words) }.map(\.key)
      return a == b && b == c ? a : nil
    }
    for word in Self.spread(candidates, samples) {
      guard let keys = holders({ $0.contains(word) }) else { continue }
      add(cls, "\(name) TEXT \"\(word)\"", Expectation(label: "\(cls).\(p.name) TEXT \"\(word)\"", keys: keys, probe: probe))
      tried += 1
    }
    if let word = candidates.first(where: { $0.count >= 3 }) {
      let prefix = String(word.prefix(2))
      if let keys = holders({ $0.contains { $0.hasPrefix(prefix) } }) {
        add(cls, "\(name) TEXT \"\(prefix)*\"", Expectation(label: "\(cls).\(p.name) TEXT \"\(prefix)*\"", keys: keys, probe: probe))
        tried += 1
      }
    }
    checked.append("\(cls).\(p.name) (full-text, if Realm says so): \(tried) words")
  }

  /// The words of `text`: runs of ASCII letters and digits, lowercased; bytes above 0x7F are
  /// letters or separators as asked.
  static func tokens(_ text: [UInt8], nonASCIIIsLetter: Bool) -> Set<String> {
    var words = Set<String>()
    var current: [UInt8] = []
    for b in text {
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"): current.append(b)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(b + 0x20)
      case 0x80...0xFF where nonASCIIIsLetter: current.append(b)
      default:
        if !current.isEmpty { words.insert(String(decoding: current, as: UTF8.self)) }
        current.removeAll()
      }
    }
    if !current.isEmpty { words.insert(String(decoding: current, as: UTF8.self)) }
    return words
  }
}
