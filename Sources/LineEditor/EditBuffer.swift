/// The text being edited and the cursor, with readline's editing operations.
///
/// Text is kept as grapheme clusters (`Character`s), so the cursor never stops inside an
/// accented letter or an emoji; a combining mark typed after a letter joins it. The cursor is
/// an index in `0...characters.count`. Killed text (Ctrl-K, Ctrl-U, Ctrl-W, Alt-D) goes to a
/// one-entry kill buffer that Ctrl-Y yanks back.
public struct EditBuffer: Sendable, Equatable {
  /// The characters of the line.
  public private(set) var characters: [Character] = []
  /// The cursor, between characters.
  public private(set) var cursor = 0
  /// The last killed text.
  public private(set) var killed = ""

  /// An empty buffer.
  public init() {}

  /// A buffer holding `text` with the cursor at its end.
  public init(_ text: String) { replace(with: text) }

  /// The line as a string.
  public var text: String { String(characters) }

  /// Replaces the whole line; the cursor goes to the end (or `cursor`).
  public mutating func replace(with text: String, cursor: Int? = nil) {
    characters = Array(text)
    self.cursor = min(max(0, cursor ?? characters.count), characters.count)
  }

  /// Inserts `text` at the cursor (a combining mark joins the character before it).
  public mutating func insert(_ text: String) {
    let before = Array(String(characters[..<cursor]) + text)
    characters = before + characters[cursor...]
    cursor = before.count
  }

  // MARK: Moving

  /// Ctrl-B, Left.
  public mutating func moveLeft() { cursor = max(0, cursor - 1) }
  /// Ctrl-F, Right.
  public mutating func moveRight() { cursor = min(characters.count, cursor + 1) }
  /// Ctrl-A, Home.
  public mutating func moveToStart() { cursor = 0 }
  /// Ctrl-E, End.
  public mutating func moveToEnd() { cursor = characters.count }
  /// Alt-B, Ctrl-Left: to the start of this or the previous word (letters and digits).
  public mutating func moveWordLeft() { cursor = wordStart(before: cursor, isWord: Self.isWordCharacter) }
  /// Alt-F, Ctrl-Right: to the end of this or the next word.
  public mutating func moveWordRight() { cursor = wordEnd(after: cursor) }

  // MARK: Deleting

  /// Backspace: the character before the cursor.
  public mutating func deleteBackward() {
    guard cursor > 0 else { return }
    characters.remove(at: cursor - 1)
    cursor -= 1
  }

  /// Delete, Ctrl-D on a non-empty line: the character under the cursor.
  public mutating func deleteForward() {
    guard cursor < characters.count else { return }
    characters.remove(at: cursor)
  }

  /// Ctrl-K: from the cursor to the end of the line.
  public mutating func killToEnd() { kill(cursor..<characters.count) }
  /// Ctrl-U: from the start of the line to the cursor.
  public mutating func killToStart() { kill(0..<cursor) }
  /// Ctrl-W: the whitespace-delimited word before the cursor (readline's unix-word-rubout).
  public mutating func killWordBackward() {
    kill(wordStart(before: cursor, isWord: { !$0.isWhitespace })..<cursor)
  }
  /// Alt-Backspace: the word (letters and digits) before the cursor.
  public mutating func killAlphanumericWordBackward() {
    kill(wordStart(before: cursor, isWord: Self.isWordCharacter)..<cursor)
  }
  /// Alt-D: from the cursor to the end of the word.
  public mutating func killWordForward() { kill(cursor..<wordEnd(after: cursor)) }

  /// Ctrl-Y: inserts the last killed text.
  public mutating func yank() { insert(killed) }

  /// Ctrl-T: swaps the character before the cursor with the one under it (or the last two at
  /// the end of the line) and moves past them.
  public mutating func transpose() {
    guard characters.count >= 2, cursor > 0 else { return }
    let at = cursor == characters.count ? cursor - 1 : cursor
    characters.swapAt(at - 1, at)
    cursor = at + 1
  }

  // MARK: Private

  private mutating func kill(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    killed = String(characters[range])
    characters.removeSubrange(range)
    cursor = range.lowerBound
  }

  private func wordStart(before index: Int, isWord: (Character) -> Bool) -> Int {
    var i = index
    while i > 0 && !isWord(characters[i - 1]) { i -= 1 }
    while i > 0 && isWord(characters[i - 1]) { i -= 1 }
    return i
  }

  private func wordEnd(after index: Int) -> Int {
    var i = index
    while i < characters.count && !Self.isWordCharacter(characters[i]) { i += 1 }
    while i < characters.count && Self.isWordCharacter(characters[i]) { i += 1 }
    return i
  }

  static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
}
