/// Why a server could not start: each case says what to do in its ``description``.
public enum HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Another program (or another server of this one) listens on the port already.
  case addressInUse(host: String, port: Int)
  /// The system refuses the port to this user (ports below 1024 need privileges).
  case permissionDenied(host: String, port: Int)
  /// The address is not one of this machine's.
  case addressNotAvailable(host: String)
  /// The host name does not resolve to an address.
  case cannotResolve(host: String)
  /// A port outside 0...65535.
  case invalidPort(Int)
  /// The configuration asks for an address other than loopback without
  /// ``HTTPServerConfiguration/allowsNonLoopbackHost``.
  case nonLoopbackHost(String)
  /// A system call failed: its name and `errno`.
  case system(call: String, code: Int32)

  public var description: String {
    switch self {
    case .addressInUse(let host, let port):
      return "\(Self.endpoint(host, port)) is already in use by another program; choose another port (0 picks a free one)"
    case .permissionDenied(let host, let port):
      return "permission denied to listen on \(Self.endpoint(host, port)); ports below 1024 need privileges, choose another"
    case .addressNotAvailable(let host):
      return "\(host) is not an address of this machine"
    case .cannotResolve(let host):
      return "cannot resolve the host '\(host)'"
    case .invalidPort(let port):
      return "invalid port \(port): expected 0 to 65535 (0 picks a free one)"
    case .nonLoopbackHost(let host):
      return "\(host) is not a loopback address: listening on it must be asked for explicitly"
    case .system(let call, let code):
      return "\(call) failed: \(SystemCalls.describe(code))"
    }
  }

  /// `host:port`, with an IPv6 literal in brackets.
  private static func endpoint(_ host: String, _ port: Int) -> String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }
}
