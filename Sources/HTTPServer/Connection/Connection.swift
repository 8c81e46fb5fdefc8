/// One client connection: requests read and answered in order (pipelined requests included)
/// until the client closes, asks to close, idles too long, breaks a rule, or the server stops.
struct Connection {
  private var socket: ConnectionSocket
  private let server: ServerState
  private let localPort: Int

  init(descriptor: Int32, server: ServerState) {
    self.socket = ConnectionSocket(descriptor: descriptor, wake: server.wakeRead)
    self.server = server
    self.localPort = server.port
  }

  private var limits: HTTPServerConfiguration.Limits { server.configuration.limits }

  private static func instant(after seconds: Double, from start: ContinuousClock.Instant) -> ContinuousClock.Instant {
    start + .milliseconds(Int(min(seconds, 86_400) * 1000))
  }

  /// Serves the connection to its end, then closes it.
  mutating func serve() {
    var decoder = HTTPRequestDecoder(limits: limits, localPort: localPort)
    let writer = ResponseWriter(socket: socket, configuration: server.configuration)
    var idleSince = ContinuousClock.now
    var headStarted: ContinuousClock.Instant?
    var bodyStarted: ContinuousClock.Instant?
    while true {
      switch decoder.next() {
      case .needMoreData:
        let now = ContinuousClock.now
        let deadline: ContinuousClock.Instant
        switch decoder.phase {
        case .idle:
          if server.isStopping { return socket.closeNow() }
          deadline = Self.instant(after: limits.idleTimeout, from: idleSince)
        case .head:
          if headStarted == nil { headStarted = now }
          deadline = Self.instant(after: limits.headerTimeout, from: headStarted!)
        case .body:
          if bodyStarted == nil { bodyStarted = now }
          deadline = Self.instant(after: limits.bodyTimeout, from: bodyStarted!)
        }
        switch socket.read(until: deadline) {
        case .bytes(let count):
          decoder.append(socket.scratch[0..<count])
        case .end, .stopped:
          return socket.closeNow()
        case .timeout:
          if decoder.phase == .idle { return socket.closeNow() }
          let error = HTTPRequestError(
            status: 408, reason: decoder.phase == .head ? "the request head took too long" : "the request body took too long")
          _ = writer.send(.error(error.status, error.reason), method: nil, minorVersion: 1, closing: true)
          return socket.closeGracefully()
        }
      case .continueExpected:
        do {
          try socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), timeout: limits.writeTimeout)
        } catch {
          return socket.closeNow()
        }
      case .failure(let error):
        _ = writer.send(.error(error.status, error.reason), method: nil, minorVersion: 1, closing: true)
        return socket.closeGracefully()
      case .request(let request):
        let response = server.handler(request)
        server.configuration.log.map { log in
          if response.status >= 500 { log("\(request.method) \(request.path): \(response.status)") }
        }
        let closing = request.asksToClose || server.isStopping
        switch writer.send(response, method: request.method, minorVersion: request.minorVersion, closing: closing) {
        case .broken:
          return socket.closeNow()
        case .sentMustClose:
          return socket.closeGracefully()
        case .sent:
          if closing { return socket.closeGracefully() }
        }
        idleSince = ContinuousClock.now
        headStarted = nil
        bodyStarted = nil
      }
    }
  }
}

extension HTTPRequest {
  /// Whether the connection closes after the answer: HTTP/1.0, or `Connection: close`.
  var asksToClose: Bool {
    minorVersion == 0 || headers.values(for: "Connection").flatMap(RequestHead.listElements).contains("close")
  }
}
