import RealmFormat
import RealmModel
import RealmJSON

/// `dump --format json`: one pretty-printed JSON document (2-space indent) grouping the
/// objects by class, classes in dump order:
///
/// ```json
/// {
///   "Person": [
///     {
///       "$class": "Person",
///       "$key": 0,
///       "name": "Ada",
///       "dogs": [
///         {"$ref":"Dog","$key":3}
///       ]
///     }
///   ],
///   "Dog": []
/// }
/// ```
///
/// Each object is exactly the canonical object of the JSON Lines dump (same members, same value
/// encodings, wrappers such as `{"$oid":…}` kept on one line), only pretty-printed, so a
/// program reading one format reads the other. Streamed: memory does not grow with the file.
public struct JSONDocumentDumpWriter: DumpWriter {
  private let sink: OutputSink
  private var writer = JSONWriter(indent: 2, capacity: outputChunkSize + 4096)
  private var encoder = CanonicalEncoder(
    schema: Schema(schemaVersion: nil, fileFormat: 0, classes: []))
  private var current: ObjectSchema?

  /// Creates a writer that hands its output to `sink`.
  public init(sink: @escaping OutputSink) { self.sink = sink }

  public mutating func begin(schema: Schema) throws {
    encoder = CanonicalEncoder(schema: schema)
    writer.beginObject()
  }

  public mutating func beginClass(_ objectSchema: ObjectSchema) throws {
    current = objectSchema
    writer.key(objectSchema.name)
    writer.beginArray()
  }

  public mutating func writeObject(key: Int64, values: [RealmValue]) throws {
    guard let cls = current else { throw DumpOutputError("an object was written outside a class") }
    encoder.writeObject(cls, key: key, values: values, to: &writer)
    if writer.buffer.count >= outputChunkSize { try flush() }
  }

  public mutating func endClass() throws {
    writer.endArray()
    current = nil
  }

  public mutating func finish() throws {
    writer.endObject()
    writer.buffer.append(0x0A)
    try flush()
  }

  private mutating func flush() throws {
    guard !writer.buffer.isEmpty else { return }
    try sink(writer.buffer)
    // Keep the nesting state, drop the bytes already written.
    writer.buffer.removeAll(keepingCapacity: true)
  }
}
