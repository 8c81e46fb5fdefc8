import RealmTestSupport
import Testing

@testable import RealmEdit

/// RFC 4180 records as `insert --class` and `create --data x.csv` read them.
@Suite struct CSVParserTests {
  typealias F = CSVParser.Field

  @Test func quotesLineBreaksAndLineEnds() throws {
    let text = "\u{FEFF}a,b\r\n\"x, \"\"y\"\"\",\"two\nlines\"\n\n,\"\"\r\nlast,1"
    let records = try CSVParser.records(Array(text.utf8))
    expectEqual(records.map(\.fields), [
      [F("a"), F("b")],
      [F("x, \"y\"", quoted: true), F("two\nlines", quoted: true)],
      [F(""), F("", quoted: true)],
      [F("last"), F("1")],
    ])
    expectEqual(records.map(\.row), [1, 2, 3, 4])
    // The blank line counts: the third record starts on line 5.
    expectEqual(records.map(\.line), [1, 2, 5, 6])
  }

  @Test(
    "malformed records name their row, line and column",
    arguments: [
      ("a\n\"open", "row 2 (line 2): a quoted field (column 1) is not closed before the end of the file"),
      ("a,b\nx\"y,1", "row 2 (line 2): a quote inside unquoted column 1"),
      ("a,b\n\"x\"y,1", "row 2 (line 2): text after the closing quote of column 1"),
    ])
  func malformed(_ text: String, _ message: String) {
    #expect {
      _ = try CSVParser.records(Array(text.utf8))
    } throws: { error in
      "\(error)".hasPrefix(message)
    }
  }

  @Test func bytesThatAreNotUTF8AreRefused() {
    #expect(throws: CSVParser.SyntaxError.self) { try CSVParser.records([0x61, 0x0A, 0xFF, 0xFE]) }
  }
}
