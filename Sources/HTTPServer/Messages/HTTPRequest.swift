/// One request, as the handler sees it: parsed strictly, its body read in full.
public struct HTTPRequest: Sendable {
  /// The method, case-sensitive as HTTP has it (`GET`, `POST`, ...).
  public var method: String
  /// The request target as sent: path and query, still percent-encoded.
  public var target: String
  /// The target's path, percent-decoded (UTF-8), without the query. Never holds a `.` or `..`
  /// segment or a NUL: such targets are refused with 400 before a handler sees them.
  public var path: String
  /// The query's parameters in order, percent-decoded, `+` read as a space.
  public var query: [(name: String, value: String)]
  /// The header fields.
  public var headers: HTTPHeaders
  /// The body (chunked bodies decoded); empty when there is none.
  public var body: [UInt8]
  /// The local port the request came in on (0 for a request not read from a socket). A guard
  /// compares the `Host` header with it.
  public var localPort: Int
  /// The minor version of HTTP/1.x: 1, or 0 for an HTTP/1.0 client.
  public var minorVersion: Int

  /// A request for `target` (origin form: `/path?query`), checked and decoded as the server
  /// does it. Throws the 400 the server would answer for a malformed target.
  public init(
    method: String = "GET", target: String, headers: HTTPHeaders = [:], body: [UInt8] = [], localPort: Int = 0,
    minorVersion: Int = 1
  ) throws(HTTPRequestError) {
    let parsed = try RequestTarget.parse(Array(target.utf8))
    self.method = method
    self.target = target
    self.path = parsed.path
    self.query = parsed.query
    self.headers = headers
    self.body = body
    self.localPort = localPort
    self.minorVersion = minorVersion
  }

  /// The value of the first query parameter `name`, or nil.
  public func queryValue(_ name: String) -> String? {
    query.first { $0.name == name }?.value
  }

  /// Whether the method is one that changes nothing (`GET`, `HEAD`): other methods need the
  /// CSRF checks of ``LocalAccessGuard``.
  public var isSafeMethod: Bool { method == "GET" || method == "HEAD" }
}
