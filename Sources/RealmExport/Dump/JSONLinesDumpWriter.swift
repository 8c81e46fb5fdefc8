import RealmFormat
import RealmModel
import RealmJSON

/// `dump --format jsonl`: the canonical JSON Lines of `docs/dump-format.md`, one object per
/// line, streamed in chunks of 64 KiB.
public struct JSONLinesDumpWriter: DumpWriter {
  private var output: CanonicalJSONOutput

  /// Creates a writer that hands its output to `sink`.
  public init(sink: @escaping OutputSink) { output = CanonicalJSONOutput(sink: sink, indent: 0) }

  public mutating func begin(schema: Schema) throws { output.encoder = CanonicalEncoder(schema: schema) }

  public mutating func beginClass(_ objectSchema: ObjectSchema) throws { output.current = objectSchema }

  public mutating func writeObject(key: Int64, values: [RealmValue]) throws {
    output.encoder.appendLine(try output.currentClass(), key: key, values: values, to: &output.writer)
    try output.flush()
  }

  public mutating func endClass() throws { output.current = nil }

  public func chunkEncoder() -> (any DumpChunkEncoder)? {
    guard let current = output.current else { return nil }
    return JSONLinesChunkEncoder(encoder: output.encoder, objectSchema: current)
  }

  public mutating func writeEncoded(_ bytes: [UInt8], objectCount: Int) throws {
    try output.flush(force: true)
    if !bytes.isEmpty { try output.sink(bytes) }
  }

  public mutating func finish() throws { try output.flush(force: true) }
}

/// Encodes lines of one class for ``JSONLinesDumpWriter``, on any thread.
struct JSONLinesChunkEncoder: DumpBatchEncoder {
  let encoder: CanonicalEncoder
  let objectSchema: ObjectSchema

  func encode(_ objects: (_ add: (_ key: Int64, _ values: [RealmValue]) -> Void) throws -> Void) throws -> [UInt8] {
    // Room for a typical chunk, so that the buffer is not copied while it grows.
    var writer = JSONWriter(indent: 0, capacity: 1 << 20)
    try objects { key, values in encoder.appendLine(objectSchema, key: key, values: values, to: &writer) }
    return writer.buffer
  }

  func encodeBatches(_ batches: (_ add: (ObjectBatch) -> Void) throws -> Void) throws -> [UInt8] {
    let lines = JSONLinesBatchEncoder(encoder: encoder, objectSchema: objectSchema)
    // Room for a typical chunk, so that the buffer is not copied while it grows.
    var out = ByteOutput(capacity: 1 << 20)
    var scratch = JSONLinesBatchEncoder.Scratch()
    try batches { batch in lines.append(batch, to: &out, scratch: &scratch) }
    return out.bytes
  }
}
