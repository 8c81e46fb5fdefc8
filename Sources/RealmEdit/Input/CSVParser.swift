/// RFC 4180 CSV: fields separated by commas, records by CRLF or LF; a field in double quotes
/// may hold commas, line breaks and `""` (one quote). A UTF-8 byte-order mark at the start is
/// skipped. Whether a field was quoted is kept: in realmctl's CSV an empty unquoted field is
/// null and `""` the empty string.
public struct CSVParser {
  /// One field.
  public struct Field: Sendable, Equatable {
    /// The text, quotes removed.
    public var text: String
    /// True when the field was in quotes.
    public var quoted: Bool
    /// Creates a field.
    public init(_ text: String, quoted: Bool = false) {
      self.text = text
      self.quoted = quoted
    }
  }

  /// A record and where it starts.
  public struct Record: Sendable, Equatable {
    /// The fields.
    public var fields: [Field]
    /// 1-based number of the record (the header is record 1, as a spreadsheet numbers rows).
    public var row: Int
    /// 1-based line of the file the record starts on.
    public var line: Int
  }

  /// A syntax error: where and what.
  public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The record's number.
    public var row: Int
    /// The line of the file.
    public var line: Int
    /// What is wrong.
    public var message: String
    public var description: String { "row \(row) (line \(line)): \(message)" }
  }

  /// Splits `bytes` into records. Blank lines between records are skipped (their lines still
  /// count). Throws at the first malformed record: a quote inside an unquoted field, text
  /// after a closing quote, a quoted field that never ends, bytes that are not UTF-8.
  public static func records(_ bytes: [UInt8]) throws(SyntaxError) -> [Record] {
    var records: [Record] = []
    var i = 0
    let n = bytes.count
    if n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
    var line = 1
    var row = 0
    while i < n {
      // A blank line (LF or CRLF) is not a record.
      if bytes[i] == 0x0A { line += 1; i += 1; continue }
      if bytes[i] == 0x0D && i + 1 < n && bytes[i + 1] == 0x0A { line += 1; i += 2; continue }
      row += 1
      let startLine = line
      var fields: [Field] = []
      recordLoop: while true {
        var text: [UInt8] = []
        var quoted = false
        if i < n && bytes[i] == 0x22 {
          quoted = true
          i += 1
          while true {
            guard i < n else {
              throw SyntaxError(row: row, line: startLine, message: "a quoted field (column \(fields.count + 1)) is not closed before the end of the file")
            }
            let b = bytes[i]
            if b == 0x22 {
              if i + 1 < n && bytes[i + 1] == 0x22 { text.append(0x22); i += 2; continue }
              i += 1
              break
            }
            if b == 0x0A { line += 1 }
            text.append(b)
            i += 1
          }
          if i < n && bytes[i] != 0x2C && bytes[i] != 0x0A && !(bytes[i] == 0x0D && i + 1 < n && bytes[i + 1] == 0x0A) && !(bytes[i] == 0x0D && i + 1 == n) {
            throw SyntaxError(row: row, line: line, message: "text after the closing quote of column \(fields.count + 1) (a quote inside a field is written \"\")")
          }
        } else {
          while i < n && bytes[i] != 0x2C && bytes[i] != 0x0A {
            if bytes[i] == 0x0D && (i + 1 == n || bytes[i + 1] == 0x0A) { break }
            if bytes[i] == 0x22 {
              throw SyntaxError(row: row, line: line, message: "a quote inside unquoted column \(fields.count + 1) (quote the whole field and write the quote as \"\")")
            }
            text.append(bytes[i])
            i += 1
          }
        }
        guard let s = String(validating: text, as: UTF8.self) else {
          throw SyntaxError(row: row, line: startLine, message: "column \(fields.count + 1) is not valid UTF-8")
        }
        fields.append(Field(s, quoted: quoted))
        if i < n && bytes[i] == 0x2C { i += 1; continue recordLoop }
        if i < n && bytes[i] == 0x0D { i += 1 }
        if i < n && bytes[i] == 0x0A { i += 1; line += 1 }
        break
      }
      records.append(Record(fields: fields, row: row, line: startLine))
    }
    return records
  }
}
