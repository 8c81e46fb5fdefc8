import RealmFormat
import RealmModel

/// A node sink that streams a new file to disk through an ``AtomicFileReplacement/Output``,
/// so a whole-file rewrite needs memory for one buffer, not for the file.
///
/// The first 24 bytes are reserved for the header, written by ``finish(header:fileSize:)``.
/// `NodeSink.append` cannot throw, so the first write error is kept and rethrown by
/// ``finish(header:fileSize:)``; nothing is written after it.
public struct FileNodeSink: SequentialNodeSink {
  let output: AtomicFileReplacement.Output
  var buffer: [UInt8] = []
  var flushed = 24
  var error: StorageError?
  let bufferSize: Int
  /// Counts the bytes written, a buffer at a time.
  public var progress: ProgressCounter?

  /// Starts a file: reserves the header.
  public init(output: AtomicFileReplacement.Output, bufferSize: Int = 1 << 20) throws(StorageError) {
    self.output = output
    self.bufferSize = bufferSize
    try output.write([UInt8](repeating: 0, count: 24))
    buffer.reserveCapacity(bufferSize)
  }

  /// The offset the next node gets.
  public var endOffset: Int { flushed + buffer.count }

  /// Appends a node (buffered).
  public mutating func append(_ node: [UInt8]) -> Ref {
    let ref = Ref(endOffset)
    buffer.append(contentsOf: node)
    if buffer.count >= bufferSize { flush() }
    return ref
  }

  mutating func flush() {
    guard !buffer.isEmpty else { return }
    if error == nil {
      do throws(StorageError) {
        try output.write(buffer)
      } catch let e {
        error = e
      }
    }
    flushed += buffer.count
    progress?.add(buffer.count)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes what is buffered, pads the file to `fileSize` and writes the header.
  public mutating func finish(header: [UInt8], fileSize: Int) throws(StorageError) {
    flush()
    if let pending = self.error { throw pending }
    if fileSize > flushed { try output.write([UInt8](repeating: 0, count: fileSize - flushed)) }
    do {
      try header.withUnsafeBytes { b in try output.write(b, at: 0) }
    } catch let e as StorageError {
      throw e
    } catch {
      throw StorageError(.io, path: output.path, "writing the header of '\(output.path)' failed: \(error)")
    }
  }
}

/// A node sink that only counts (dry runs): nodes are measured, not kept.
public struct CountingNodeSink: SequentialNodeSink {
  /// The offset the next node gets.
  public private(set) var endOffset = 24
  /// Creates an empty sink.
  public init() {}
  /// Measures a node.
  public mutating func append(_ node: [UInt8]) -> Ref {
    let ref = Ref(endOffset)
    endOffset += node.count
    return ref
  }
}
