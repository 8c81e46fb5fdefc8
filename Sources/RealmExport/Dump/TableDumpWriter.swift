import RealmModel

/// `dump --format table`: aligned columns for people, fitted to the terminal width.
///
/// Per class: a title line (the class name), a header row (`$key` and the property names), a
/// rule, one row per object, and a closing line with the object count; a blank line between
/// classes. Column widths come from the header and the first ``sampleRows`` rows of the class
/// (so memory stays constant), each at most ``maxColumnWidth``; the `$key` column is as wide as
/// the class's largest key, so no key is ever cut. When the row is wider than the
/// terminal, the widest columns shrink, text columns down to ``minTextWidth`` and number columns
/// down to ``minNumberWidth`` (a cut number misleads); columns that still do not fit are left
/// out, from the right, and the title says how many are shown. Cut values end with `…`.
/// Numbers are right-aligned and never cut: a later number wider than its column widens its
/// row.
public struct TableDumpWriter: DumpWriter {
  /// Rows buffered to size the columns of a class.
  public static let sampleRows = 50
  /// Widest a column gets.
  public static let maxColumnWidth = 40
  /// Narrowest a text column is squeezed to.
  public static let minTextWidth = 10
  /// Narrowest a number column is squeezed to (an Int64 needs 20).
  public static let minNumberWidth = 20
  private static let separator = " │ "

  private let sink: OutputSink
  private let width: Int
  private var out = ""
  private let renderer = PeopleText(budget: TableDumpWriter.maxColumnWidth + 1)
  private var current: ObjectSchema?
  private var rightAligned: [Bool] = []
  private var pending: [[String]] = []
  private var widths: [Int]?
  private var count = 0
  private var classIndex = 0
  /// Digits of the current class's largest key, when known.
  private var keyWidth = 0

  /// Creates a writer for a terminal `width` columns wide (at least 20).
  public init(sink: @escaping OutputSink, width: Int) {
    self.sink = sink
    self.width = max(20, width)
  }

  public mutating func begin(schema: Schema) throws {}

  public mutating func beginClass(_ objectSchema: ObjectSchema) throws {
    try beginClass(objectSchema, largestKey: nil)
  }

  public mutating func beginClass(_ objectSchema: ObjectSchema, largestKey: Int64?) throws {
    // Keys are never negative in Realm files; a damaged one is shown whole too.
    keyWidth = largestKey.map { String($0).count } ?? 0
    current = objectSchema
    pending = []
    widths = nil
    count = 0
    rightAligned =
      [true]
      + objectSchema.properties.map {
        $0.collection == .single && [.int, .float, .double, .decimal128].contains($0.type)
      }
    if classIndex > 0 { out += "\n" }
    classIndex += 1
  }

  public mutating func writeObject(key: Int64, values: [RealmValue]) throws {
    guard let cls = current else { throw DumpOutputError("an object was written outside a class") }
    var row = [String(key)]
    row.reserveCapacity(cls.properties.count + 1)
    for i in 0..<cls.properties.count {
      row.append(i < values.count ? renderer.render(values[i]) : "")
    }
    count += 1
    if let w = widths {
      writeRow(row, widths: w)
    } else {
      pending.append(row)
      if pending.count >= TableDumpWriter.sampleRows { startRows() }
    }
    if out.utf8.count >= outputChunkSize { try flush() }
  }

  public mutating func endClass() throws {
    if widths == nil { startRows() }
    out += count == 1 ? "(1 object)\n" : "(\(count) objects)\n"
    current = nil
    try flush()
  }

  public mutating func finish() throws { try flush() }

  /// Fixes the column widths from the header and the buffered rows, then writes the title, the
  /// header and the buffered rows.
  private mutating func startRows() {
    guard let cls = current else { return }
    let header = ["$key"] + cls.properties.map(\.name)
    var natural = header.map { min(DisplayWidth.of($0), TableDumpWriter.maxColumnWidth) }
    for row in pending {
      for (i, cell) in row.enumerated() where i < natural.count {
        natural[i] = max(natural[i], min(DisplayWidth.of(cell), TableDumpWriter.maxColumnWidth))
      }
    }
    natural[0] = max(natural[0], keyWidth)
    var minimum = natural.indices.map {
      min(
        natural[$0],
        rightAligned[$0] ? TableDumpWriter.minNumberWidth : TableDumpWriter.minTextWidth)
    }
    // The key column never shrinks: a cut key names no object.
    minimum[0] = natural[0]
    let w = TableDumpWriter.layout(natural: natural, minimum: minimum, total: width)
    widths = w
    var title = cls.name
    if w.count < header.count {
      title +=
        "  (\(w.count) of \(header.count) columns shown; the others do not fit in \(width) columns)"
    }
    out += cut(title) + "\n"
    writeRow(header, widths: w, header: true)
    let rule = w.map { String(repeating: "─", count: $0) }.joined(separator: "─┼─")
    out += cut(rule) + "\n"
    for row in pending { writeRow(row, widths: w) }
    pending = []
  }

  /// Widths of the leading columns that fit in `total`: as many columns as fit at their
  /// `minimum` widths, then the widest of those shrunk until the row fits.
  static func layout(natural: [Int], minimum: [Int], total: Int) -> [Int] {
    let sep = separator.count
    var shown = natural.count
    while shown > 1 && minimum[0..<shown].reduce(0, +) + (shown - 1) * sep > total { shown -= 1 }
    var w = Array(natural[0..<shown])
    var sum = w.reduce(0, +) + max(0, shown - 1) * sep
    while sum > total {
      guard let widest = w.indices.filter({ w[$0] > minimum[$0] }).max(by: { w[$0] < w[$1] }) else {
        break
      }
      w[widest] -= 1
      sum -= 1
    }
    return w
  }

  private mutating func writeRow(_ cells: [String], widths: [Int], header: Bool = false) {
    var line = ""
    for (i, cell) in cells.enumerated() where i < widths.count {
      if i > 0 { line += TableDumpWriter.separator }
      // A number is never cut (a cut number misleads): one wider than its column widens the row.
      let text = rightAligned[i] && !header ? cell : DisplayWidth.truncate(cell, to: widths[i])
      let padding = String(repeating: " ", count: max(0, widths[i] - DisplayWidth.of(text)))
      if rightAligned[i] && !header {
        line += padding + text
      } else if i == min(cells.count, widths.count) - 1 {
        line += text  // no trailing blanks
      } else {
        line += text + padding
      }
    }
    out += cut(line) + "\n"
  }

  /// A line cut to the terminal width.
  private func cut(_ line: String) -> String { DisplayWidth.truncate(line, to: width) }

  private mutating func flush() throws {
    guard !out.isEmpty else { return }
    try sink(Array(out.utf8))
    out = ""
  }
}
