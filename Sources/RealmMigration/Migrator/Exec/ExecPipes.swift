import Foundation
import RealmJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Feeds the program's stdin from its own thread, so that a program that writes its answers
/// before reading all of its input (or buffers them) never blocks us: the migrator hands over
/// chunks of lines and keeps reading answers meanwhile.
///
/// At most `capacity` bytes wait here; `send` blocks beyond that (the program reads them).
/// When the program stops reading (it exited or closed stdin), further chunks are dropped:
/// the missing answers are reported by the reader side.
final class ExecInputWriter: @unchecked Sendable {
  private let fd: Int32
  private let capacity: Int
  private let condition = NSCondition()
  private var chunks: [[UInt8]] = []
  private var head = 0
  private var queuedBytes = 0
  private var finished = false
  private var broken = false
  private var done = false

  init(fd: Int32, capacity: Int = 1 << 20) {
    self.fd = fd
    self.capacity = capacity
  }

  /// Starts the writing thread; it closes `fd` when done, through `closeInput`.
  func start(closeInput: @escaping @Sendable () -> Void) {
    Thread.detachNewThread { [self] in
      // A program that stops reading makes write() raise SIGPIPE in this thread: blocked here,
      // it stays pending and is dropped with the thread, and write() returns EPIPE. (Changing
      // the process-wide disposition instead would race with other threads doing the same.)
      var pipeSignal = sigset_t()
      sigemptyset(&pipeSignal)
      sigaddset(&pipeSignal, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
      self.loop()
      closeInput()
      self.condition.lock()
      self.done = true
      self.condition.broadcast()
      self.condition.unlock()
    }
  }

  /// Queues a chunk of complete lines.
  func send(_ chunk: [UInt8]) {
    condition.lock()
    defer { condition.unlock() }
    while queuedBytes >= capacity && !broken { condition.wait() }
    if broken { return }
    chunks.append(chunk)
    queuedBytes += chunk.count
    condition.broadcast()
  }

  /// No more input: the program's stdin is closed once the queue is written.
  func finish() {
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// Stops writing at once (after an error) and drops what is queued.
  func cancel() {
    condition.lock()
    broken = true
    finished = true
    chunks.removeAll()
    head = 0
    queuedBytes = 0
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until the thread has closed the program's stdin.
  func join() {
    condition.lock()
    while !done { condition.wait() }
    condition.unlock()
  }

  private func loop() {
    while true {
      condition.lock()
      while head == chunks.count && !finished && !broken { condition.wait() }
      if broken || head == chunks.count {
        condition.unlock()
        return
      }
      let chunk = chunks[head]
      chunks[head] = []
      head += 1
      if head == chunks.count {
        chunks.removeAll(keepingCapacity: true)
        head = 0
      }
      condition.unlock()
      let ok = writeAll(chunk)
      condition.lock()
      queuedBytes -= chunk.count
      if !ok { broken = true }
      condition.broadcast()
      condition.unlock()
      if !ok { return }
    }
  }

  /// Writes every byte; false when the program no longer reads (EPIPE; SIGPIPE is blocked in this thread).
  private func writeAll(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw -> Bool in
      guard let base = raw.baseAddress else { return true }
      var offset = 0
      while offset < raw.count {
        let n = write(fd, base + offset, raw.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += n
      }
      return true
    }
  }
}

/// Reads the program's stdout on its own thread and splits it into lines, so the program is
/// never blocked on a full pipe while we wait on something else.
final class ExecOutputReader: @unchecked Sendable {
  /// What ``next(wait:)`` found.
  enum Next {
    /// A non-blank line and its 1-based line number in the program's output.
    case line([UInt8], Int)
    /// Nothing yet (only without waiting).
    case none
    /// The output ended.
    case end
  }

  private let fd: Int32
  private let condition = NSCondition()
  private var lines: [([UInt8], Int)] = []
  private var head = 0
  private var ended = false
  private var failure: (any Error)?
  private let maxLineLength: Int

  init(fd: Int32, maxLineLength: Int) {
    self.fd = fd
    self.maxLineLength = maxLineLength
  }

  /// Starts the reading thread.
  func start() {
    Thread.detachNewThread { [self] in self.loop() }
  }

  /// The next line; waits for one (or the end) when `wait` is true.
  func next(wait: Bool) throws -> Next {
    condition.lock()
    defer { condition.unlock() }
    while wait && head == lines.count && !ended && failure == nil { condition.wait() }
    if let failure { throw failure }
    if head < lines.count {
      let line = lines[head]
      lines[head] = ([], 0)
      head += 1
      if head == lines.count {
        lines.removeAll(keepingCapacity: true)
        head = 0
      }
      return .line(line.0, line.1)
    }
    if ended { return .end }
    return .none
  }

  /// Waits until the program's output has ended (it closed stdout or was killed).
  func join() {
    condition.lock()
    while !ended { condition.wait() }
    condition.unlock()
  }

  private func loop() {
    var splitter = JSONLineSplitter(maxLineLength: maxLineLength)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var failed = false
    while true {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      // After a failure the rest is read and dropped, so the program is never left blocked.
      guard !failed else { continue }
      do {
        try splitter.feed(Array(buffer[0..<n])) { line, number in append(line, number) }
      } catch {
        fail(error)
        failed = true
      }
    }
    if !failed {
      do { try splitter.finish { line, number in append(line, number) } } catch { fail(error) }
    }
    condition.lock()
    ended = true
    condition.broadcast()
    condition.unlock()
  }

  private func fail(_ error: any Error) {
    condition.lock()
    failure = error
    condition.broadcast()
    condition.unlock()
  }

  private func append(_ line: [UInt8], _ number: Int) {
    condition.lock()
    lines.append((line, number))
    condition.broadcast()
    condition.unlock()
  }
}
