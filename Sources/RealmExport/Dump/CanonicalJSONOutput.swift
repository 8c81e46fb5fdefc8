import RealmJSON
import RealmModel

/// What the JSON Lines and the JSON dump writers keep: the canonical encoder of the file's
/// schema, the class being written, and the JSON written so far, handed to the sink in chunks.
struct CanonicalJSONOutput {
  /// Where the bytes go.
  let sink: OutputSink
  /// The JSON not handed to the sink yet.
  var writer: JSONWriter
  /// The encoder of the file's schema (empty until the dump begins).
  var encoder = CanonicalEncoder(schema: Schema(schemaVersion: nil, fileFormat: 0, classes: []))
  /// The class whose objects are being written.
  var current: ObjectSchema?

  /// An output to `sink`, indented as `JSONWriter` indents (0: compact).
  init(sink: @escaping OutputSink, indent: Int) {
    self.sink = sink
    writer = JSONWriter(indent: indent, capacity: outputChunkSize + 4096)
  }

  /// The class being written; an error for an object written outside a class.
  func currentClass() throws -> ObjectSchema {
    guard let current else { throw DumpOutputError("an object was written outside a class") }
    return current
  }

  /// Hands the JSON written so far to the sink once it fills a chunk, or with `force` whenever
  /// there is any. The writer keeps its nesting state.
  mutating func flush(force: Bool = false) throws {
    guard !writer.buffer.isEmpty, force || writer.buffer.count >= outputChunkSize else { return }
    try sink(writer.buffer)
    writer.buffer.removeAll(keepingCapacity: true)
  }
}
