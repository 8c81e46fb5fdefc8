/// A small terminal emulator for tests: feed it what a program wrote to its terminal and read
/// the screen as a person would see it.
///
/// Understands what realmctl's line editor and progress display send, the way xterm does it:
/// printable text with automatic wrap (a full row waits in its last column until the next
/// character), wide East Asian characters (two cells), combining marks, CR, LF, BS, bell, and
/// the CSI sequences `A B C D` (moves), `H` (position), `J` (erase below / all), `K` (erase in
/// line). The screen scrolls up when text runs past the last row.
public struct TerminalScreen: Sendable {
  /// Columns and rows.
  public let width: Int
  public let height: Int
  /// The cells: one string per cell ("" is the right half of a wide character).
  public private(set) var cells: [[String]]
  /// The cursor.
  public private(set) var row = 0
  public private(set) var column = 0
  private var pendingWrap = false
  private var escape: [UInt8]?
  private var utf8: [UInt8] = []

  /// A blank screen.
  public init(width: Int = 80, height: Int = 24) {
    self.width = width
    self.height = height
    cells = Array(repeating: Array(repeating: " ", count: width), count: height)
  }

  /// The rows as text, trailing spaces removed.
  public var lines: [String] {
    cells.map { row in
      var text = row.joined()
      while text.last == " " { text.removeLast() }
      return text
    }
  }

  /// The screen's text, rows joined by newlines, trailing empty rows removed.
  public var text: String {
    var rows = lines
    while rows.last == "" { rows.removeLast() }
    return rows.joined(separator: "\n")
  }

  /// The row the cursor is on, as text.
  public var cursorLine: String { lines[row] }

  /// Processes the bytes written to the terminal.
  public mutating func feed(_ bytes: some Sequence<UInt8>) {
    for byte in bytes { feed(byte) }
  }

  /// Processes a string written to the terminal.
  public mutating func feed(_ text: String) { feed(Array(text.utf8)) }

  private mutating func feed(_ byte: UInt8) {
    if var sequence = escape {
      sequence.append(byte)
      escape = sequence
      if sequence.count == 2 && byte != UInt8(ascii: "[") {
        escape = nil  // ESC x: not used by the programs under test
      } else if sequence.count > 2 && (0x40...0x7E).contains(byte) {
        escape = nil
        control(sequence)
      }
      return
    }
    if !utf8.isEmpty || byte >= 0x80 {
      utf8.append(byte)
      let expected: Int
      switch utf8[0] {
      case 0xC0...0xDF: expected = 2
      case 0xE0...0xEF: expected = 3
      default: expected = 4
      }
      if utf8.count == expected {
        let text = String(decoding: utf8, as: UTF8.self)
        utf8 = []
        for scalar in text.unicodeScalars { put(scalar) }
      }
      return
    }
    switch byte {
    case 0x1B: escape = [byte]
    case 0x0D:
      column = 0
      pendingWrap = false
    case 0x0A:
      lineFeed()
      pendingWrap = false
    case 0x08:
      column = max(0, column - 1)
      pendingWrap = false
    case 0x07: break
    case 0x20..<0x7F: put(Unicode.Scalar(byte))
    default: break
    }
  }

  private mutating func put(_ scalar: Unicode.Scalar) {
    let cellWidth = Self.width(of: scalar)
    if cellWidth == 0 {
      // A combining mark joins the character before the cursor.
      let target = pendingWrap ? column : column - 1
      if target >= 0 { cells[row][target] += String(scalar) }
      return
    }
    if pendingWrap || column + cellWidth > width {
      column = 0
      lineFeed()
    }
    pendingWrap = false
    cells[row][column] = String(scalar)
    if cellWidth == 2 && column + 1 < width { cells[row][column + 1] = "" }
    column += cellWidth
    if column >= width {
      column = width - 1
      pendingWrap = true
    }
  }

  private mutating func lineFeed() {
    if row == height - 1 {
      cells.removeFirst()
      cells.append(Array(repeating: " ", count: width))
    } else {
      row += 1
    }
  }

  private mutating func control(_ sequence: [UInt8]) {
    let final = sequence.last!
    let body = String(decoding: sequence[2..<(sequence.count - 1)], as: UTF8.self)
    let numbers = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
    let n = max(1, (numbers.first ?? nil) ?? 1)
    pendingWrap = false
    switch final {
    case UInt8(ascii: "A"): row = max(0, row - n)
    case UInt8(ascii: "B"): row = min(height - 1, row + n)
    case UInt8(ascii: "C"): column = min(width - 1, column + n)
    case UInt8(ascii: "D"): column = max(0, column - n)
    case UInt8(ascii: "H"):
      row = min(height - 1, max(1, (numbers.first ?? nil) ?? 1) - 1)
      column = min(width - 1, max(1, numbers.count > 1 ? numbers[1] ?? 1 : 1) - 1)
    case UInt8(ascii: "J"):
      let mode = (numbers.first ?? nil) ?? 0
      if mode == 2 {
        cells = Array(repeating: Array(repeating: " ", count: width), count: height)
      } else {
        for c in column..<width { cells[row][c] = " " }
        for r in (row + 1)..<height { cells[r] = Array(repeating: " ", count: width) }
      }
    case UInt8(ascii: "K"):
      let mode = (numbers.first ?? nil) ?? 0
      let range = mode == 0 ? column..<width : mode == 1 ? 0..<(column + 1) : 0..<width
      for c in range { cells[row][c] = " " }
    default: break
    }
  }

  /// Cells a scalar takes (the rule of xterm for the characters tests use).
  static func width(of scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if (0x0300...0x036F).contains(v) || v == 0x200D || (0xFE00...0xFE0F).contains(v) { return 0 }
    if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v)
      || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v)
      || (0xFF00...0xFF60).contains(v) || (0x1F300...0x1FAFF).contains(v)
    {
      return 2
    }
    return 1
  }
}
