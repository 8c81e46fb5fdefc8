import ProcessSpawn

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program on a new pseudo-terminal, as a person at a terminal would: the program's
/// standard input, output and error are the terminal (its controlling terminal, in a session of
/// its own), the test types bytes and reads the screen through a ``TerminalScreen``.
///
/// ```swift
/// let pty = try PseudoTerminal(["/path/realmctl", "shell", "a.realm"])
/// try pty.waitFor { $0.text.contains("realm> ") }
/// pty.type(".quit\r")
/// let status = try pty.waitForExit()
/// ```
public final class PseudoTerminal {
  /// Thrown when the program cannot be started or a wait times out.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// The screen as drawn so far.
  public private(set) var screen: TerminalScreen
  /// Every byte the program wrote.
  public private(set) var transcript: [UInt8] = []
  private let master: Int32
  private let slavePath: String
  private let pid: pid_t
  private var exitStatus: Int32?

  /// Starts `arguments[0]` with `arguments` on a `width` × `height` terminal. `environment`
  /// replaces the process environment (a `TERM` is added when missing).
  public init(
    _ arguments: [String], environment: [String: String], width: Int = 80, height: Int = 24
  ) throws {
    screen = TerminalScreen(width: width, height: height)
    (master, slavePath) = try Self.openMaster()
    var size = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)

    // After setsid, opening the terminal makes it the controlling terminal of the new session.
    var env = environment
    if env["TERM"] == nil { env["TERM"] = "xterm-256color" }
    var spawn = ProcessSpawn(arguments, searchingPath: false, environment: env)
    spawn.fileActions = [.open(0, slavePath, O_RDWR), .duplicate(0, as: 1), .duplicate(0, as: 2)]
    spawn.startsSession = true
    spawn.defaultSignals = [SIGINT, SIGTSTP, SIGPIPE, SIGQUIT, SIGCHLD]
    spawn.unblocksSignals = true
    let child: pid_t
    do {
      child = try spawn.start()
    } catch {
      close(master)
      throw Failure(description: "cannot start \(arguments.first ?? "nothing"): \(error)")
    }
    pid = child
  }

  /// Opens a new pseudo-terminal master and returns it with its slave's path.
  private static func openMaster() throws -> (Int32, String) {
    #if os(Linux)
      // posix_openpt/grantpt/unlockpt/ptsname are not visible to Swift's Glibc module; these
      // are the same calls.
      let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
      guard fd >= 0 else { throw Failure(description: "cannot open /dev/ptmx: errno \(errno)") }
      var unlock: Int32 = 0
      var number: UInt32 = 0
      let TIOCSPTLCK: UInt = 0x4004_5431
      let TIOCGPTN: UInt = 0x8004_5430
      guard ioctl(fd, TIOCSPTLCK, &unlock) == 0, ioctl(fd, TIOCGPTN, &number) == 0 else {
        close(fd)
        throw Failure(description: "cannot unlock the pseudo-terminal: errno \(errno)")
      }
      return (fd, "/dev/pts/\(number)")
    #else
      let fd = posix_openpt(O_RDWR | O_NOCTTY)
      guard fd >= 0, grantpt(fd) == 0, unlockpt(fd) == 0, let name = ptsname(fd) else {
        throw Failure(description: "cannot open a pseudo-terminal: errno \(errno)")
      }
      return (fd, String(cString: name))
    #endif
  }

  deinit {
    if exitStatus == nil {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    close(master)
  }

  /// Sends `text` as typed keys.
  public func type(_ text: String) { send(Array(text.utf8)) }

  /// Sends raw bytes (escape sequences, control characters).
  public func send(_ bytes: [UInt8]) {
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { write(master, $0.baseAddress! + done, bytes.count - done) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return }
      done += n
    }
  }

  /// Reads the program's output until `condition` holds for the screen; throws after
  /// `timeout` seconds with the screen in the message.
  public func waitFor(
    _ what: String = "the expected screen", timeout: Double = 20,
    _ condition: (TerminalScreen) -> Bool
  ) throws {
    let deadline = Self.now() + timeout
    while !condition(screen) {
      let left = deadline - Self.now()
      guard left > 0, readAvailable(waitingUpTo: min(left, 0.2)) else {
        if condition(screen) { return }
        if left > 0 { continue }
        throw Failure(description: "timed out waiting for \(what); screen:\n\(screen.text)")
      }
    }
  }

  /// Reads everything until the program exits; returns its exit status (128 + n for a signal).
  public func waitForExit(timeout: Double = 20) throws -> Int32 {
    let deadline = Self.now() + timeout
    while true {
      // Drain the output (EIO once the last slave descriptor is closed).
      while readAvailable(waitingUpTo: 0.05) {}
      var status: Int32 = 0
      let done = waitpid(pid, &status, WNOHANG)
      if done == pid {
        while readAvailable(waitingUpTo: 0.05) {}
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        exitStatus = code
        return code
      }
      if Self.now() > deadline {
        throw Failure(description: "the program did not exit; screen:\n\(screen.text)")
      }
    }
  }

  /// Reads what is available within `seconds`; false when nothing came.
  @discardableResult
  private func readAvailable(waitingUpTo seconds: Double) -> Bool {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, Int32(seconds * 1000))
    guard ready > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
    guard n > 0 else { return false }
    transcript.append(contentsOf: buffer[0..<n])
    screen.feed(buffer[0..<n])
    return true
  }

  private static func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}
