/// Where text lands on a terminal `width` columns wide, the way the terminal wraps it: a
/// character that does not fit on the rest of a row (a wide one in the last column) starts
/// the next row.
struct ScreenLayout {
  /// A position: row from the first row of the prompt, column from the left edge.
  struct Position: Equatable {
    var row: Int
    var column: Int
  }

  /// Columns of the terminal (at least 1).
  let width: Int

  init(width: Int) { self.width = max(1, width) }

  /// The position after writing `characters` from `start`. A row filled exactly leaves the
  /// position at the start of the next row (where the terminal will put the next character).
  func advance(_ start: Position, over characters: some Sequence<Character>) -> Position {
    var position = start
    for character in characters {
      let cells = min(CharacterWidth.of(character), width)
      if position.column + cells > width { position = Position(row: position.row + 1, column: 0) }
      position.column += cells
      if position.column >= width { position = Position(row: position.row + 1, column: 0) }
    }
    return position
  }

  /// Where `character` is drawn when the text so far ends at `position`.
  func placement(of character: Character, at position: Position) -> Position {
    if position.column + min(CharacterWidth.of(character), width) > width {
      return Position(row: position.row + 1, column: 0)
    }
    return position
  }
}

/// Builds the bytes that redraw a prompt and a line in place, over several rows when the line
/// is longer than the terminal is wide.
struct LineRenderer {
  /// The row of the cursor, relative to the prompt's first row, after the last redraw.
  private(set) var cursorRow = 0

  /// Bytes that erase what was drawn, draw `prompt` and `text`, and put the cursor before
  /// character `cursor` of `text`.
  mutating func redraw(prompt: String, text: [Character], cursor: Int, width: Int) -> String {
    let layout = ScreenLayout(width: width)
    var out = ""
    if cursorRow > 0 { out += "\u{1B}[\(cursorRow)A" }
    out += "\r\u{1B}[J"
    out += Self.visible(prompt) + text.map(Self.visible).joined()
    let afterPrompt = layout.advance(.init(row: 0, column: 0), over: Self.visibleCharacters(prompt))
    let end = layout.advance(afterPrompt, over: text.flatMap(Self.visibleCharacters))
    // A row filled exactly: the terminal waits in the last column; step to the next row.
    if end.column == 0 && end.row > 0 { out += "\r\n" }
    var target = layout.advance(afterPrompt, over: text[..<cursor].flatMap(Self.visibleCharacters))
    if cursor < text.count, let next = Self.visibleCharacters(text[cursor]).first {
      target = layout.placement(of: next, at: target)
    }
    if end.row > target.row { out += "\u{1B}[\(end.row - target.row)A" }
    out += "\r"
    if target.column > 0 { out += "\u{1B}[\(target.column)C" }
    cursorRow = target.row
    return out
  }

  /// Bytes that move the cursor below the line (before printing something else), with the
  /// line left on screen.
  mutating func leave(prompt: String, text: [Character], width: Int) -> String {
    let layout = ScreenLayout(width: width)
    let afterPrompt = layout.advance(.init(row: 0, column: 0), over: Self.visibleCharacters(prompt))
    let end = layout.advance(afterPrompt, over: text.flatMap(Self.visibleCharacters))
    var out = ""
    if end.row > cursorRow { out += "\u{1B}[\(end.row - cursorRow)B" }
    if !(end.column == 0 && end.row > 0) { out += "\r\n" } else { out += "\r" }
    cursorRow = 0
    return out
  }

  /// Forgets the drawn line (after the screen was cleared or the line was left).
  mutating func reset() { cursorRow = 0 }

  /// Control characters are shown as `^X`.
  static func visible(_ character: Character) -> String {
    String(visibleCharacters(character))
  }

  static func visible(_ text: String) -> String { text.map(visible).joined() }

  static func visibleCharacters(_ character: Character) -> [Character] {
    guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
      scalar.value < 0x20 || scalar.value == 0x7F
    else { return [character] }
    return ["^", Character(Unicode.Scalar(UInt8(scalar.value ^ 0x40)))]
  }

  static func visibleCharacters(_ text: String) -> [Character] { text.flatMap(visibleCharacters) }
}
