import Synchronization

/// How far a long operation (a dump, a migration, a new file, a compaction) has come, shared
/// between the thread doing the work and whoever shows it.
///
/// The libraries only count: the work bumps ``completed`` (through a ``ProgressTicker``, which
/// publishes in batches so the hot loop pays for a local increment), and the command line reads
/// the counts from another thread to draw them. Nothing here knows about terminals. Every
/// member is thread-safe, so parallel workers may add their chunks as they complete.
public final class ProgressCounter: Sendable {
  /// What is counted.
  public enum Unit: Sendable, Equatable {
    /// Objects read or written.
    case objects
    /// Bytes read or written.
    case bytes
  }

  /// What is counted.
  public let unit: Unit
  private let done = Atomic<Int>(0)
  private let expected = Atomic<Int>(-1)
  private let cancellation = Atomic<Bool>(false)

  /// A counter of `unit`s; `total` is the amount expected, when known.
  public init(unit: Unit = .objects, total: Int? = nil) {
    self.unit = unit
    if let total { expected.store(max(0, total), ordering: .relaxed) }
  }

  /// Work completed so far.
  public var completed: Int { done.load(ordering: .relaxed) }

  /// The amount expected, nil when unknown.
  public var total: Int? {
    let value = expected.load(ordering: .relaxed)
    return value < 0 ? nil : value
  }

  /// Records `amount` more units done.
  public func add(_ amount: Int) { done.wrappingAdd(amount, ordering: .relaxed) }

  /// Sets the amount expected (once the work knows it).
  public func setTotal(_ total: Int) { expected.store(max(0, total), ordering: .relaxed) }

  /// Asks the work to stop: loops that support it check ``isCancelled`` when they publish a
  /// batch and end with ``ProgressCancelled`` (the shell's Ctrl-C).
  public func cancel() { cancellation.store(true, ordering: .relaxed) }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { cancellation.load(ordering: .relaxed) }
}

/// Thrown by work that stops because its ``ProgressCounter`` was cancelled.
public struct ProgressCancelled: CategorizedError, Sendable, CustomStringConvertible {
  /// Creates the error.
  public init() {}
  public var description: String { "interrupted" }
  /// ``ErrorCategory/cancelled``.
  public var category: ErrorCategory { .cancelled }
}

/// The per-loop side of a ``ProgressCounter``: counts locally and publishes every
/// ``batch`` units, so a loop over a million objects makes about a thousand atomic additions.
///
/// ```swift
/// var ticker = ProgressTicker(progress)
/// defer { ticker.flush() }
/// for object in objects { ticker.tick(); … }
/// ```
public struct ProgressTicker {
  /// Units counted locally before they are published.
  public static let batch = 1024
  @usableFromInline let counter: ProgressCounter?
  @usableFromInline var pending = 0

  /// A ticker publishing to `counter` (nil: counts nothing).
  public init(_ counter: ProgressCounter?) { self.counter = counter }

  /// One unit done.
  @inlinable public mutating func tick() {
    pending &+= 1
    if pending >= ProgressTicker.batch { flush() }
  }

  /// Publishes what was counted locally.
  @inlinable public mutating func flush() {
    if pending > 0, let counter { counter.add(pending) }
    pending = 0
  }

  /// One unit done; throws ``ProgressCancelled`` (at a batch boundary) once the counter is
  /// cancelled.
  @inlinable public mutating func tickCheckingCancellation() throws(ProgressCancelled) {
    pending &+= 1
    if pending >= ProgressTicker.batch {
      flush()
      if let counter, counter.isCancelled { throw ProgressCancelled() }
    }
  }
}
