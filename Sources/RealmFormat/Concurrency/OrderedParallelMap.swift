import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A bounded, ordered parallel map: the one pipeline of the package that runs work on every
/// core while a single thread consumes the results in the order the work was submitted.
///
/// The calling thread submits inputs; each is transformed on a global queue; results are
/// handed back to the calling thread in submission order. At most ``window`` inputs are in
/// flight (being transformed, or transformed and waiting for their turn), so memory stays
/// bounded whatever the number of inputs. Errors come in submission order too: the first
/// failing input's error is the one thrown, as with a sequential loop.
///
/// ```swift
/// var pipeline = OrderedParallelMap<[UInt8], Int>(window: 6) { bytes in bytes.count }
/// try pipeline.submit(chunk) { count in total += count }   // consumes older results as needed
/// try pipeline.finish { count in total += count }
/// ```
public final class OrderedParallelMap<Input, Output>: @unchecked Sendable {
  /// The number of processors available, at least 1.
  public static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// Inputs in flight at most.
  public let window: Int
  private let transform: @Sendable (Input) throws -> Output
  private let tasks = DispatchGroup()
  private var pending: [Slot] = []
  private var head = 0

  /// One input's result, filled by a worker and read by the consumer after `done` is signalled.
  private final class Slot: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var result: Result<Output, any Error>?
  }

  /// A pipeline that runs `transform` on at most `window` inputs at a time.
  public init(window: Int, transform: @escaping @Sendable (Input) throws -> Output) {
    self.window = max(1, window)
    self.transform = transform
  }

  deinit { tasks.wait() }

  /// Submits `input`; when the window is full, first hands the oldest result to `consume`.
  public func submit(_ input: Input, consume: (Output) throws -> Void) throws {
    if pending.count - head >= window { try consumeOldest(consume) }
    submitAhead(input)
  }

  /// Inputs submitted whose results are not consumed yet.
  public var inFlight: Int { pending.count - head }

  /// Submits `input` without consuming anything: for a consumer that pulls results with
  /// ``nextResult()`` and keeps ``inFlight`` within ``window`` itself.
  public func submitAhead(_ input: Input) {
    let slot = Slot()
    pending.append(slot)
    let transform = self.transform
    nonisolated(unsafe) let input = input
    DispatchQueue.global().async(group: tasks) {
      slot.result = Result { try transform(input) }
      slot.done.signal()
    }
  }

  /// Waits for the oldest result not consumed yet and returns it (nil when none is pending).
  public func nextResult() throws -> Output? {
    guard head < pending.count else { return nil }
    var output: Output?
    try consumeOldest { output = $0 }
    return output
  }

  /// Hands every remaining result to `consume`, in order.
  public func finish(consume: (Output) throws -> Void) throws {
    while head < pending.count { try consumeOldest(consume) }
  }

  /// Runs `body` on a global queue of the pipeline's group (work that must be done before the
  /// pipeline is released, off the consuming thread: freeing a large result, say).
  public func runDetached(_ body: @escaping @Sendable () -> Void) {
    DispatchQueue.global().async(group: tasks, execute: body)
  }

  /// Waits until every submitted input is transformed (results not consumed are dropped).
  public func waitForWorkers() { tasks.wait() }

  private func consumeOldest(_ consume: (Output) throws -> Void) throws {
    let slot = pending[head]
    head += 1
    if head > 64, head * 2 > pending.count {
      pending.removeFirst(head)
      head = 0
    }
    slot.done.wait()
    let result = slot.result!
    slot.result = nil
    try consume(try result.get())
  }
}
