#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import HTTPServer
import ProcessSpawn
import RealmStorage
import RealmStudio

/// `realmctl studio FILE... [--port N] [--host H] [--open|--no-open] [--read-only] [--key-file F]`:
/// a local web page to look at and edit Realm files, in place of Realm Studio.
public struct StudioCommand: Command {
  /// The port tried first when `--port` is not given; the next ones are tried when it is taken.
  public static let defaultPort = 4780
  /// Ports tried after the default one before giving up.
  static let portsTried = 20

  /// Creates the command.
  public init() {}

  /// The declaration.
  public var spec: CommandSpec {
    CommandSpec(
      name: "studio",
      abstract: "Look at and edit Realm files in a local web page.",
      discussion: """
        Starts a web server on this machine for the files named, prints its address and \
        opens it in the default browser (on a desktop; --no-open to avoid it). The page \
        shows what 'open' shows, every class as a table that pages through millions of \
        objects, Realm Query Language filters, links and backlinks, the schema as a \
        diagram and as model code for seven SDKs, exports and imports; it edits objects \
        through the engine of 'insert', 'update' and 'delete', with the same checks \
        (--read-only to never write). A file an app holds open is shown read-only. The \
        page reloads itself when a file changes on disk. Ctrl-C stops the server.

        The server listens on 127.0.0.1 only (another address needs --host, with a \
        warning) and answers only requests that carry the token of the printed address \
        (then a cookie), name the server as their host, and, for a change, come from the \
        page itself. It serves the files named here and nothing else. The page asks for \
        the key of an encrypted file (or give --key-file): a key never goes into an \
        address.

        Examples:
          realmctl studio app.realm
          realmctl studio app.realm other.realm --read-only
          realmctl studio app.realm --port 0 --no-open
        """,
      arguments: [
        .positional(
          "files", valueName: "file", isRepeating: true, completion: .realmFile, help: "The Realm files to show."),
        .option(
          "port", short: "p", valueName: "port", type: .integer(minimum: 0),
          help: "The port to listen on; 0 picks a free one. Default: \(Self.defaultPort), or the next free port after it."),
        .option(
          "host", valueName: "address", default: "127.0.0.1", completion: .text,
          help: "The address to listen on. Anything but a loopback address lets other machines reach the page (a warning is printed)."),
        .flag("open", help: "Open the page in the default browser (the default on a desktop)."),
        .flag("no-open", help: "Do not open a browser; only print the address."),
        .flag("read-only", help: "Never write: every file is shown read-only."),
      ] + KeyOptions.arguments(purpose: "of the encrypted files"))
  }

  /// Runs the server until Ctrl-C.
  public func run(_ invocation: ParsedInvocation, in context: CommandContext) throws -> ExitCode {
    if invocation.flag("open") && invocation.flag("no-open") {
      throw UsageError(.unexpectedArgument, "'--open' and '--no-open' cannot be used together", command: spec.name)
    }
    var paths: [String] = []
    for path in invocation.strings("files") where !paths.contains(path) {
      try InputFiles.requireReadableFile(path)
      paths.append(path)
    }
    let key = try KeyOptions.key(invocation, environment: context.environment, command: spec.name)
    let host = invocation.string("host") ?? "127.0.0.1"
    let readOnly = invocation.flag("read-only")
    let access = LocalAccessGuard(host: host)
    let studio = Studio(files: paths, key: key, options: Studio.Options(readOnly: readOnly, csrfToken: access.csrfToken))
    let server = try Self.listen(host: host, port: invocation.integer("port"), handler: access.wrap(studio.handle))

    if let warning = LocalAccessGuard.exposureWarning(host: host) { try context.warn(warning) }
    let address = access.address(port: server.port, host: host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host)
    let names = paths.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ", ")
    try context.standardOutput.writeLine(
      "realmctl studio: \(paths.count == 1 ? "1 file" : "\(paths.count) files") (\(names))\(readOnly ? ", read-only" : "") at")
    try context.standardOutput.writeLine("  \(address)")
    try context.standardOutput.writeLine("Press Ctrl-C to stop.")
    try context.standardOutput.flush()
    let open = invocation.flag("open") || (!invocation.flag("no-open") && Self.isDesktop(context.environment))
    if open, let failure = Self.openBrowser(address) {
      try context.warn("could not open a browser (\(failure)): open the address above")
    }
    // Ctrl-C and SIGTERM are how the server ends: a parent that started us with them blocked
    // (some test runners and process launchers do) would otherwise leave it running for good.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGINT)
    sigaddset(&stopSignals, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
    server.stopOnSignals()
    server.run()
    try context.standardError.writeLine("realmctl studio: stopped")
    return .success
  }

  /// The server on `port`, or with none given, on the default port or the next free one.
  static func listen(
    host: String, port: Int?, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
  ) throws -> HTTPServer {
    var limits = HTTPServerConfiguration.Limits()
    // Imports send whole files.
    limits.maxBodyBytes = 64 << 20
    let allowsOthers = !HTTPServerConfiguration.isLoopback(host: host)
    let candidates = port.map { [$0] } ?? Array(defaultPort..<(defaultPort + portsTried))
    var lastError: HTTPServerError?
    for candidate in candidates {
      do {
        return try HTTPServer(
          configuration: HTTPServerConfiguration(host: host, port: candidate, allowsNonLoopbackHost: allowsOthers, limits: limits),
          handler: handler)
      } catch {
        lastError = error
        if case .addressInUse = error, port == nil { continue }
        break
      }
    }
    let message = lastError.map { $0.description } ?? "cannot listen"
    if case .addressInUse? = lastError, port == nil {
      throw RealmCtlError(
        .locked, "ports \(defaultPort) to \(defaultPort + portsTried - 1) are all in use: give --port (0 picks a free one)")
    }
    if case .system? = lastError { throw RealmCtlError(.ioFailure, message) }
    throw UsageError(.invalidValue, message, command: "studio")
  }

  /// True where a browser can be shown: macOS (outside an SSH session), or a Linux session
  /// with a display.
  static func isDesktop(_ environment: [String: String]) -> Bool {
    #if canImport(Darwin)
      return (environment["SSH_CONNECTION"] ?? "").isEmpty
    #else
      return !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    #endif
  }

  /// Starts the default browser on `address` (`open` on macOS, `xdg-open` elsewhere), without
  /// waiting for it; nil when it started, else why not.
  static func openBrowser(_ address: String) -> String? {
    #if canImport(Darwin)
      let program = "open"
    #else
      let program = "xdg-open"
    #endif
    var spawn = ProcessSpawn([program, address], searchingPath: true)
    spawn.fileActions = [.open(0, "/dev/null", O_RDONLY), .open(1, "/dev/null", O_WRONLY), .open(2, "/dev/null", O_WRONLY)]
    let child: pid_t
    do {
      child = try spawn.start()
    } catch {
      return error.code == ENOENT ? "'\(program)' not found" : error.description
    }
    // Reaped in the background: the opener returns at once, the browser lives on.
    reapInBackground(child)
    return nil
  }
}

/// Waits for `pid` on a thread of its own, so that it does not stay a zombie.
private func reapInBackground(_ pid: pid_t) {
  var thread = pthread_t()
  let box = UnsafeMutablePointer<pid_t>.allocate(capacity: 1)
  box.pointee = pid
  let started = pthread_create(
    &thread, nil,
    { raw in
      guard let p = raw?.assumingMemoryBound(to: pid_t.self) else { return nil }
      var status: Int32 = 0
      _ = waitpid(p.pointee, &status, 0)
      p.deallocate()
      return nil
    }, box)
  if started == 0 { pthread_detach(thread) } else { box.deallocate() }
}
