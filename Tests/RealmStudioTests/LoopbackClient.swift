#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

import Foundation

/// A client that sends raw bytes to a server on 127.0.0.1 and reads the answer until the server
/// closes the connection (requests say `Connection: close`), for tests that send what a
/// browser never would.
struct LoopbackClient {
  let port: Int

  struct Answer {
    var status: Int
    var head: String
    var body: String
    func header(_ name: String) -> String? {
      for line in head.split(separator: "\r\n").dropFirst() {
        let parts = line.split(separator: ":", maxSplits: 1)
        if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
      }
      return nil
    }
  }

  struct Failure: Error, CustomStringConvertible { var description: String }

  /// Sends `parts` one after the other (waiting `pause` seconds between them) and returns the
  /// answer; nil when the server closed without one.
  func exchange(_ parts: [[UInt8]], pause: Double = 0, timeout: Double = 15) throws -> Answer? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
    defer { close(fd) }
    var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw Failure(description: "connect: \(errno)") }
    for (i, part) in parts.enumerated() {
      if i > 0 && pause > 0 { usleep(useconds_t(pause * 1_000_000)) }
      var offset = 0
      while offset < part.count {
        let n = part[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if n <= 0 { break }
        offset += n
      }
    }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n <= 0 { break }
      received += buffer[0..<n]
    }
    guard !received.isEmpty else { return nil }
    let text = String(decoding: received, as: UTF8.self)
    let split = text.range(of: "\r\n\r\n")
    let head = split.map { String(text[..<$0.lowerBound]) } ?? text
    let body = split.map { String(text[$0.upperBound...]) } ?? ""
    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    return Answer(status: status, head: head, body: body)
  }

  /// A whole request: method, target, header lines and body, with `Connection: close`.
  func request(_ method: String, _ target: String, headers: [String], body: String = "") throws -> Answer? {
    var text = "\(method) \(target) HTTP/1.1\r\n"
    for h in headers { text += h + "\r\n" }
    if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.utf8.count)\r\n" }
    text += "Connection: close\r\n\r\n" + body
    return try exchange([Array(text.utf8)])
  }
}
