import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server over POSIX sockets: binds when created, serves each connection on a
/// thread of its own until ``stop()``.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 0)) { request in
///   request.path == "/" ? .html("<h1>Hello</h1>") : .error(404)
/// }
/// print("http://127.0.0.1:\(server.port)/")
/// server.stopOnSignals()   // Ctrl-C stops it
/// server.run()             // returns after stop()
/// ```
///
/// Requests are parsed strictly (``HTTPRequestDecoder``), held to the configuration's
/// ``HTTPServerConfiguration/Limits``, and answered in order on each connection (keep-alive
/// and pipelining). A malformed request gets its 4xx and a closed connection; the server goes
/// on. Writes never raise SIGPIPE. Put the handler behind a ``LocalAccessGuard`` for a page
/// only its user may reach.
public final class HTTPServer: Sendable {
  /// The configuration it was created with.
  public let configuration: HTTPServerConfiguration
  private let state: ServerState

  /// Binds the configuration's address and port and starts listening (connections wait for
  /// ``run()``). Throws ``HTTPServerError/addressInUse(host:port:)`` when the port is taken,
  /// ``HTTPServerError/nonLoopbackHost(_:)`` for another address without
  /// ``HTTPServerConfiguration/allowsNonLoopbackHost``.
  public init(
    configuration: HTTPServerConfiguration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
  ) throws(HTTPServerError) {
    if !configuration.allowsNonLoopbackHost && !HTTPServerConfiguration.isLoopback(host: configuration.host) {
      throw .nonLoopbackHost(configuration.host)
    }
    let listener = try ListeningSocket.bind(host: configuration.host, port: configuration.port, backlog: 128)
    guard let wake = SystemCalls.makePipe() else {
      let code = SystemCalls.errorNumber
      SystemCalls.closeDescriptor(listener.descriptor)
      throw .system(call: "pipe", code: code)
    }
    self.configuration = configuration
    self.state = ServerState(configuration: configuration, handler: handler, listener: listener, wake: wake)
  }

  /// The port the server listens on (the one the system picked when the configuration said 0).
  public var port: Int { state.port }

  /// Serves connections until ``stop()`` (or a signal of ``stopOnSignals(_:)``), then waits up
  /// to ``HTTPServerConfiguration/Limits/shutdownGracePeriod`` for the requests being answered
  /// to end (idle connections are closed at once) and returns. Call it once.
  public func run() {
    state.acceptLoop()
  }

  /// Stops the server: ``run()`` stops accepting and returns once the connections are done.
  /// Safe from any thread, any number of times.
  public func stop() {
    state.stop()
  }

  /// Makes `signals` (by default SIGINT and SIGTERM) stop the server the way ``stop()`` does;
  /// once ``run()`` has noticed, they have their default action again, so a second Ctrl-C
  /// ends a shutdown that takes too long. One server at a time per process.
  public func stopOnSignals(_ signals: [Int32] = [SIGINT, SIGTERM]) {
    state.stopOnSignals(signals)
  }
}

/// The descriptor `stopOnSignals` handlers write to: the wake pipe of the server that asked.
private let signalWakeDescriptor = Atomic<Int32>(-1)

/// What the accept loop and every connection thread share.
final class ServerState: Sendable {
  let configuration: HTTPServerConfiguration
  let handler: @Sendable (HTTPRequest) -> HTTPResponse
  let port: Int
  let wakeRead: Int32
  private let wakeWrite: Int32
  private let listener: Int32
  private let stopping = Atomic<Bool>(false)
  private let started = Atomic<Bool>(false)
  private let listenerClosed = Atomic<Bool>(false)
  private let activeConnections = Atomic<Int>(0)
  private let signals = Mutex<[Int32]>([])

  init(
    configuration: HTTPServerConfiguration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
    listener: ListeningSocket, wake: (read: Int32, write: Int32)
  ) {
    self.configuration = configuration
    self.handler = handler
    self.port = listener.port
    self.listener = listener.descriptor
    self.wakeRead = wake.read
    self.wakeWrite = wake.write
  }

  deinit {
    closeListener()
    let signals = self.signals.withLock { $0 }
    if !signals.isEmpty { _ = signalWakeDescriptor.compareExchange(expected: wakeWrite, desired: -1, ordering: .sequentiallyConsistent) }
    SystemCalls.closeDescriptor(wakeRead)
    SystemCalls.closeDescriptor(wakeWrite)
  }

  /// Whether the server is stopping (connections close instead of waiting for another request).
  var isStopping: Bool { stopping.load(ordering: .acquiring) }

  func stop() {
    stopping.store(true, ordering: .releasing)
    SystemCalls.writeByte(wakeWrite)  // never read: every poll on `wakeRead` wakes from now on
  }

  func stopOnSignals(_ list: [Int32]) {
    signals.withLock { $0 = list }
    signalWakeDescriptor.store(wakeWrite, ordering: .sequentiallyConsistent)
    for signalNumber in list {
      _ = signal(signalNumber) { _ in
        let descriptor = signalWakeDescriptor.load(ordering: .sequentiallyConsistent)
        if descriptor >= 0 { SystemCalls.writeByte(descriptor) }
      }
    }
  }

  private func closeListener() {
    if listenerClosed.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged {
      SystemCalls.closeDescriptor(listener)
    }
  }

  /// `run()`: accepts until stopped, then waits for the connections.
  func acceptLoop() {
    guard started.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else { return }
    while !isStopping {
      guard let ready = SystemCalls.poll(listener, events: SystemCalls.readable, wakeRead, events: SystemCalls.readable, milliseconds: -1)
      else { continue }
      if ready.second != 0 { break }
      if ready.first & SystemCalls.readable != 0 { acceptPending() }
    }
    stopping.store(true, ordering: .releasing)
    closeListener()
    let handled = signals.withLock { $0 }
    for signalNumber in handled { _ = signal(signalNumber, SIG_DFL) }
    let deadline = ContinuousClock.now + .milliseconds(Int(configuration.limits.shutdownGracePeriod * 1000))
    while activeConnections.load(ordering: .acquiring) > 0 && ContinuousClock.now < deadline {
      SystemCalls.sleep(milliseconds: 5)
    }
  }

  /// Accepts every connection waiting, each served on a thread of its own.
  private func acceptPending() {
    while true {
      let descriptor = SystemCalls.acceptConnection(listener)
      if descriptor < 0 {
        let code = SystemCalls.errorNumber
        if SystemCalls.wouldBlock(code) { return }
        if code == SystemCalls.interrupted || code == ECONNABORTED || code == EPROTO { continue }
        configuration.log?("accept failed: \(SystemCalls.describe(code))")
        // Out of descriptors or memory: give the connections time to end instead of spinning.
        SystemCalls.sleep(milliseconds: 100)
        return
      }
      SystemCalls.configureConnection(descriptor)
      if activeConnections.load(ordering: .acquiring) >= configuration.limits.maxConnections {
        refuseBusy(descriptor)
        continue
      }
      activeConnections.add(1, ordering: .acquiringAndReleasing)
      do {
        try DetachedThread.start { [self] in
          var connection = Connection(descriptor: descriptor, server: self)
          connection.serve()
          activeConnections.subtract(1, ordering: .acquiringAndReleasing)
        }
      } catch {
        activeConnections.subtract(1, ordering: .acquiringAndReleasing)
        configuration.log?("\(error)")
        refuseBusy(descriptor)
      }
    }
  }

  /// Answers 503 without waiting for the request (a client that cannot take it in one write
  /// gets nothing) and closes.
  private func refuseBusy(_ descriptor: Int32) {
    let response = ResponseWriter.head(
      status: 503,
      fields: [
        (name: "Content-Length", value: "0"), (name: "Connection", value: "close"), (name: "Retry-After", value: "1"),
      ])
    _ = response.withUnsafeBytes { SystemCalls.sendBytes(descriptor, $0) }
    SystemCalls.closeDescriptor(descriptor)
  }
}
