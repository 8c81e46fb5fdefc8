import Foundation
import RealmTestSupport
import Testing

@testable import LineEditor

/// Drives a `LineEditor` with the bytes a terminal would send and shows its output on an
/// emulated screen, so each test checks both the edited line and what a person sees.
struct EditorHarness {
  var editor: LineEditor
  var screen: TerminalScreen
  var decoder = KeyDecoder()
  var events: [LineEditor.Event] = []
  let width: Int

  init(prompt: String = "realm> ", history: [String] = [], width: Int = 40) {
    editor = LineEditor(prompt: prompt, history: History(entries: history))
    screen = TerminalScreen(width: width, height: 10)
    self.width = width
    screen.feed(editor.start(width: width))
  }

  /// Types `keys` (raw bytes as a terminal sends them).
  mutating func type(_ keys: String) {
    for key in decoder.feed(Array(keys.utf8)) + decoder.flush() {
      let event = editor.handle(key, width: width)
      screen.feed(editor.takeOutput())
      if event != .none { events.append(event) }
    }
  }

  var line: String { editor.buffer.text }
  var cursor: Int { editor.buffer.cursor }
}

let left = "\u{1B}[D", right = "\u{1B}[C", up = "\u{1B}[A", down = "\u{1B}[B"
let home = "\u{1B}[H", end = "\u{1B}[F", delete = "\u{1B}[3~"
func ctrl(_ c: Character) -> String {
  String(Unicode.Scalar(c.asciiValue! & 0x1F))
}

@Suite struct KeyDecoderTests {
  @Test func decodesTextControlsAndSequences() {
    var decoder = KeyDecoder()
    let keys = decoder.feed(Array("aé日\r\t\u{7F}\u{01}\u{1B}[A\u{1B}OB\u{1B}[1;5C\u{1B}[3~\u{1B}b\u{1B}\u{7F}".utf8))
    #expect(
      keys == [
        .text("a"), .text("é"), .text("日"), .enter, .tab, .backspace, .ctrl("a"), .up, .down,
        .wordRight, .delete, .wordLeft, .altBackspace,
      ])
  }

  @Test func aLoneEscapeWaitsForAPause() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]).isEmpty)
    #expect(decoder.hasPending)
    expectEqual(decoder.flush(), [.escape])
    // A sequence split across reads is still one key.
    #expect(decoder.feed([0x1B, UInt8(ascii: "[")]).isEmpty)
    expectEqual(decoder.feed([UInt8(ascii: "D")]), [.left])
  }

  @Test func invalidUTF8BecomesReplacementCharacters() {
    var decoder = KeyDecoder()
    expectEqual(decoder.feed([0xFF]), [.text("\u{FFFD}")])
    #expect(decoder.feed([0xE6, 0x97]).isEmpty)
    expectEqual(decoder.flush(), [.text("\u{FFFD}")])
  }
}

@Suite struct EditBufferTests {
  @Test func killsAndYanks() {
    var buffer = EditBuffer("User WHERE age > 3")
    buffer.killWordBackward()
    expectEqual(buffer.text, "User WHERE age > ")
    buffer.yank()
    buffer.moveToStart()
    buffer.moveWordRight()
    buffer.killToEnd()
    expectEqual(buffer.text, "User")
    expectEqual(buffer.killed, " WHERE age > 3")
    buffer.killToStart()
    #expect(buffer.text == "" && buffer.killed == "User")
  }

  @Test func combiningMarksJoinTheirLetter() {
    var buffer = EditBuffer()
    buffer.insert("e")
    buffer.insert("\u{301}")
    expectEqual(buffer.characters.count, 1)
    buffer.moveLeft()
    expectEqual(buffer.cursor, 0)
  }

  @Test func alphanumericWordsAndTranspose() {
    var buffer = EditBuffer("name.first")
    buffer.killAlphanumericWordBackward()
    expectEqual(buffer.text, "name.")
    buffer.replace(with: "ab")
    buffer.transpose()
    expectEqual(buffer.text, "ba")
  }
}

@Suite struct CharacterWidthTests {
  @Test func widths() {
    expectEqual(CharacterWidth.of("a" as Character), 1)
    expectEqual(CharacterWidth.of("日" as Character), 2)
    expectEqual(CharacterWidth.of("e\u{301}" as Character), 1)
    expectEqual(CharacterWidth.of("😀" as Character), 2)
    expectEqual(CharacterWidth.of("한국어"), 6)
  }
}

@Suite struct LineEditorTests {
  @Test func typingDrawsThePromptAndTheLine() {
    var h = EditorHarness()
    h.type("User WHERE age > 3")
    expectEqual(h.screen.lines[0], "realm> User WHERE age > 3")
    h.type("\r")
    expectEqual(h.events, [.accepted("User WHERE age > 3")])
    #expect(h.screen.row == 1 && h.screen.column == 0)
    expectEqual(h.editor.history.entries, ["User WHERE age > 3"])
  }

  @Test func editingInTheMiddleOfTheLine() {
    var h = EditorHarness()
    h.type("Usr WHERE age > 3")
    h.type(ctrl("a") + right + right + "e")
    expectEqual(h.line, "User WHERE age > 3")
    expectEqual(h.screen.lines[0], "realm> User WHERE age > 3")
    expectEqual(h.screen.column, "realm> Use".count)
    h.type(ctrl("e") + ctrl("w") + "30")
    expectEqual(h.line, "User WHERE age > 30")
    h.type(ctrl("a") + ctrl("k"))
    #expect(h.line == "" && h.screen.lines[0] == "realm>")
    h.type(ctrl("y") + home + delete + end + left + "\u{7F}")
    expectEqual(h.line, "ser WHERE age > 0")
    expectEqual(h.screen.lines[0], "realm> ser WHERE age > 0")
    h.type(ctrl("u"))
    #expect(h.line == "0" && h.cursor == 0)
  }

  @Test func historyUpDownKeepsTheDraft() {
    var h = EditorHarness(history: [".classes", "User WHERE age > 3"])
    h.type("draft" + up)
    expectEqual(h.line, "User WHERE age > 3")
    expectEqual(h.screen.lines[0], "realm> User WHERE age > 3")
    h.type(up + up)
    expectEqual(h.line, ".classes")
    h.type(down + down)
    expectEqual(h.line, "draft")
    expectEqual(h.screen.lines[0], "realm> draft")
  }

  @Test func reverseSearchFindsOlderMatchesAndAccepts() {
    var h = EditorHarness(history: [".count User", ".schema User", ".mode csv", "User WHERE age > 3"])
    h.type(ctrl("r") + "User")
    expectEqual(h.line, "User WHERE age > 3")
    #expect(h.screen.lines[0].hasPrefix("(reverse-i-search)`User': User WHERE"))
    h.type(ctrl("r"))
    expectEqual(h.line, ".schema User")
    h.type(ctrl("r") + ctrl("r"))
    expectEqual(h.line, ".count User")
    #expect(h.screen.lines[0].hasPrefix("(failed reverse-i-search)`User'"))
    h.type("\r")
    expectEqual(h.events, [.accepted(".count User")])
  }

  @Test func reverseSearchEditsTheMatchOrGivesUp() {
    var h = EditorHarness(history: [".schema User"])
    h.type("abc" + ctrl("r") + "sch" + ctrl("g"))
    expectEqual(h.line, "abc")
    expectEqual(h.screen.lines[0], "realm> abc")
    h.type(ctrl("r") + "sch" + ctrl("e") + " Dog")
    expectEqual(h.line, ".schema User Dog")
    expectEqual(h.screen.lines[0], "realm> .schema User Dog")
  }

  @Test func longLinesWrapAndEditAcrossRows() {
    var h = EditorHarness(width: 20)
    let text = "Person WHERE name BEGINSWITH 'A' AND age > 30"
    h.type(text)
    expectEqual(h.screen.lines[0], "realm> Person WHERE")
    expectEqual(h.screen.lines[1], "name BEGINSWITH 'A'")
    expectEqual(h.screen.lines[2], "AND age > 30")
    h.type(ctrl("a") + "X")
    expectEqual(h.screen.lines[0], "realm> XPerson WHERE")
    expectEqual(h.screen.lines[2], " AND age > 30")
    #expect(h.screen.row == 0 && h.screen.column == 8)
    h.type(ctrl("e"))
    // 7 + 46 characters: row 2, column 13.
    #expect(h.screen.row == 2 && h.screen.column == 13)
    // Shrinking the line clears the rows it no longer needs.
    h.type(ctrl("u") + "ok")
    expectEqual(h.screen.lines[0], "realm> ok")
    #expect(h.screen.lines[1] == "" && h.screen.lines[2] == "")
  }

  @Test func wideCharactersMoveTheCursorByTwoColumns() {
    var h = EditorHarness(width: 12)
    h.type("名前日本語")
    // 7 + 10 columns: the fourth character does not fit in row 0 (column 11 is left empty).
    expectEqual(h.screen.lines[0], "realm> 名前")
    expectEqual(h.screen.lines[1], "日本語")
    h.type(left)
    #expect(h.screen.row == 1 && h.screen.column == 4)
    h.type(left + left)
    #expect(h.screen.row == 1 && h.screen.column == 0)
    h.type(left)
    #expect(h.screen.row == 0 && h.screen.column == 9)
  }

  @Test func controlKeysEndTheLine() {
    var h = EditorHarness()
    h.type("abc" + ctrl("c"))
    expectEqual(h.events, [.interrupted])
    expectEqual(h.screen.lines[0], "realm> abc^C")
    expectEqual(h.line, "")
    h.type(ctrl("d"))
    expectEqual(h.events.last, .endOfFile)
  }

  @Test func tabCompletesTheCommonPrefixThenLists() {
    var h = EditorHarness()
    h.editor.completer = { line, cursor in
      let start = line[..<line.index(line.startIndex, offsetBy: cursor)].lastIndex(of: " ")
        .map { line.distance(from: line.startIndex, to: $0) + 1 } ?? 0
      return .init(start: start, candidates: [".schema", ".show", ".count"])
    }
    h.type(".s\t")
    expectEqual(h.line, ".s")
    h.type("c\t")
    expectEqual(h.line, ".schema ")
    h.type(ctrl("u") + ".s\t\t")
    #expect(h.screen.text.contains(".schema  .show"))
    expectEqual(h.screen.cursorLine, "realm> .s")
  }
}

@Suite struct HistoryTests {
  @Test func boundedWithoutDuplicatesOrSpaces() {
    var history = History(limit: 3)
    for line in ["a", "a", " secret", "", "b", "c", "d"] { history.add(line) }
    expectEqual(history.entries, ["b", "c", "d"])
    expectEqual(history.search("c", before: 3), 1)
    #expect(history.search("z", before: 3) == nil)
  }

  @Test func savesAndLoads() throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("history").path
    let history = History(limit: 5, entries: (1...8).map { "line \($0)" })
    #expect(history.save(to: path))
    let loaded = History.load(from: path, limit: 5)
    expectEqual(loaded.entries, (4...8).map { "line \($0)" })
    #expect(History.load(from: dir.appendingPathComponent("missing").path).entries.isEmpty)
  }
}
