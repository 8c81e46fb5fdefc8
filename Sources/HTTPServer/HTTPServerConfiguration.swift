/// Where a server listens, how much it accepts, how long it waits, and the headers every answer
/// carries.
///
/// The defaults suit a local tool: loopback only, requests up to 16 MiB, a client that sends
/// its request line and headers slower than 10 seconds (a slowloris) is cut off with 408.
public struct HTTPServerConfiguration: Sendable {
  /// The address to listen on: an IPv4 or IPv6 literal or a host name (its first address).
  /// Anything but a loopback address needs ``allowsNonLoopbackHost``.
  public var host: String
  /// The port; 0 lets the system pick a free one (read it back from ``HTTPServer/port``).
  public var port: Int
  /// Whether ``host`` may be an address other machines can reach. A server of a local tool
  /// listens on loopback; anything else must be asked for (and a command should warn, see
  /// ``isLoopback(host:)``).
  public var allowsNonLoopbackHost: Bool
  /// What a request may be, and how long a client may take.
  public var limits: Limits
  /// Headers added to every answer, the server's own errors included, unless the handler's
  /// response sets a header of the same name. By default ``SecurityHeaders/standard``.
  public var defaultHeaders: [(name: String, value: String)]
  /// Where the server reports what it cannot tell a client (a handler's invalid header, a
  /// failed `accept`): one line each, never a query string (tokens travel there). Nil: nowhere.
  public var log: (@Sendable (String) -> Void)?

  /// A configuration for `host:port` with the default limits and security headers.
  public init(
    host: String = "127.0.0.1", port: Int = 0, allowsNonLoopbackHost: Bool = false, limits: Limits = Limits(),
    defaultHeaders: [(name: String, value: String)] = SecurityHeaders.standard,
    log: (@Sendable (String) -> Void)? = nil
  ) {
    self.host = host
    self.port = port
    self.allowsNonLoopbackHost = allowsNonLoopbackHost
    self.limits = limits
    self.defaultHeaders = defaultHeaders
    self.log = log
  }

  /// Sizes and times the server holds a client to. A request over a size limit is answered
  /// with its status (414, 431, 413) and the connection closed; a client over a time limit is
  /// answered with 408 (or, between requests, simply disconnected).
  public struct Limits: Sendable, Equatable {
    /// The longest request line (method, target, version): longer is 414 URI Too Long.
    public var maxRequestLineBytes: Int
    /// The request line and header fields together, with their line ends: more is
    /// 431 Request Header Fields Too Large (also the limit of a chunked body's trailers).
    public var maxHeaderBytes: Int
    /// The most header fields in one request: more is 431.
    public var maxHeaderCount: Int
    /// The largest request body (after chunked decoding): larger is 413 Content Too Large,
    /// refused from its `Content-Length` before a byte of it is read.
    public var maxBodyBytes: Int
    /// Seconds from a request's first byte to the end of its header fields: later is 408.
    public var headerTimeout: Double
    /// Seconds from the end of the header fields to the end of the body: later is 408.
    public var bodyTimeout: Double
    /// Seconds a kept-alive connection may stay idle between requests before it is closed.
    public var idleTimeout: Double
    /// Seconds a client may take to accept more of a response (a client that stops reading
    /// is disconnected after this long without progress).
    public var writeTimeout: Double
    /// Connections served at once; one more is answered 503 Service Unavailable and closed.
    public var maxConnections: Int
    /// Seconds ``HTTPServer/run()`` waits, once stopped, for requests being answered to end.
    public var shutdownGracePeriod: Double

    /// The default limits, or others.
    public init(
      maxRequestLineBytes: Int = 8 * 1024, maxHeaderBytes: Int = 32 * 1024, maxHeaderCount: Int = 100,
      maxBodyBytes: Int = 16 << 20, headerTimeout: Double = 10, bodyTimeout: Double = 60, idleTimeout: Double = 30,
      writeTimeout: Double = 30, maxConnections: Int = 64, shutdownGracePeriod: Double = 5
    ) {
      self.maxRequestLineBytes = maxRequestLineBytes
      self.maxHeaderBytes = maxHeaderBytes
      self.maxHeaderCount = maxHeaderCount
      self.maxBodyBytes = maxBodyBytes
      self.headerTimeout = headerTimeout
      self.bodyTimeout = bodyTimeout
      self.idleTimeout = idleTimeout
      self.writeTimeout = writeTimeout
      self.maxConnections = maxConnections
      self.shutdownGracePeriod = shutdownGracePeriod
    }
  }

  /// Whether `host` names the loopback interface only: `localhost`, an address of
  /// 127.0.0.0/8, `::1` (bracketed or not), or an IPv4-mapped loopback address. A command that
  /// listens elsewhere should warn that other machines can reach it.
  public static func isLoopback(host: String) -> Bool {
    var name = host.lowercased()
    if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
    if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
    if name.hasPrefix("::ffff:") { name = String(name.dropFirst(7)) }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "127" else { return false }
    return parts.allSatisfy { part in
      !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && Int(part)! <= 255
    }
  }
}

extension Character {
  /// `0`-`9`.
  var isASCIIDigit: Bool { isASCII && isNumber }
}
