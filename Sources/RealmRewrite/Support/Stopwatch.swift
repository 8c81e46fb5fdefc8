#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The time a command has taken, read from the monotonic clock (which changes of the system
/// time do not move). Every report of a write (migrate, edits, upgrade, unsync) states its
/// `seconds` with one.
package struct Stopwatch: Sendable {
  private let start: Double

  /// Starts timing now.
  package init() { start = Self.now() }

  /// Seconds since the stopwatch was started.
  package var elapsedSeconds: Double { Self.now() - start }

  private static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}
