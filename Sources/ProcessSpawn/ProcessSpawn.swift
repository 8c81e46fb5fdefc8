import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A program to start with `posix_spawn`, and the state it starts in: what its descriptors
/// become, which signals it starts with at their defaults, whether it leads a session of its own.
///
/// ```swift
/// var spawn = ProcessSpawn(["xdg-open", address], searchingPath: true)
/// spawn.fileActions = [.open(0, "/dev/null", O_RDONLY), .open(1, "/dev/null", O_WRONLY)]
/// let pid = try spawn.start()
/// ```
///
/// The caller reaps the child (`waitpid`).
public struct ProcessSpawn: Sendable {
  /// One change to the child's descriptors, made in order before the program runs.
  public enum FileAction: Sendable, Equatable {
    /// Opens `path` with `flags` as descriptor `descriptor` (a file it creates gets mode 0666
    /// less the umask).
    case open(_ descriptor: Int32, _ path: String, _ flags: Int32)
    /// Makes `target` a copy of `source`; the copy does not keep close-on-exec.
    case duplicate(_ source: Int32, as: Int32)
  }

  /// Why a program could not be started: `posix_spawn`'s error number.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error number (`ENOENT` when the program was not found).
    public let code: Int32
    /// A failure with error number `code`.
    public init(code: Int32) { self.code = code }
    /// The C library's text for ``code``, in lower case.
    public var description: String {
      guard let text = strerror(code) else { return "error \(code)" }
      return String(cString: text).lowercased()
    }
  }

  /// The program's arguments, the program first.
  public var arguments: [String]
  /// Looks the program up in `PATH` when its name has no slash (`posix_spawnp`).
  public var searchingPath: Bool
  /// The program's environment; nil for this process's.
  public var environment: [String: String]?
  /// The changes to its descriptors, in order.
  public var fileActions: [FileAction] = []
  /// Descriptors above 2 that ``fileActions`` do not make are closed in the child, whether or
  /// not they are close-on-exec (one a library opened without the flag, or one inherited from
  /// whoever started us). Descriptors 0-2 are kept.
  public var closesOtherDescriptors = false
  /// Signals the program starts with at their default dispositions (one this process ignores,
  /// such as `SIGPIPE`, would otherwise stay ignored in it).
  public var defaultSignals: [Int32] = []
  /// The program starts with no signal blocked, whatever this thread blocks.
  public var unblocksSignals = false
  /// The program leads a new session (`setsid`): a terminal it then opens becomes its
  /// controlling terminal.
  public var startsSession = false

  /// A program to start with `arguments`, with this process's environment and descriptors.
  public init(_ arguments: [String], searchingPath: Bool, environment: [String: String]? = nil) {
    self.arguments = arguments
    self.searchingPath = searchingPath
    self.environment = environment
  }

  /// Starts the program and returns its process id. Throws ``Failure`` when it cannot be
  /// started (`ENOENT`: not found).
  public func start() throws(Failure) -> pid_t {
    guard let program = arguments.first else { throw Failure(code: EINVAL) }
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
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }

    var made: Set<Int32> = []
    for action in fileActions {
      switch action {
      case .open(let descriptor, let path, let flags):
        posix_spawn_file_actions_addopen(&actions, descriptor, path, flags, 0o666)
        made.insert(descriptor)
      case .duplicate(let source, let target):
        posix_spawn_file_actions_adddup2(&actions, source, target)
        made.insert(target)
      }
    }
    var flags: Int32 = 0
    if closesOtherDescriptors {
      #if canImport(Darwin)
        // POSIX_SPAWN_CLOEXEC_DEFAULT closes every descriptor the actions do not name,
        // atomically; the standard ones not made above are named to be inherited. (A close
        // action for a descriptor another thread closed meanwhile would make Darwin's
        // posix_spawn fail.)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        for descriptor: Int32 in 0...2 where !made.contains(descriptor) {
          posix_spawn_file_actions_addinherit_np(&actions, descriptor)
        }
      #else
        // Every descriptor above stderr open now is closed after the actions. (glibc ignores
        // the close of one another thread closed meanwhile.)
        for descriptor in Self.openDescriptors() where descriptor > 2 && !made.contains(descriptor) {
          posix_spawn_file_actions_addclose(&actions, descriptor)
        }
      #endif
    }
    if !defaultSignals.isEmpty {
      var defaults = sigset_t()
      sigemptyset(&defaults)
      for signal in defaultSignals { sigaddset(&defaults, signal) }
      posix_spawnattr_setsigdefault(&attributes, &defaults)
      flags |= Int32(POSIX_SPAWN_SETSIGDEF)
    }
    if unblocksSignals {
      var none = sigset_t()
      sigemptyset(&none)
      posix_spawnattr_setsigmask(&attributes, &none)
      flags |= Int32(POSIX_SPAWN_SETSIGMASK)
    }
    if startsSession {
      #if os(Linux)
        flags |= 0x80  // POSIX_SPAWN_SETSID, which Glibc's module does not export
      #else
        flags |= 0x0400  // Darwin's POSIX_SPAWN_SETSID
      #endif
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var child: pid_t = 0
    let rc: Int32
    if let environment {
      let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer { for p in envp { free(p) } }
      rc = spawn(&child, program, &actions, &attributes, argv, envp)
    } else {
      #if canImport(Darwin)
        // Darwin's module declares no `environ` for Swift: the same list, through Foundation.
        let envp: [UnsafeMutablePointer<CChar>?] =
          ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in envp { free(p) } }
        rc = spawn(&child, program, &actions, &attributes, argv, envp)
      #else
        rc = spawn(&child, program, &actions, &attributes, argv, environ)
      #endif
    }
    guard rc == 0 else { throw Failure(code: rc) }
    return child
  }

  #if canImport(Darwin)
    private typealias Actions = posix_spawn_file_actions_t?
    private typealias Attributes = posix_spawnattr_t?
  #else
    private typealias Actions = posix_spawn_file_actions_t
    private typealias Attributes = posix_spawnattr_t
  #endif

  /// `posix_spawnp` or `posix_spawn`, as ``searchingPath`` says.
  private func spawn(
    _ child: inout pid_t, _ program: String, _ actions: inout Actions, _ attributes: inout Attributes,
    _ argv: [UnsafeMutablePointer<CChar>?], _ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>?
  ) -> Int32 {
    searchingPath
      ? posix_spawnp(&child, program, &actions, &attributes, argv, envp)
      : posix_spawn(&child, program, &actions, &attributes, argv, envp)
  }

  /// The descriptors open in this process: the entries of `/proc/self/fd` (or `/dev/fd`), or
  /// where neither can be listed, those of the first 4,096 that `fcntl` finds open.
  public static func openDescriptors() -> [Int32] {
    for directory in ["/proc/self/fd", "/dev/fd"] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      let found = names.compactMap { Int32($0) }
      if !found.isEmpty { return found }
    }
    return (0..<4096).filter { fcntl($0, F_GETFD) != -1 }
  }
}
