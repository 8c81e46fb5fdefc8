import RealmModel
import RealmJSON

/// `dump --format csv`: RFC 4180 CSV of exactly one class.
///
/// - Header row: `$key`, then the property names in column order.
/// - One row per object; records end with CRLF (RFC 4180 §2.1).
/// - A field is quoted when it contains a comma, a double quote, CR or LF, or when it is the
///   empty string: `""` is an empty string, an empty field is null.
/// - Scalars are their plain text (see `CellText`); links, embedded objects, lists, sets,
///   dictionaries and nested mixed collections are their canonical JSON in the cell.
public struct CSVDumpWriter: DumpWriter {
  private let sink: OutputSink
  private var out: [UInt8] = []
  private var cells = CellText(schema: Schema(schemaVersion: nil, fileFormat: 0, classes: []))
  private var current: ObjectSchema?
  private var classesSeen = 0

  /// Creates a writer that hands its output to `sink`.
  public init(sink: @escaping OutputSink) {
    self.sink = sink
    out.reserveCapacity(outputChunkSize + 4096)
  }

  public mutating func begin(schema: Schema) throws { cells = CellText(schema: schema) }

  public mutating func beginClass(_ objectSchema: ObjectSchema) throws {
    classesSeen += 1
    guard classesSeen == 1 else {
      throw DumpOutputError("CSV holds one class; choose one with --class (the file has several)")
    }
    current = objectSchema
    appendField(Array("$key".utf8), quoteEmpty: false)
    for p in objectSchema.properties {
      out.append(UInt8(ascii: ","))
      appendField(Array(p.name.utf8), quoteEmpty: true)
    }
    out.append(contentsOf: [0x0D, 0x0A])
  }

  public mutating func writeObject(key: Int64, values: [RealmValue]) throws {
    guard let cls = current else { throw DumpOutputError("an object was written outside a class") }
    var keyText = JSONWriter(indent: 0, capacity: 24)
    keyText.writeInt(key)
    out.append(contentsOf: keyText.buffer)
    for (i, p) in cls.properties.enumerated() {
      out.append(UInt8(ascii: ","))
      guard i < values.count, let text = cells.text(values[i], inMixed: p.type == .mixed) else {
        continue
      }
      appendField(text, quoteEmpty: true)
    }
    out.append(contentsOf: [0x0D, 0x0A])
    if out.count >= outputChunkSize { try flush() }
  }

  public mutating func endClass() throws { current = nil }

  public mutating func finish() throws { try flush() }

  private mutating func appendField(_ text: [UInt8], quoteEmpty: Bool) {
    let needsQuotes =
      (text.isEmpty && quoteEmpty)
      || text.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }
    guard needsQuotes else {
      out.append(contentsOf: text)
      return
    }
    out.append(0x22)
    for b in text {
      if b == 0x22 { out.append(0x22) }
      out.append(b)
    }
    out.append(0x22)
  }

  private mutating func flush() throws {
    guard !out.isEmpty else { return }
    try sink(out)
    out.removeAll(keepingCapacity: true)
  }
}
