#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads lines from a terminal with a ``LineEditor``: puts the terminal in raw mode while a
/// line is edited (and only then), feeds the key bytes to the editor and writes its screen
/// bytes back.
///
/// The window width is read before every key, so a resized window is redrawn to its new
/// width. Output goes through `OPOST` as usual, so results printed between lines need no
/// special care.
public final class TerminalLineReader {
  /// What ``readLine(prompt:)`` returns.
  public enum Result: Equatable, Sendable {
    /// A line was entered.
    case line(String)
    /// Ctrl-C abandoned the line.
    case interrupted
    /// Ctrl-D on an empty line, or the terminal closed.
    case endOfFile
  }

  /// The editor (its history and completer can be set between lines).
  public var editor: LineEditor
  private let input: Int32
  private let output: Int32
  private var decoder = KeyDecoder()

  /// Milliseconds to wait after an Escape for the rest of a sequence.
  static let escapeTimeout: Int32 = 50

  /// A reader of the terminal on `input`, drawing on `output`.
  public init(input: Int32 = 0, output: Int32 = 1, history: History = History()) {
    self.input = input
    self.output = output
    editor = LineEditor(prompt: "", history: history)
  }

  /// Whether `fd` is a terminal a line editor can drive (not `TERM=dumb`).
  public static func isInteractive(_ fd: Int32, environment: [String: String]) -> Bool {
    isatty(fd) == 1 && environment["TERM"] != "dumb"
  }

  /// Edits one line after `prompt`.
  public func readLine(prompt: String) -> Result {
    editor.prompt = prompt
    guard let saved = enterRawMode() else { return .endOfFile }
    defer { restore(saved) }
    send(editor.start(width: width()))
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      let wait: Int32 = decoder.hasPending ? Self.escapeTimeout : -1
      var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, wait)
      if ready < 0 {
        if errno == EINTR { continue }
        return .endOfFile
      }
      var keys: [Key]
      if ready == 0 {
        keys = decoder.flush()
      } else {
        let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        if n <= 0 { return .endOfFile }
        keys = decoder.feed(buffer[0..<n])
      }
      for key in keys {
        let event = editor.handle(key, width: width())
        send(editor.takeOutput())
        switch event {
        case .none: continue
        case .accepted(let line): return .line(line)
        case .interrupted: return .interrupted
        case .endOfFile: return .endOfFile
        case .suspend:
          restore(saved)
          kill(getpid(), SIGTSTP)
          // Continued: raw mode again and the line drawn anew.
          _ = enterRawMode()
          editor.redraw(width: width())
          send(editor.takeOutput())
        }
      }
    }
  }

  /// The terminal's width in columns (80 when it does not say).
  public func width() -> Int {
    var size = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
    return Int(size.ws_col)
  }

  // MARK: - Private

  private func send(_ text: String) {
    var bytes = Array(text.utf8)
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeMutableBytes { write(output, $0.baseAddress! + done, $0.count - done) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
      done += n
    }
  }

  /// Raw mode: no echo, bytes as they come, no signals from Ctrl-C/Z/\ (the editor handles
  /// them), no flow control, CR not turned into NL; output processing stays on.
  private func enterRawMode() -> termios? {
    var saved = termios()
    guard tcgetattr(input, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(input, TCSADRAIN, &raw) == 0 else { return nil }
    return saved
  }

  private func restore(_ saved: termios) {
    var saved = saved
    tcsetattr(input, TCSADRAIN, &saved)
  }
}
