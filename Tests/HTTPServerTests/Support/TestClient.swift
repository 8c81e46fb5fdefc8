import Foundation
import HTTPServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A raw TCP client over loopback: sends exactly the bytes a test writes and reads answers
/// byte by byte, so that malformed requests reach the server as they are.
final class TestClient {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// One answer read from the connection.
  struct Response {
    var status: Int
    var reason: String
    var headers: HTTPHeaders
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The chunk sizes of a chunked body, in order (the last, 0, included).
    var chunkSizes: [Int] = []
  }

  let descriptor: Int32
  private var buffer: [UInt8] = []

  /// Connects to 127.0.0.1:`port`; reads wait at most `timeout` seconds.
  init(port: Int, timeout: Double = 5) throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM_VALUE), 0)
    guard descriptor >= 0 else { throw Failure(description: "socket failed") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0 else {
      #if canImport(Glibc)
        _ = Glibc.close(descriptor)
      #else
        _ = Darwin.close(descriptor)
      #endif
      throw Failure(description: "connect failed: \(errno)")
    }
    setTimeout(timeout)
    #if canImport(Darwin)
      var one: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  private var closed = false

  deinit { close() }

  /// Closes the connection.
  func close() {
    guard !closed else { return }
    closed = true
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
  }

  /// Makes reads wait at most `seconds`.
  func setTimeout(_ seconds: Double) {
    var time = timeval(tv_sec: Int(seconds), tv_usec: .init((seconds - Double(Int(seconds))) * 1_000_000))
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Sends bytes; false when the server has closed the connection (EPIPE, ECONNRESET).
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { raw in
        #if canImport(Glibc)
          Glibc.send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
        #else
          Darwin.send(descriptor, raw.baseAddress, raw.count, 0)
        #endif
      }
      if sent <= 0 { return false }
      offset += sent
    }
    return true
  }

  @discardableResult
  func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// Closes the sending half (the server reads the end of the stream).
  func shutdownWrites() {
    #if canImport(Glibc)
      shutdown(descriptor, Int32(SHUT_WR))
    #else
      shutdown(descriptor, SHUT_WR)
    #endif
  }

  /// Reads more bytes into the buffer: false at the end of the stream or a timeout.
  private func fill() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return false }
    buffer += chunk[0..<count]
    return true
  }

  /// Whether the server closed the connection (the end of the stream, or a reset) with no
  /// more bytes sent, waiting at most the read timeout.
  func isClosedByServer() -> Bool {
    if !buffer.isEmpty { return false }
    var byte: UInt8 = 0
    let count = recv(descriptor, &byte, 1, 0)
    if count == 1 { buffer.append(byte) }
    if count == 0 { return true }
    return count < 0 && (errno == ECONNRESET || errno == EPIPE)
  }

  /// Every byte until the server closes (or the timeout).
  func readToEnd() -> [UInt8] {
    while fill() {}
    defer { buffer = [] }
    return buffer
  }

  private func line() throws -> String {
    while true {
      if let lf = buffer.firstIndex(of: 10) {
        guard lf > 0, buffer[lf - 1] == 13 else { throw Failure(description: "the server sent a bare LF") }
        let text = String(decoding: buffer[..<(lf - 1)], as: UTF8.self)
        buffer.removeSubrange(...lf)
        return text
      }
      guard fill() else { throw Failure(description: "the connection ended inside a line") }
    }
  }

  private func bytes(_ count: Int) throws -> [UInt8] {
    while buffer.count < count {
      guard fill() else { throw Failure(description: "the connection ended inside a body") }
    }
    defer { buffer.removeSubrange(..<count) }
    return Array(buffer[..<count])
  }

  /// Reads one answer (framed by Content-Length, chunks, or the end of the stream); an answer
  /// to HEAD (`head: true`) has no body.
  func readResponse(head: Bool = false) throws -> Response {
    let statusLine = try line()
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
      throw Failure(description: "bad status line \(statusLine)")
    }
    var headers = HTTPHeaders()
    while true {
      let field = try line()
      if field.isEmpty { break }
      guard let colon = field.firstIndex(of: ":") else { throw Failure(description: "bad field \(field)") }
      headers.add(name: String(field[..<colon]), value: field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    var response = Response(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers, body: [])
    if head || status == 204 || status == 304 || (100..<200).contains(status) { return response }
    if let length = headers["Content-Length"] {
      response.body = try bytes(Int(length)!)
    } else if headers["Transfer-Encoding"] == "chunked" {
      while true {
        let sizeLine = try line()
        guard let size = Int(sizeLine, radix: 16) else { throw Failure(description: "bad chunk size \(sizeLine)") }
        response.chunkSizes.append(size)
        if size == 0 {
          guard try line().isEmpty else { throw Failure(description: "trailers after the last chunk") }
          break
        }
        response.body += try bytes(size)
        guard try line().isEmpty else { throw Failure(description: "no CRLF after a chunk") }
      }
    } else {
      response.body = readToEnd()
    }
    return response
  }

  /// Sends `request` and reads its answer.
  func exchange(_ request: String, head: Bool = false) throws -> Response {
    send(request)
    return try readResponse(head: head)
  }
}

#if canImport(Glibc)
  let SOCK_STREAM_VALUE = SOCK_STREAM.rawValue
#else
  let SOCK_STREAM_VALUE = SOCK_STREAM
#endif
