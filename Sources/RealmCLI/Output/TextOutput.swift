/// A buffered output stream for standard output or standard error.
///
/// Commands write text or bytes; nothing reaches the destination until 64 KiB have gathered
/// or ``flush()`` is called, so dumping a million objects costs a few hundred `write(2)` calls,
/// not one per line. A `final class` with no generic or existential on the per-write path.
///
/// After a write fails (for example `EPIPE` when `realmctl dump x | head` stops reading) every
/// later write throws the same error at once, so a long dump stops quickly.
public final class TextOutput {
  /// The destination of the bytes.
  public let destination: any OutputDestination
  private var buffer: [UInt8]
  private let capacity: Int
  private var failure: RealmCtlError?

  /// Creates an output over `destination` with a buffer of `capacity` bytes.
  public init(_ destination: any OutputDestination, capacity: Int = 1 << 16) {
    self.destination = destination
    self.capacity = max(1, capacity)
    self.buffer = []
    buffer.reserveCapacity(self.capacity)
  }

  /// An output that collects everything in memory (for tests); read it with ``text``.
  public static func memory() -> TextOutput { TextOutput(MemoryDestination()) }

  /// The process's standard output (file descriptor 1).
  public static func standardOutput() -> TextOutput { TextOutput(FileDescriptorDestination(fd: 1)) }

  /// The process's standard error (file descriptor 2); small buffer so messages appear promptly.
  public static func standardError() -> TextOutput {
    TextOutput(FileDescriptorDestination(fd: 2), capacity: 4096)
  }

  /// Everything written so far, when the destination is a ``MemoryDestination`` (flushes first).
  public var text: String {
    try? flush()
    guard let memory = destination as? MemoryDestination else { return "" }
    return String(decoding: memory.bytes, as: UTF8.self)
  }

  // MARK: - Writing

  /// Writes the UTF-8 bytes of `string`.
  public func write(_ string: String) throws(RealmCtlError) {
    if let failure { throw failure }
    let count = string.utf8.count
    if buffer.count + count <= capacity {
      // Fast path: a native string's UTF-8 view is copied into the buffer with memcpy.
      buffer.append(contentsOf: string.utf8)
      return
    }
    try flush()
    if count < capacity {
      buffer.append(contentsOf: string.utf8)
      return
    }
    // Larger than the whole buffer: straight to the destination. withUTF8 only rethrows
    // untyped errors, so the typed error is carried out by hand.
    var string = string
    var error: RealmCtlError?
    string.withUTF8 { bytes in
      do throws(RealmCtlError) { try send(UnsafeRawBufferPointer(bytes)) } catch let thrown {
        error = thrown
      }
    }
    if let error { throw error }
  }

  /// Writes `string` followed by a newline.
  public func writeLine(_ string: String) throws(RealmCtlError) {
    try write(string)
    try write(byte: 0x0A)
  }

  /// Writes one byte.
  public func write(byte: UInt8) throws(RealmCtlError) {
    if let failure { throw failure }
    if buffer.count >= capacity { try flush() }
    buffer.append(byte)
  }

  /// Writes raw bytes (already encoded UTF-8 for text output).
  public func write(bytes: UnsafeRawBufferPointer) throws(RealmCtlError) {
    if let failure { throw failure }
    if buffer.count + bytes.count > capacity {
      try flush()
      if bytes.count >= capacity {
        try send(bytes)
        return
      }
    }
    buffer.append(contentsOf: bytes)
  }

  /// Writes the bytes of an array.
  public func write(bytes: [UInt8]) throws(RealmCtlError) {
    if let failure { throw failure }
    if buffer.count + bytes.count <= capacity {
      buffer.append(contentsOf: bytes)
      return
    }
    var error: RealmCtlError?
    bytes.withUnsafeBytes { raw in
      do throws(RealmCtlError) { try write(bytes: raw) } catch let thrown { error = thrown }
    }
    if let error { throw error }
  }

  /// Sends everything buffered to the destination.
  public func flush() throws(RealmCtlError) {
    if let failure { throw failure }
    guard !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    var error: RealmCtlError?
    buffer.withUnsafeBytes { raw in
      do throws(RealmCtlError) { try send(raw) } catch let thrown { error = thrown }
    }
    if let error { throw error }
  }

  private func send(_ bytes: UnsafeRawBufferPointer) throws(RealmCtlError) {
    do {
      try destination.writeAll(bytes)
    } catch {
      failure = error
      throw error
    }
  }
}
