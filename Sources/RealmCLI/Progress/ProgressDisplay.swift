#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Dispatch
import RealmModel

/// Draws a ``ProgressCounter`` on standard error while a command works, in place, a few times a
/// second, and erases it when the work is done.
///
/// The work never waits for the display: it only bumps the counter, and a timer on a queue of
/// its own reads the counter and redraws. Nothing is drawn before ``delay`` seconds (short
/// commands stay silent), and nothing at all unless ``isEnabled(terminal:quiet:resultsShareTheTerminal:)``
/// says so (standard error is a terminal and `--quiet` was not given).
final class ProgressDisplay: @unchecked Sendable {
  /// Redraws per second.
  static let interval = 0.2
  /// Seconds before the first frame, unless `REALMCTL_PROGRESS_DELAY` says otherwise (like
  /// git's `GIT_PROGRESS_DELAY`).
  static let defaultDelay = 1.0

  private let label: String
  private let counter: ProgressCounter
  private let write: (String) -> Void
  private let width: () -> Int
  private let queue = DispatchQueue(label: "realmctl.progress")
  private let timer: any DispatchSourceTimer
  private let start = ProgressDisplay.now()
  /// Touched only on `queue`.
  private var drawn = false

  /// Whether progress is shown: standard error is a terminal, `--quiet` is not given, and the
  /// results do not scroll on the same terminal (a `dump` printing its table there).
  static func isEnabled(terminal: Terminal, quiet: Bool, resultsShareTheTerminal: Bool = false)
    -> Bool
  {
    terminal.isStandardErrorTerminal && !quiet
      && !(resultsShareTheTerminal && terminal.isStandardOutputTerminal)
  }

  /// Starts showing `counter` under `label` when progress is enabled for this context, else
  /// returns nil. Call ``finish()`` (nil-safe through optional chaining) when the work ends.
  static func start(
    _ label: String, counter: ProgressCounter, context: CommandContext, quiet: Bool,
    resultsShareTheTerminal: Bool = false
  ) -> ProgressDisplay? {
    guard
      isEnabled(
        terminal: context.terminal, quiet: quiet, resultsShareTheTerminal: resultsShareTheTerminal)
    else { return nil }
    let destination = context.standardError.destination
    let fallbackWidth = context.terminal.width
    let delay = context.environment["REALMCTL_PROGRESS_DELAY"].flatMap(Double.init) ?? defaultDelay
    return ProgressDisplay(
      label: label, counter: counter, delay: max(0, delay),
      write: { text in
        var text = text
        text.withUTF8 { try? destination.writeAll(UnsafeRawBufferPointer($0)) }
      },
      width: { Terminal.windowWidth(fd: 2) ?? fallbackWidth })
  }

  /// A display that writes its frames with `write` and fits them to `width()` columns.
  init(
    label: String, counter: ProgressCounter, delay: Double, write: @escaping (String) -> Void,
    width: @escaping () -> Int
  ) {
    self.label = label
    self.counter = counter
    self.write = write
    self.width = width
    timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(
      deadline: .now() + .milliseconds(Int(delay * 1000)),
      repeating: .milliseconds(Int(Self.interval * 1000)))
    timer.setEventHandler { [weak self] in self?.draw() }
    timer.resume()
  }

  /// Stops drawing and erases the line; returns once no frame can be drawn any more.
  func finish() {
    timer.cancel()
    queue.sync {
      if drawn { write("\r\u{1B}[K") }
      drawn = false
    }
  }

  private func draw() {
    let line = ProgressLine.render(
      label: label, completed: counter.completed, total: counter.total, unit: counter.unit,
      elapsed: Self.now() - start, width: width())
    write("\r" + line + "\u{1B}[K")
    drawn = true
  }

  private static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}
