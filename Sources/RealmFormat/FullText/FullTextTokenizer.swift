import RealmModel

/// Realm Core's tokenizer (`DefaultTokenizer`, realm-core `tokenizer.cpp`): the words a
/// full-text index holds for a string, and the words of a `TEXT` query.
///
/// A word is a run of letters and digits, folded as Realm folds them:
/// - ASCII letters are lowercased; ASCII digits kept.
/// - A two-byte UTF-8 character of U+00C0 to U+00FE (Latin-1 letters, and `×` and `÷`) is a
///   letter: accented letters lose their accents (`É` and `é` are `e`, `Ñ` is `n`, `Ç` is `c`),
///   `Å`/`å`, `Æ`/`æ`, `Ð`/`ð`, `Ø`/`ø` and `Þ`/`þ` are lowercased, `ß` kept, and `×` and `÷`
///   add nothing to the word (so `x×y` is the word `xy`, and `×` alone an empty word).
/// - Everything else separates words: ASCII punctuation and spaces, the other two-byte
///   characters (Latin-1 punctuation, `ÿ`, Greek, Cyrillic, ...), and every three- and
///   four-byte character (CJK, emoji).
/// - A word keeps at most 64 bytes (the rest of a longer run is dropped).
public enum FullTextTokenizer {
  /// The most bytes a word keeps (`s_buffer_size`).
  public static let maxWordLength = 64

  /// Latin-1 characters U+00C0 to U+00FF (by their low 6 bits) as the tokenizer maps them:
  /// lowercase without diacritics; 0 for `×` and `÷`, which add nothing (`utf8_map`).
  static let latin1Map: [UInt16] = [
    0x61, 0x61, 0x61, 0x61, 0x61, 0xe5, 0xe6, 0x63, 0x65, 0x65, 0x65, 0x65, 0x69, 0x69, 0x69, 0x69,
    0xf0, 0x6e, 0x6f, 0x6f, 0x6f, 0x6f, 0x6f, 0x00, 0xf8, 0x75, 0x75, 0x75, 0x75, 0x79, 0xfe, 0xdf,
    0x61, 0x61, 0x61, 0x61, 0x61, 0xe5, 0xe6, 0x63, 0x65, 0x65, 0x65, 0x65, 0x69, 0x69, 0x69, 0x69,
    0xf0, 0x6e, 0x6f, 0x6f, 0x6f, 0x6f, 0x6f, 0x00, 0xf8, 0x75, 0x75, 0x75, 0x75, 0x79, 0xfe, 0xff,
  ]

  /// Calls `body` with each word of the UTF-8 text `text`, in order, repeated words included.
  ///
  /// The bytes `body` gets are valid only during the call. A two-byte lead at the very end of
  /// the text is read with a 0 after it (Realm reads the terminating zero there).
  public static func forEachWord(
    in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
  ) rethrows {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxWordLength) { buffer in
      var cursor = 0
      while true {
        let (found, size) = next(text, &cursor, buffer)
        guard found else { return }
        try body(UnsafeBufferPointer(rebasing: buffer[0..<size]))
      }
    }
  }

  /// The next word from `cursor` (`DefaultTokenizer::next`): whether one was found, and its
  /// length in `buffer`. The character that ends a word is consumed with it.
  @inline(__always)
  static func next(
    _ text: UnsafeBufferPointer<UInt8>, _ cursor: inout Int, _ buffer: UnsafeMutableBufferPointer<UInt8>
  ) -> (found: Bool, size: Int) {
    var size = 0
    var building = false
    let end = text.count
    while cursor < end {
      let c = text[cursor]
      var isWordCharacter = false
      if (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7A) {
        isWordCharacter = true
        if size < maxWordLength {
          buffer[size] = c
          size += 1
        }
      } else if c >= 0x41 && c <= 0x5A {
        isWordCharacter = true
        if size < maxWordLength {
          buffer[size] = c + 0x20
          size += 1
        }
      } else if c > 0x7F {
        if c & 0xE0 == 0xC0 {
          cursor += 1
          let following = cursor < end ? text[cursor] : 0
          let u = ((Int(c) << 6) + Int(following & 0x3F)) & 0x7FF
          if u >= 0xC0 && u < 0xFF {
            isWordCharacter = true
            let o = latin1Map[u & 0x3F]
            if o != 0 && o < 0x80 {
              if size < maxWordLength {
                buffer[size] = UInt8(o)
                size += 1
              }
            } else if o != 0 && size < maxWordLength - 1 {
              buffer[size] = UInt8((o >> 6) | 0xC0)
              buffer[size + 1] = UInt8((o & 0x3F) | 0x80)
              size += 2
            }
          }
        } else if c & 0xF0 == 0xE0 {
          cursor += 2
        } else if c & 0xF8 == 0xF0 {
          cursor += 3
        }
      }
      cursor += 1
      if isWordCharacter {
        building = true
      } else if building {
        return (true, size)
      }
    }
    return (building, size)
  }

  /// The distinct words of `text`, in byte order (what the index holds for one object).
  public static func words(of text: String) -> [[UInt8]] {
    var text = text
    var out = Set<[UInt8]>()
    text.withUTF8 { utf8 in forEachWord(in: utf8) { out.insert(Array($0)) } }
    return out.sorted { $0.lexicographicallyPrecedes($1) }
  }

  /// The first word of `text` (empty when it has none) and whether it has a second word: how
  /// Realm reads one term of a `TEXT` query.
  static func firstWord(of text: ArraySlice<UInt8>) -> (word: [UInt8], more: Bool) {
    Array(text).withUnsafeBufferPointer { utf8 in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxWordLength) { buffer in
        var cursor = 0
        let (_, size) = next(utf8, &cursor, buffer)
        let word = Array(buffer[0..<size])
        return (word, next(utf8, &cursor, buffer).found)
      }
    }
  }
}
