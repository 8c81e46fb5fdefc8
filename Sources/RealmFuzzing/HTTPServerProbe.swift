import Foundation
import HTTPServer
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `http` fuzz target's live server: one per process, on a free loopback port, with the
/// parser checks' limits and a handler that echoes what it received. Each input is sent on a
/// connection of its own, whose writing half is then closed; the server must answer as the
/// parser decoded the input.
final class HTTPServerProbe: Sendable {
  static let shared = HTTPServerProbe()

  private let server: HTTPServer?
  private let startFailure: String?

  private init() {
    var limits = HTTPParserChecks.limits
    limits.headerTimeout = 10
    limits.bodyTimeout = 10
    limits.idleTimeout = 10
    limits.writeTimeout = 10
    do {
      let server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0, limits: limits), handler: Self.echo)
      self.server = server
      self.startFailure = nil
      Thread.detachNewThread { server.run() }
    } catch {
      self.server = nil
      self.startFailure = "the server did not start: \(error)"
    }
  }

  /// What the server answers to a request: its method, target, body size and a hash of it.
  static func echo(_ request: HTTPRequest) -> HTTPResponse {
    .text(echoText(request))
  }

  static func echoText(_ request: HTTPRequest) -> String {
    let hash = request.body.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    return "\(request.method) \(request.target) \(request.headers.count) \(request.body.count) \(hash)"
  }

  /// What is wrong with the server's answers to `input`; empty when they are right.
  func problems(_ input: [UInt8]) -> [String] {
    guard let server else { return [startFailure ?? "no server"] }
    let expected = HTTPParserChecks.decode(input)
    var connection = Self.exchange(input, port: server.port, source: nextSource())
    // (A connection refused for a moment, e.g. while a port of the source address is still
    // taken, is tried again before it counts.)
    for _ in 0..<50 where connection.answer == nil {
      usleep(20_000)
      connection = Self.exchange(input, port: server.port, source: nextSource())
    }
    guard let answer = connection.answer else {
      return ["no connection to the server: \(String(cString: strerror(connection.error)))"]
    }
    guard answer.ended else { return ["the server did not close the connection within 10 s"] }

    // The requests it serves: up to the first that closes the connection.
    var served: [HTTPRequest] = []
    var closedByRequest = false
    for request in expected.requests {
      served.append(request)
      if request.minorVersion == 0 || request.headers.values(for: "Connection").contains(where: Self.hasClose) {
        closedByRequest = true
        break
      }
    }
    var bytes = answer.bytes[...]
    var problems: [String] = []
    for (index, request) in served.enumerated() {
      guard let response = Self.nextResponse(&bytes, head: request.method == "HEAD") else {
        return problems + ["no answer \(index + 1) for \(request.method) \(request.target) of \(served.count)"]
      }
      let echo = Self.echoText(request)
      if response.status != 200 { problems.append("answer \(index + 1): status \(response.status) instead of 200") }
      if request.method == "HEAD" {
        if response.length != echo.utf8.count { problems.append("answer \(index + 1) to HEAD: length \(response.length)") }
      } else if String(decoding: response.body, as: UTF8.self) != echo {
        problems.append("answer \(index + 1): \(String(decoding: response.body, as: UTF8.self)) instead of \(echo)")
      }
    }
    if !closedByRequest, let failure = expected.failure {
      guard let response = Self.nextResponse(&bytes, head: false) else { return problems + ["no \(failure.status) answer"] }
      if response.status != failure.status { problems.append("status \(response.status) instead of \(failure.status)") }
    }
    if !bytes.isEmpty { problems.append("\(bytes.count) bytes after the expected answers") }
    return problems
  }

  private static func hasClose(_ value: String) -> Bool {
    value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "close" }
  }

  /// One parsed answer (interim 1xx answers skipped).
  private struct Response {
    var status: Int
    var length: Int
    var body: [UInt8]
  }

  /// The next final answer at the start of `bytes` (consumed), or nil.
  private static func nextResponse(_ bytes: inout ArraySlice<UInt8>, head: Bool) -> Response? {
    while true {
      let terminator: [UInt8] = [13, 10, 13, 10]
      guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: terminator) }) else { return nil }
      let text = String(decoding: bytes[..<end], as: UTF8.self)
      bytes = bytes[(end + 4)...]
      let lines = text.components(separatedBy: "\r\n")
      let statusParts = lines[0].split(separator: " ")
      guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else { return nil }
      if (100..<200).contains(status) { continue }
      var length = 0
      for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
        length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? -1
      }
      guard length >= 0 else { return nil }
      if head { return Response(status: status, length: length, body: []) }
      guard bytes.count >= length else { return nil }
      defer { bytes = bytes.dropFirst(length) }
      return Response(status: status, length: length, body: Array(bytes.prefix(length)))
    }
  }

  private let connections = Atomic<Int>(0)

  /// The loopback address the next connection comes from. The server closes first after most
  /// answers, so each connection leaves a TIME_WAIT entry on its side for a minute; from one
  /// source address, a few hundred inputs a second would use up the ephemeral ports of that
  /// address and port pair. Linux answers on all of 127.0.0.0/8, so connections come from 250
  /// of them in turn (elsewhere from 127.0.0.1, the system's choice).
  private func nextSource() -> UInt32? {
    #if os(Linux)
      let count = connections.add(1, ordering: .relaxed).newValue
      return inet_addr("127.0.0.\(2 + count % 250)")
    #else
      return nil
    #endif
  }

  /// Sends `input` to the server, closes the writing half, and reads until the server closes
  /// (at most 10 s): the answer, or nil and the `errno` of the failed connection.
  private static func exchange(_ input: [UInt8], port: Int, source: UInt32?) -> (
    answer: (bytes: [UInt8], ended: Bool)?, error: Int32
  ) {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return (nil, errno) }
    defer {
      // Closed with a reset: no TIME_WAIT, so that thousands of inputs do not use up the ports.
      var option = linger(l_onoff: 1, l_linger: 0)
      setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
      close(descriptor)
    }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    #if canImport(Darwin)
      var one: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    if let source {
      var local = sockaddr_in()
      local.sin_family = sa_family_t(AF_INET)
      local.sin_addr.s_addr = source
      _ = withUnsafePointer(to: &local) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return (nil, errno) }
    // The server may close before taking everything (after a refusal): a failed send is fine.
    var offset = 0
    while offset < input.count {
      let sent = input[offset...].withUnsafeBytes { raw in
        #if canImport(Glibc)
          send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
        #else
          send(descriptor, raw.baseAddress, raw.count, 0)
        #endif
      }
      if sent <= 0 { break }
      offset += sent
    }
    #if canImport(Glibc)
      shutdown(descriptor, Int32(SHUT_WR))
    #else
      shutdown(descriptor, SHUT_WR)
    #endif
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        received += chunk[0..<count]
        continue
      }
      if count == 0 || errno == ECONNRESET { return ((received, true), 0) }
      if errno == EINTR { continue }
      return ((received, false), 0)
    }
  }
}
