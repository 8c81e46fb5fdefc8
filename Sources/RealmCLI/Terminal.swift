#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the command layer needs to know about the terminal: a value, so tests can pass any.
public struct Terminal: Sendable, Hashable {
  /// Whether standard output is a terminal (decides `dump`'s default format, table widths).
  public var isStandardOutputTerminal: Bool
  /// Whether standard error is a terminal (decides colour in diagnostics).
  public var isStandardErrorTerminal: Bool
  /// Columns available for help text and tables.
  public var width: Int
  /// Whether diagnostics on standard error may use ANSI colour.
  public var usesColor: Bool

  /// The width used when nothing better is known.
  public static let defaultWidth = 80

  /// Creates a terminal description.
  public init(
    isStandardOutputTerminal: Bool = false, isStandardErrorTerminal: Bool = false,
    width: Int = Terminal.defaultWidth, usesColor: Bool = false
  ) {
    self.isStandardOutputTerminal = isStandardOutputTerminal
    self.isStandardErrorTerminal = isStandardErrorTerminal
    self.width = width
    self.usesColor = usesColor
  }

  /// A plain 80-column non-terminal, the setting of tests and pipes.
  public static let plain = Terminal()

  /// Describes the process's real terminal.
  ///
  /// Width: `$COLUMNS` when set to a positive number (a user override, as swift-argument-parser
  /// does), else the window size of standard output (`TIOCGWINSZ`), else 80. Colour: only when
  /// standard error is a terminal and `NO_COLOR` is not set (https://no-color.org).
  public static func current(environment: [String: String]) -> Terminal {
    let stdoutTTY = isatty(1) == 1
    let stderrTTY = isatty(2) == 1
    let width = columns(environment: environment, windowWidth: windowWidth(fd: 1))
    return Terminal(
      isStandardOutputTerminal: stdoutTTY, isStandardErrorTerminal: stderrTTY, width: width,
      usesColor: usesColor(stderrIsTerminal: stderrTTY, environment: environment))
  }

  /// The width rule of ``current(environment:)``, separated for tests.
  static func columns(environment: [String: String], windowWidth: Int?) -> Int {
    if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
    if let windowWidth, windowWidth > 0 { return windowWidth }
    return defaultWidth
  }

  /// The colour rule of ``current(environment:)``, separated for tests.
  static func usesColor(stderrIsTerminal: Bool, environment: [String: String]) -> Bool {
    // no-color.org: any value, even empty, disables colour.
    stderrIsTerminal && environment["NO_COLOR"] == nil
  }

  /// The column count the terminal on `fd` reports, if it is one.
  static func windowWidth(fd: Int32) -> Int? {
    var size = winsize()
    guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}
