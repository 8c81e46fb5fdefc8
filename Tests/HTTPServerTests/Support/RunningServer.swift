import Dispatch
import Foundation
import HTTPServer

/// A server running on a thread of its own for one test, stopped when the test ends.
final class RunningServer: @unchecked Sendable {
  let server: HTTPServer
  private let finished = DispatchSemaphore(value: 0)
  private var stopped = false

  init(
    limits: HTTPServerConfiguration.Limits = .init(), configuration: HTTPServerConfiguration? = nil,
    handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
  ) throws {
    var configuration = configuration ?? HTTPServerConfiguration(port: 0)
    if configuration.limits == HTTPServerConfiguration.Limits() { configuration.limits = limits }
    server = try HTTPServer(configuration: configuration, handler: handler)
    let server = self.server
    let finished = self.finished
    Thread.detachNewThread {
      server.run()
      finished.signal()
    }
  }

  var port: Int { server.port }

  /// Stops the server; whether `run()` returned within `seconds`.
  @discardableResult
  func stop(within seconds: Double = 10) -> Bool {
    guard !stopped else { return true }
    stopped = true
    server.stop()
    return finished.wait(timeout: .now() + seconds) == .success
  }

  /// A new client connection.
  func connect(timeout: Double = 5) throws -> TestClient {
    try TestClient(port: port, timeout: timeout)
  }

  deinit { stop() }
}

/// An echo of the request: method, path, query, selected headers and the body.
let echoHandler: @Sendable (HTTPRequest) -> HTTPResponse = { request in
  var lines = ["\(request.method) \(request.path)"]
  for (name, value) in request.query { lines.append("query \(name)=\(value)") }
  lines.append("body \(request.body.count) \(String(decoding: request.body, as: UTF8.self))")
  return .text(lines.joined(separator: "\n"))
}

/// `GET path` with a Host, as a request text.
func get(_ path: String, _ extra: String = "", port: Int = 0) -> String {
  "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(extra)\r\n"
}
