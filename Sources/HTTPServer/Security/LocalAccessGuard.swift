/// The security of a local web app, as a wrapper around its handler: only the person who
/// started the server, in their browser, reaches the handler.
///
/// ```swift
/// let access = LocalAccessGuard()
/// let server = try HTTPServer(configuration: .init(port: 0), handler: access.wrap(handler))
/// print(access.address(port: server.port))   // http://127.0.0.1:PORT/?token=…
/// ```
///
/// Each request is checked in this order, and refused with 403 (no handler call) at the first
/// failure:
/// 1. **Host.** The `Host` header must be the server's own address: `127.0.0.1`, `localhost`,
///    `[::1]` or the configured host, with the server's port. A DNS-rebinding page (a
///    hostile name made to resolve to 127.0.0.1) sends its own name and is refused.
/// 2. **Token.** A `GET` or `HEAD` whose query holds `token=` with the right token is answered
///    with a 303 redirect to the same address without the token, setting an `HttpOnly`,
///    `SameSite=Strict` cookie (named for the port: browsers share cookies between the ports
///    of a host). Every other request needs that cookie; a wrong or missing token is 403.
/// 3. **Cross-site requests.** A request a browser marks `Sec-Fetch-Site: cross-site` or
///    `same-site` (a page of another port of this machine is the same site) is refused,
///    except a top-level navigation (`Sec-Fetch-Mode: navigate`) with a safe method.
/// 4. **State changes.** A method other than `GET` and `HEAD` needs an `Origin` equal to
///    `http://` and the request's `Host`, and the ``csrfHeaderName`` header equal to
///    ``csrfToken`` (which the page gets from the server, in a `<meta>` tag or a `GET`
///    answer).
///
/// Tokens are compared in constant time. Answers never carry CORS headers: any
/// `Access-Control-*` field the handler sets is dropped, so no other origin may read an
/// answer or send a non-simple request. Put ``SecurityHeaders/standard`` on every answer (the
/// server's default).
public struct LocalAccessGuard: Sendable {
  /// The token a user's first request carries in its query (`?token=`), then the cookie.
  public let token: String
  /// The token a state-changing request carries in the ``csrfHeaderName`` header.
  public let csrfToken: String
  /// The host names (without port) the server answers to; IPv6 literals in brackets.
  public let hostNames: [String]
  /// The port the `Host` header must name; nil: the port the request came in on.
  public let port: Int?

  /// The query parameter of the token.
  public static let tokenParameter = "token"
  /// The header of the CSRF token.
  public static let csrfHeaderName = "X-CSRF-Token"

  /// A guard with new random tokens (or given ones, at least 16 characters), answering to the
  /// loopback names and to `host` (the address the server listens on, unless it is a wildcard
  /// such as `0.0.0.0`) and to `additionalHostNames` (names other machines reach a server of
  /// `--host` by).
  public init(
    token: String = SecretToken.generate(), csrfToken: String = SecretToken.generate(), host: String = "127.0.0.1",
    additionalHostNames: [String] = [], port: Int? = nil
  ) {
    precondition(token.utf8.count >= 16 && csrfToken.utf8.count >= 16, "tokens must have at least 16 characters")
    self.token = token
    self.csrfToken = csrfToken
    var names = ["127.0.0.1", "localhost", "[::1]"]
    for name in [host] + additionalHostNames {
      let bracketed = name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name
      let lowered = bracketed.lowercased()
      if !["0.0.0.0", "[::]", ""].contains(lowered) && !names.contains(lowered) { names.append(lowered) }
    }
    self.hostNames = names
    self.port = port
  }

  /// The name of the cookie that carries the token for a server on `port`.
  public static func cookieName(port: Int) -> String { "access-token-\(port)" }

  /// The address to print for a server on `port`: `http://127.0.0.1:PORT/` (`path`) with the
  /// token in its query.
  public func address(port: Int, host: String = "127.0.0.1", path: String = "/") -> String {
    let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return "http://\(shown):\(port)\(path)?\(Self.tokenParameter)=\(token)"
  }

  /// A warning for a server that listens on `host`, or nil for a loopback address: other
  /// machines can reach it, and only the token stands between them and the files.
  public static func exposureWarning(host: String) -> String? {
    guard !HTTPServerConfiguration.isLoopback(host: host) else { return nil }
    return "listening on \(host), not on loopback only: other machines on the network can reach this server, "
      + "and its token, sent in clear over plain HTTP, is all that keeps them out"
  }

  /// `handler` behind the checks: refused requests never reach it, and its answers lose any
  /// CORS header.
  public func wrap(_ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) -> @Sendable (HTTPRequest) -> HTTPResponse {
    let checks = self
    return { request in
      if let refusal = checks.check(request) { return refusal }
      var response = handler(request)
      response.headers.removeAll { $0.name.lowercased().hasPrefix("access-control-") }
      return response
    }
  }

  /// The answer for a request the guard stops (a 403, or the 303 that trades the URL's token
  /// for the cookie), or nil when the request may reach the handler.
  public func check(_ request: HTTPRequest) -> HTTPResponse? {
    let port = self.port ?? request.localPort
    guard let host = request.headers["Host"]?.lowercased(), hostNames.contains(where: { host == "\($0):\(port)" }) else {
      return .error(403, "this server answers only to its own address (http://127.0.0.1:\(port)/)")
    }
    if let offered = request.queryValue(Self.tokenParameter) {
      guard SecretToken.matches(offered, token) else { return .error(403, "wrong token") }
      if request.isSafeMethod {
        var redirect = HTTPResponse.redirect(to: Self.removingToken(from: request.target))
        redirect.headers.append(
          (name: "Set-Cookie", value: "\(Self.cookieName(port: port))=\(token); Path=/; HttpOnly; SameSite=Strict"))
        return redirect
      }
    }
    guard cookieTokens(request, port: port).contains(where: { SecretToken.matches($0, token) }) else {
      return .error(403, "this page needs its token: open the address the server printed")
    }
    let site = request.headers["Sec-Fetch-Site"]?.lowercased()
    if site == "cross-site" || site == "same-site" {
      let navigation = request.headers["Sec-Fetch-Mode"]?.lowercased() == "navigate"
      if !(navigation && request.isSafeMethod) { return .error(403, "a request from another site") }
    }
    if !request.isSafeMethod {
      guard request.headers.values(for: "Origin") == ["http://\(host)"] else {
        return .error(403, "a cross-origin request (its Origin is not this server)")
      }
      guard let csrf = request.headers.values(for: Self.csrfHeaderName).first,
        request.headers.values(for: Self.csrfHeaderName).count == 1, SecretToken.matches(csrf, csrfToken)
      else { return .error(403, "missing or wrong \(Self.csrfHeaderName) header") }
    }
    return nil
  }

  /// The values of this server's cookie in the request's `Cookie` headers.
  private func cookieTokens(_ request: HTTPRequest, port: Int) -> [String] {
    let name = Self.cookieName(port: port)
    var values: [String] = []
    for header in request.headers.values(for: "Cookie") {
      for pair in header.split(separator: ";") {
        let trimmed = pair.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
        var value = trimmed[trimmed.index(after: equals)...]
        while value.last == " " || value.last == "\t" { value = value.dropLast() }
        if value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
        values.append(String(value))
      }
    }
    return values
  }

  /// `target` without its `token` query parameters (the other parameters kept as sent).
  static func removingToken(from target: String) -> String {
    guard let questionMark = target.firstIndex(of: "?") else { return target }
    let kept = target[target.index(after: questionMark)...].split(separator: "&").filter { pair in
      let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
      let decoded = RequestTarget.percentDecode(ArraySlice(name.utf8), plusIsSpace: true)
      return decoded.map { String(decoding: $0, as: UTF8.self) } != tokenParameter
    }
    let path = String(target[..<questionMark])
    return kept.isEmpty ? path : path + "?" + kept.joined(separator: "&")
  }
}
