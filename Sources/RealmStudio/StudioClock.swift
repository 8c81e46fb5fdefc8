#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import HTTPServer

/// The server time of one request, from the monotonic clock: written into an answer as `ms`
/// and as a `Server-Timing` header (which the benchmarks read).
struct StudioClock {
  private let start = StudioClock.now()

  /// Milliseconds since the clock was made.
  var milliseconds: Double { (StudioClock.now() - start) * 1000 }

  /// `response` with `Server-Timing: app;dur=MS`.
  func timed(_ response: HTTPResponse) -> HTTPResponse {
    var r = response
    let ms = (milliseconds * 1000).rounded() / 1000
    r.setHeader("Server-Timing", "app;dur=\(ms)")
    return r
  }

  /// Seconds of the monotonic clock.
  static func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }
}
