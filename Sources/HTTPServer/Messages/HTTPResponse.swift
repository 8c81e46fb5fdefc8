/// A handler's answer: a status, header fields and a body, whole or streamed.
///
/// The server frames it: `Content-Length` for bytes, chunked transfer coding for a stream
/// (or, to an HTTP/1.0 client, the stream's bytes and a closed connection). A handler's own
/// `Content-Length`, `Transfer-Encoding` and `Connection` fields are dropped; a header of the
/// configuration's ``HTTPServerConfiguration/defaultHeaders`` that the handler sets is the
/// handler's.
///
/// ```swift
/// HTTPResponse.json(#"{"classes":3}"#)
/// HTTPResponse.stream(contentType: "application/x-ndjson") { write in
///   for line in lines { try write(line[...]) }
/// }
/// ```
public struct HTTPResponse: Sendable {
  /// The status code, 200 to 599 (a handler's 1xx is answered as 500).
  public var status: Int
  /// The header fields.
  public var headers: [(name: String, value: String)]
  /// The body.
  public var body: Body

  /// A body: bytes, or a producer the server calls with a `write` function once the head is
  /// sent.
  public enum Body: Sendable {
    /// The whole body.
    case bytes([UInt8])
    /// A body written piece by piece (sent with chunked transfer coding). `write` throws when
    /// the client has gone or stops reading: let that error out of the producer. An error the
    /// producer throws itself cuts the answer off (the client sees an incomplete body), or, when
    /// nothing was sent yet, turns it into a 500.
    case stream(@Sendable (_ write: (ArraySlice<UInt8>) throws -> Void) throws -> Void)
  }

  /// A response.
  public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The value of the header `name` (the first, ASCII case ignored), or nil.
  public func header(_ name: String) -> String? {
    headers.first { HTTPHeaders.sameName($0.name, name) }?.value
  }

  /// Sets the header `name` to `value`, replacing any of that name.
  public mutating func setHeader(_ name: String, _ value: String) {
    headers.removeAll { HTTPHeaders.sameName($0.name, name) }
    headers.append((name: name, value: value))
  }

  /// `bytes` of `contentType`.
  public static func bytes(_ bytes: [UInt8], contentType: String, status: Int = 200) -> HTTPResponse {
    HTTPResponse(status: status, headers: [(name: "Content-Type", value: contentType)], body: .bytes(bytes))
  }

  /// JSON text (`application/json; charset=utf-8`).
  public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
    bytes(Array(text.utf8), contentType: "application/json; charset=utf-8", status: status)
  }

  /// JSON bytes (`application/json; charset=utf-8`).
  public static func json(_ bytes: [UInt8], status: Int = 200) -> HTTPResponse {
    Self.bytes(bytes, contentType: "application/json; charset=utf-8", status: status)
  }

  /// Plain text (`text/plain; charset=utf-8`).
  public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
    bytes(Array(text.utf8), contentType: "text/plain; charset=utf-8", status: status)
  }

  /// An HTML page (`text/html; charset=utf-8`).
  public static func html(_ text: String, status: Int = 200) -> HTTPResponse {
    bytes(Array(text.utf8), contentType: "text/html; charset=utf-8", status: status)
  }

  /// A streamed body of `contentType`.
  public static func stream(
    contentType: String, status: Int = 200,
    _ producer: @escaping @Sendable (_ write: (ArraySlice<UInt8>) throws -> Void) throws -> Void
  ) -> HTTPResponse {
    HTTPResponse(status: status, headers: [(name: "Content-Type", value: contentType)], body: .stream(producer))
  }

  /// An error answer: the status, its reason phrase and `message` as plain text
  /// (`404 Not Found: no class 'Dgo'`).
  public static func error(_ status: Int, _ message: String? = nil) -> HTTPResponse {
    let reason = "\(status) \(HTTPStatus.reason(status))"
    return text(message.map { "\(reason): \($0)\n" } ?? "\(reason)\n", status: status)
  }

  /// A redirect to `location` (303 See Other by default: the client follows it with GET).
  public static func redirect(to location: String, status: Int = 303) -> HTTPResponse {
    HTTPResponse(status: status, headers: [(name: "Location", value: location)], body: .bytes([]))
  }
}
