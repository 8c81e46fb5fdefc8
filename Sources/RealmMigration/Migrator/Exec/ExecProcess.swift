import Foundation

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
    #if canImport(Darwin)
      // Darwin's spawn objects are opaque pointers its init functions allocate.
      var actions: posix_spawn_file_actions_t? = nil
      var attributes: posix_spawnattr_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 clears O_CLOEXEC on the copies, so only fds 0 and 1 (and the inherited 2) survive.
    posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
    // Descriptors opened without close-on-exec (by a library, or inherited from whoever
    // started us) must not reach the program.
    #if canImport(Darwin)
      // Darwin: POSIX_SPAWN_CLOEXEC_DEFAULT (set below) closes every descriptor the actions do
      // not name, atomically; stderr is named to be inherited. (A close action for a
      // descriptor another thread closed meanwhile would make Darwin's posix_spawn fail.)
      posix_spawn_file_actions_addinherit_np(&actions, 2)
    #else
      // Linux: every one above stderr open now is closed in it after the two dup2s. (glibc
      // ignores the close of one closed meanwhile by another thread.)
      for fd in Self.openDescriptors() where fd > 2 {
        posix_spawn_file_actions_addclose(&actions, fd)
      }
    #endif
    // realmctl ignores SIGPIPE (and a caller may block signals); the program starts with the
    // defaults, as from a shell, so that e.g. `sh -c "… | head"` inside it behaves normally.
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    var emptyMask = sigset_t()
    sigemptyset(&emptyMask)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &emptyMask)
    #if canImport(Darwin)
      let flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #else
      let flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
    #endif
    posix_spawnattr_setflags(&attributes, Int16(flags))
    var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) }
    argv.append(nil)
    defer { for p in argv { free(p) } }
    // The program gets our environment: the C library's `environ` on Linux; Darwin's module
    // declares none for Swift, so there it is copied from Foundation's view of the same list.
    #if canImport(Darwin)
      var envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
      envp.append(nil)
      defer { for p in envp { free(p) } }
    #else
      let envp = environ
    #endif
    var child: pid_t = 0
    let rc = posix_spawnp(&child, program, &actions, &attributes, argv, envp)
    close(stdinPipe[0])
    close(stdoutPipe[1])
    guard rc == 0 else {
      close(stdinPipe[1])
      close(stdoutPipe[0])
      let why: String
      if rc == ENOENT {
        why = program.contains("/") ? "not found (relative paths start at the current directory)" : "not found (looked in PATH)"
      } else {
        why = Self.errnoText(rc)
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

  /// The descriptors open in this process: the entries of `/proc/self/fd` (or `/dev/fd`), or
  /// where neither can be listed, those of the first 4,096 that `fcntl` finds open.
  static func openDescriptors() -> [Int32] {
    for directory in ["/proc/self/fd", "/dev/fd"] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      let found = names.compactMap { Int32($0) }
      if !found.isEmpty { return found }
    }
    return (0..<4096).filter { fcntl($0, F_GETFD) != -1 }
  }

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

  static func errnoText(_ code: Int32) -> String {
    guard let s = strerror(code) else { return "error \(code)" }
    return String(cString: s).lowercased()
  }

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
