import Foundation

/// Results that worker threads fill in by index (one slot per child process of a crash test,
/// say), read once every worker is done.
public final class IndexedResults<Value>: @unchecked Sendable {
  private let lock = NSLock()
  /// The slots, nil until set.
  public private(set) var values: [Value?]

  /// `count` empty slots.
  public init(count: Int) { values = Array(repeating: nil, count: count) }

  /// Sets slot `i` (from any thread).
  public func set(_ i: Int, _ value: Value) {
    lock.lock()
    values[i] = value
    lock.unlock()
  }
}
