/// An accepted connection's descriptor (non-blocking) with reads and writes that wait with a
/// deadline and wake up when the server stops.
struct ConnectionSocket {
  /// What a read found.
  enum ReadResult: Equatable {
    /// This many bytes (in the scratch buffer).
    case bytes(Int)
    /// The client closed its half, or the connection broke.
    case end
    /// Nothing came before the deadline.
    case timeout
    /// The server is stopping.
    case stopped
  }

  /// The client is gone or too slow to take the answer: the write was abandoned.
  struct WriteFailed: Error {}

  let descriptor: Int32
  /// The read end of the server's wake pipe: readable once the server stops.
  let wake: Int32
  /// Where `read` puts what it receives.
  private(set) var scratch = [UInt8](repeating: 0, count: 64 * 1024)

  init(descriptor: Int32, wake: Int32) {
    self.descriptor = descriptor
    self.wake = wake
  }

  /// Milliseconds from now to `deadline`, at least 0.
  private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
    let left = ContinuousClock.now.duration(to: deadline)
    if left <= .zero { return 0 }
    let (seconds, attoseconds) = left.components
    return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
  }

  /// Reads what is available, waiting until `deadline` for something to come.
  mutating func read(until deadline: ContinuousClock.Instant, watchStop: Bool = true) -> ReadResult {
    while true {
      let received = scratch.withUnsafeMutableBytes { SystemCalls.receiveBytes(descriptor, $0) }
      if received > 0 { return .bytes(received) }
      if received == 0 { return .end }
      let code = SystemCalls.errorNumber
      if code == SystemCalls.interrupted { continue }
      guard SystemCalls.wouldBlock(code) else { return .end }
      let wait = Self.milliseconds(until: deadline)
      if wait == 0 { return .timeout }
      guard
        let ready = SystemCalls.poll(
          descriptor, events: SystemCalls.readable, watchStop ? wake : -1, events: SystemCalls.readable, milliseconds: wait)
      else { return .timeout }
      if watchStop && ready.second != 0 { return .stopped }
      if ready.first & SystemCalls.readable == 0 && ready.first & SystemCalls.broken != 0 { return .end }
    }
  }

  /// Sends every byte of `bytes`, waiting at most `timeout` seconds each time the client takes
  /// nothing. Throws ``WriteFailed`` when the client is gone or too slow.
  func write(_ bytes: UnsafeRawBufferPointer, timeout: Double) throws(WriteFailed) {
    var offset = 0
    while offset < bytes.count {
      let sent = SystemCalls.sendBytes(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
      if sent > 0 {
        offset += sent
        continue
      }
      let code = SystemCalls.errorNumber
      if sent < 0 && code == SystemCalls.interrupted { continue }
      guard sent < 0, SystemCalls.wouldBlock(code) else { throw WriteFailed() }
      let milliseconds = Int32(clamping: Int(timeout * 1000))
      guard let ready = SystemCalls.poll(descriptor, events: SystemCalls.writable, -1, events: 0, milliseconds: milliseconds),
        ready.first & SystemCalls.writable != 0
      else { throw WriteFailed() }
    }
  }

  /// Sends `bytes` (see ``write(_:timeout:)-(UnsafeRawBufferPointer,_)``).
  func write(_ bytes: [UInt8], timeout: Double) throws(WriteFailed) {
    let sent = bytes.withUnsafeBytes { raw in (try? write(raw, timeout: timeout)) != nil }
    if !sent { throw WriteFailed() }
  }

  /// Closes the connection so that the client reads everything sent: the sending half is shut,
  /// then what the client still sends (the rest of a refused body) is read and dropped for up
  /// to `lingerSeconds` or 1 MiB, since closing with unread bytes makes the system send a reset,
  /// which can destroy the answer before the client reads it.
  mutating func closeGracefully(lingerSeconds: Double = 1) {
    SystemCalls.shutdownWrites(descriptor)
    let deadline = ContinuousClock.now + .milliseconds(Int(lingerSeconds * 1000))
    var drained = 0
    while drained < 1 << 20, case .bytes(let count) = read(until: deadline, watchStop: false) { drained += count }
    SystemCalls.closeDescriptor(descriptor)
  }

  /// Closes the connection at once.
  func closeNow() {
    SystemCalls.closeDescriptor(descriptor)
  }
}
