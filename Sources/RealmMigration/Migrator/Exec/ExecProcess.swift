import Foundation
import ProcessSpawn

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process started for an `exec` step: its stdin and stdout are pipes owned by us, its
/// stderr is ours (passed through), its working directory and environment are ours.
final class ExecProcess: @unchecked Sendable {
  /// How the program ended.
  enum Termination: Equatable {
    case exited(Int32)
    case signaled(Int32)
  }

  let pid: pid_t
  /// Write end of the program's stdin (closed by ``closeInput()``).
  private(set) var inputFD: Int32
  /// Read end of the program's stdout.
  private(set) var outputFD: Int32
  private var termination: Termination?

  /// Starts `command` (argv; the first element is looked up in `PATH` unless it contains a
  /// slash). Throws `execFailed` when the program cannot be started.
  init(command: [String], path: String) throws {
    guard let program = command.first, !program.isEmpty else {
      throw MigrationError(.execFailed, path: path, "the command is empty")
    }
    // One spawn at a time in this process, from the pipes' creation to the closing of the
    // program's ends: where pipe2 is missing (a static executable), no program we start can
    // inherit another's pipe end between pipe() and fcntl().
    Self.spawnLock.lock()
    defer { Self.spawnLock.unlock() }
    var stdinPipe: [Int32] = [-1, -1]
    var stdoutPipe: [Int32] = [-1, -1]
    guard Self.makePipe(&stdinPipe) else {
      throw MigrationError(.execFailed, path: path, "cannot create a pipe for '\(program)': \(Self.errnoText(errno))")
    }
    guard Self.makePipe(&stdoutPipe) else {
      close(stdinPipe[0])
      close(stdinPipe[1])
      throw MigrationError(.execFailed, path: path, "cannot create a pipe for '\(program)': \(Self.errnoText(errno))")
    }
    // dup2 clears close-on-exec on the copies, so only fds 0 and 1 (and the inherited 2) reach
    // the program: descriptors opened without close-on-exec (by a library, or inherited from
    // whoever started us) are closed in it. realmctl ignores SIGPIPE (and a caller may block
    // signals); the program starts with the defaults, as from a shell, so that e.g.
    // `sh -c "… | head"` inside it behaves normally. It gets our environment.
    var spawn = ProcessSpawn(command, searchingPath: true)
    spawn.fileActions = [.duplicate(stdinPipe[0], as: 0), .duplicate(stdoutPipe[1], as: 1)]
    spawn.closesOtherDescriptors = true
    spawn.defaultSignals = [SIGPIPE]
    spawn.unblocksSignals = true
    let child: pid_t
    do {
      child = try spawn.start()
      close(stdinPipe[0])
      close(stdoutPipe[1])
    } catch {
      close(stdinPipe[0])
      close(stdoutPipe[1])
      close(stdinPipe[1])
      close(stdoutPipe[0])
      let why: String
      if error.code == ENOENT {
        why = program.contains("/") ? "not found (relative paths start at the current directory)" : "not found (looked in PATH)"
      } else {
        why = error.description
      }
      throw MigrationError(.execFailed, path: path, "cannot run '\(command.joined(separator: " "))': '\(program)' \(why)")
    }
    pid = child
    inputFD = stdinPipe[1]
    outputFD = stdoutPipe[0]
  }

  deinit {
    if inputFD >= 0 { close(inputFD) }
    if outputFD >= 0 { close(outputFD) }
    if termination == nil {
      kill(pid, SIGKILL)
      _ = waitForExit()
    }
  }

  /// Closes the program's stdin: it sees the end of its input.
  func closeInput() {
    if inputFD >= 0 {
      close(inputFD)
      inputFD = -1
    }
  }

  /// Closes our end of the program's stdout.
  func closeOutput() {
    if outputFD >= 0 {
      close(outputFD)
      outputFD = -1
    }
  }

  /// Stops the program (after an error on our side) and reaps it.
  func terminate() {
    guard termination == nil else { return }
    kill(pid, SIGKILL)
    _ = waitForExit()
  }

  /// Waits for the program to end.
  func waitForExit() -> Termination {
    if let termination { return termination }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else {
        let t = Termination.exited(-1)
        termination = t
        return t
      }
    }
    // The W* macros are not imported: low 7 bits = terminating signal (0 = normal exit).
    let signal = status & 0x7f
    let t: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    termination = t
    return t
  }

  private static let spawnLock = NSLock()

  /// A pipe whose ends are not inherited by other programs. The close-on-exec flag is set
  /// atomically (pipe2) where the C library can be asked for it: with pipe + fcntl, a program
  /// started meanwhile by another thread could inherit an end, keep our program's stdin open
  /// and so never let it see the end of its input (our own spawns wait for `spawnLock`; other
  /// code of the process might not).
  private static func makePipe(_ fds: inout [Int32]) -> Bool {
    #if os(Linux)
      if let pipe2 = GlibcExtras.pipe2 {
        return fds.withUnsafeMutableBufferPointer { buffer in
          guard let base = buffer.baseAddress else { return false }
          return pipe2(base, O_CLOEXEC) == 0
        }
      }
    #elseif canImport(Darwin)
      // Darwin has no pipe2: pipe + fcntl below. Programs this process starts cannot inherit
      // the ends meanwhile (POSIX_SPAWN_CLOEXEC_DEFAULT), and ours wait for spawnLock.
    #endif
    guard pipe(&fds) == 0 else { return false }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    return true
  }

  /// The C library's text for an error number, in lower case (as `ProcessSpawn` words it).
  static func errnoText(_ code: Int32) -> String { ProcessSpawn.Failure(code: code).description }

  /// A readable name for a signal number ("SIGKILL"), for messages.
  static func signalName(_ signal: Int32) -> String {
    switch signal {
    case SIGKILL: return "SIGKILL"
    case SIGTERM: return "SIGTERM"
    case SIGSEGV: return "SIGSEGV"
    case SIGABRT: return "SIGABRT"
    case SIGINT: return "SIGINT"
    case SIGPIPE: return "SIGPIPE"
    case SIGHUP: return "SIGHUP"
    case SIGBUS: return "SIGBUS"
    default: return "signal \(signal)"
    }
  }
}

// Darwin needs no lookup: it has no pipe2 (see makePipe).
#if os(Linux)
  /// glibc functions the Glibc module does not export (they need _GNU_SOURCE), looked up once;
  /// nil where the C library lacks them or cannot be asked (a static executable).
  private enum GlibcExtras {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    static let pipe2: Pipe2? = symbol("pipe2", as: Pipe2.self)

    private static func symbol<F>(_ name: String, as type: F.Type) -> F? {
      guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, name) else { return nil }
      return unsafeBitCast(address, to: type)
    }
  }
#endif
