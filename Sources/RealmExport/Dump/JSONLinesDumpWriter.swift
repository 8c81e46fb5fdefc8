import RealmFormat
import RealmModel
import RealmJSON

/// `dump --format jsonl`: the canonical JSON Lines of `docs/dump-format.md`, one object per
/// line, streamed in chunks of 64 KiB.
public struct JSONLinesDumpWriter: DumpWriter {
  private let sink: OutputSink
  private var writer = JSONWriter(indent: 0, capacity: outputChunkSize + 4096)
  private var encoder = CanonicalEncoder(
    schema: Schema(schemaVersion: nil, fileFormat: 0, classes: []))
  private var current: ObjectSchema?

  /// Creates a writer that hands its output to `sink`.
  public init(sink: @escaping OutputSink) { self.sink = sink }

  public mutating func begin(schema: Schema) throws { encoder = CanonicalEncoder(schema: schema) }

  public mutating func beginClass(_ objectSchema: ObjectSchema) throws { current = objectSchema }

  public mutating func writeObject(key: Int64, values: [RealmValue]) throws {
    guard let cls = current else { throw DumpOutputError("an object was written outside a class") }
    encoder.appendLine(cls, key: key, values: values, to: &writer)
    if writer.buffer.count >= outputChunkSize { try flush() }
  }

  public mutating func endClass() throws { current = nil }

  public func chunkEncoder() -> (any DumpChunkEncoder)? {
    guard let current else { return nil }
    return JSONLinesChunkEncoder(encoder: encoder, objectSchema: current)
  }

  public mutating func writeEncoded(_ bytes: [UInt8], objectCount: Int) throws {
    try flush()
    if !bytes.isEmpty { try sink(bytes) }
  }

  public mutating func finish() throws { try flush() }

  private mutating func flush() throws {
    guard !writer.buffer.isEmpty else { return }
    try sink(writer.buffer)
    writer.reset()
  }
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
