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
  private var output: CanonicalJSONOutput

  /// Creates a writer that hands its output to `sink`.
  public init(sink: @escaping OutputSink) { output = CanonicalJSONOutput(sink: sink, indent: 2) }

  public mutating func begin(schema: Schema) throws {
    output.encoder = CanonicalEncoder(schema: schema)
    output.writer.beginObject()
  }

  public mutating func beginClass(_ objectSchema: ObjectSchema) throws {
    output.current = objectSchema
    output.writer.key(objectSchema.name)
    output.writer.beginArray()
  }

  public mutating func writeObject(key: Int64, values: [RealmValue]) throws {
    output.encoder.writeObject(try output.currentClass(), key: key, values: values, to: &output.writer)
    try output.flush()
  }

  public mutating func endClass() throws {
    output.writer.endArray()
    output.current = nil
  }

  public mutating func finish() throws {
    output.writer.endObject()
    output.writer.buffer.append(0x0A)
    try output.flush(force: true)
  }
}
