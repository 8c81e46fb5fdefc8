/// Frames and sends one response on a connection.
struct ResponseWriter {
  /// What became of the connection.
  enum Outcome: Equatable {
    /// The answer went out; the connection may carry another request.
    case sent
    /// The answer went out but the connection must close (HTTP/1.0 stream).
    case sentMustClose
    /// The answer could not be sent whole (the client left, or a producer failed midway):
    /// close at once.
    case broken
  }

  let socket: ConnectionSocket
  let configuration: HTTPServerConfiguration

  /// Fields the server sets itself: a handler's are dropped.
  private static let framingFields: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive"]

  /// Sends `response` to a request of `method` (nil: an error before a request was read),
  /// HTTP/1.`minorVersion`, adding `Connection: close` when `closing`.
  func send(_ response: HTTPResponse, method: String?, minorVersion: Int, closing: Bool) -> Outcome {
    var response = response
    guard var fields = prepareFields(of: &response) else {
      return send(.error(500, "the handler's answer had an invalid header"), method: method, minorVersion: minorVersion, closing: closing)
    }
    let bodyless = method == "HEAD" || HTTPStatus.forbidsBody(response.status)
    switch response.body {
    case .bytes(let bytes):
      if !HTTPStatus.forbidsBody(response.status) { fields.append((name: "Content-Length", value: String(bytes.count))) }
      if closing { fields.append((name: "Connection", value: "close")) }
      var message = Self.head(status: response.status, fields: fields)
      if !bodyless && bytes.count <= 64 * 1024 { message += bytes }
      do {
        try socket.write(message, timeout: configuration.limits.writeTimeout)
        if !bodyless && bytes.count > 64 * 1024 { try socket.write(bytes, timeout: configuration.limits.writeTimeout) }
      } catch {
        return .broken
      }
      return .sent
    case .stream(let producer):
      let chunked = minorVersion == 1
      let keepsOpen = chunked && !closing
      if !HTTPStatus.forbidsBody(response.status) && chunked { fields.append((name: "Transfer-Encoding", value: "chunked")) }
      if !keepsOpen { fields.append((name: "Connection", value: "close")) }
      let head = Self.head(status: response.status, fields: fields)
      if bodyless {
        do { try socket.write(head, timeout: configuration.limits.writeTimeout) } catch { return .broken }
        return keepsOpen ? .sent : .sentMustClose
      }
      return stream(head: head, producer: producer, chunked: chunked, keepsOpen: keepsOpen, method: method, closing: closing)
    }
  }

  /// Runs a producer, sending its pieces in chunks of at least 64 KiB (or as they come for
  /// HTTP/1.0), then the last chunk.
  private func stream(
    head: [UInt8], producer: @Sendable ((ArraySlice<UInt8>) throws -> Void) throws -> Void, chunked: Bool,
    keepsOpen: Bool, method: String?, closing: Bool
  ) -> Outcome {
    var pending = head
    var flushed = false
    var writeFailed = false
    let timeout = configuration.limits.writeTimeout
    do {
      try producer { piece in
        if writeFailed { throw ConnectionSocket.WriteFailed() }
        guard !piece.isEmpty else { return }
        if chunked {
          pending += Array(String(piece.count, radix: 16).utf8)
          pending += [HTTPSyntax.cr, HTTPSyntax.lf]
        }
        pending += piece
        if chunked { pending += [HTTPSyntax.cr, HTTPSyntax.lf] }
        if pending.count >= 64 * 1024 {
          do {
            try socket.write(pending, timeout: timeout)
          } catch {
            writeFailed = true
            throw error
          }
          flushed = true
          pending.removeAll(keepingCapacity: true)
        }
      }
    } catch {
      if writeFailed { return .broken }
      configuration.log?("a streamed answer failed: \(error)")
      if flushed { return .broken }
      return send(.error(500, "the answer could not be produced"), method: method, minorVersion: chunked ? 1 : 0, closing: closing)
    }
    if chunked { pending += Array("0\r\n\r\n".utf8) }
    do { try socket.write(pending, timeout: timeout) } catch { return .broken }
    return keepsOpen ? .sent : .sentMustClose
  }

  /// The response's fields to send, before framing: the handler's (framing fields dropped),
  /// then each default the handler did not set, then `Date` unless the handler set one. Nil
  /// when a handler's field is not a valid field (a name that is no token, a value with CR, LF
  /// or another control byte: sending it would split the response). A status outside
  /// 200...599 becomes 500.
  private func prepareFields(of response: inout HTTPResponse) -> [(name: String, value: String)]? {
    if !(200...599).contains(response.status) {
      configuration.log?("a handler answered with status \(response.status); sent 500")
      response = .error(500)
    }
    var fields: [(name: String, value: String)] = []
    for field in response.headers {
      guard Self.isValid(field) else {
        configuration.log?("a handler's answer had an invalid header field '\(field.name)'")
        return nil
      }
      if Self.framingFields.contains(field.name.lowercased()) { continue }
      fields.append(field)
    }
    for field in configuration.defaultHeaders where !fields.contains(where: { HTTPHeaders.sameName($0.name, field.name) }) {
      guard Self.isValid(field) else { continue }
      fields.append(field)
    }
    if !fields.contains(where: { HTTPHeaders.sameName($0.name, "Date") }) {
      fields.append((name: "Date", value: HTTPDate.now()))
    }
    return fields
  }

  /// Whether a field can be sent as it is: its name a token, its value without control bytes.
  static func isValid(_ field: (name: String, value: String)) -> Bool {
    HTTPSyntax.isToken(field.name.utf8) && field.value.utf8.allSatisfy(HTTPSyntax.isFieldValueByte)
  }

  /// The status line (always `HTTP/1.1`, the server's version, RFC 9110 §6.2) and fields, with
  /// the blank line after them.
  static func head(status: Int, fields: [(name: String, value: String)]) -> [UInt8] {
    var text = "HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n"
    for field in fields { text += "\(field.name): \(field.value)\r\n" }
    text += "\r\n"
    return Array(text.utf8)
  }
}
