/// A sink for a new file that hands the bytes out in chunks as they accumulate, so a whole
/// file never sits in memory. RealmFormat does no I/O: `write` (given by the caller, e.g.
/// RealmStorage) puts each chunk into the file, in order, starting at offset 0 with 24 zero
/// bytes that stand for the header.
///
/// Typical use: build the file, ``flush()``, then write the header from
/// ``GroupWriter/FinishedFile`` at offset 0 and extend the file to its `fileSize`.
public struct StreamingNodeSink: SequentialNodeSink {
  /// Receives the next chunk; returns false when it could not be written (the sink then
  /// stops calling it and reports ``failed``).
  public typealias ChunkWriter = ([UInt8]) -> Bool

  private var buffer: [UInt8]
  private var written = 0
  private let chunkSize: Int
  private let write: ChunkWriter
  /// True once `write` reported a failure; everything after it is dropped.
  public private(set) var failed = false

  /// Creates a sink that passes chunks of about `chunkSize` bytes to `write`.
  public init(chunkSize: Int = 1 << 20, write: @escaping ChunkWriter) {
    self.chunkSize = max(chunkSize, 4096)
    self.write = write
    buffer = [UInt8](repeating: 0, count: 24)
    buffer.reserveCapacity(self.chunkSize + 4096)
  }

  /// The offset the next node will be placed at.
  public var endOffset: Int { written + buffer.count }

  /// Appends `node`; passes the buffer on once it holds a chunk.
  public mutating func append(_ node: [UInt8]) -> Ref {
    precondition(node.count >= 8 && node.count & 7 == 0, "a node must be a multiple of 8 bytes")
    let ref = Ref(endOffset)
    buffer.append(contentsOf: node)
    if buffer.count >= chunkSize { flush() }
    return ref
  }

  /// Passes everything buffered to `write`.
  public mutating func flush() {
    guard !buffer.isEmpty else { return }
    if !failed && !write(buffer) { failed = true }
    written += buffer.count
    buffer.removeAll(keepingCapacity: true)
  }
}
