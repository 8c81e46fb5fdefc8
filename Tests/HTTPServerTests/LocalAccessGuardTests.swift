import Foundation
import HTTPServer
import Testing

/// The security of a local page over loopback, against a handler that writes a file: every
/// attack of issue 30's list is refused and the file stays byte-identical; the legitimate
/// browser flow (token in the URL, cookie, CSRF header) writes it.
@Suite struct LocalAccessGuardTests {
  /// A server whose handler appends a POST's body to a file, behind a guard.
  final class Fixture {
    let directory: URL
    let file: URL
    let access = LocalAccessGuard()
    let server: RunningServer
    static let original = Array("original contents\n".utf8)

    init() throws {
      directory = FileManager.default.temporaryDirectory.appendingPathComponent("guard-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      file = directory.appendingPathComponent("data.txt")
      try Data(Self.original).write(to: file)
      let path = file.path
      let csrf = access.csrfToken
      let handler: @Sendable (HTTPRequest) -> HTTPResponse = { request in
        switch (request.method, request.path) {
        case ("POST", "/write"), ("PUT", "/write"), ("DELETE", "/write"):
          guard let handle = FileHandle(forWritingAtPath: path) else { return .error(500) }
          handle.seekToEndOfFile()
          handle.write(Data(request.body))
          handle.closeFile()
          return .json(#"{"written":\#(request.body.count)}"#)
        case ("GET", "/csrf"):
          return .json(#"{"csrf":"\#(csrf)"}"#)
        case ("GET", "/cors"):
          return HTTPResponse(
            status: 200, headers: [(name: "Access-Control-Allow-Origin", value: "*"), (name: "access-control-allow-credentials", value: "true")],
            body: .bytes([]))
        default:
          return .text("page \(request.path)")
        }
      }
      let limits = HTTPServerConfiguration.Limits(maxBodyBytes: 1000, headerTimeout: 0.5, bodyTimeout: 0.5)
      server = try RunningServer(limits: limits, handler: access.wrap(handler))
    }

    deinit {
      server.stop()
      try? FileManager.default.removeItem(at: directory)
    }

    var port: Int { server.port }
    var host: String { "127.0.0.1:\(port)" }
    var cookie: String { "\(LocalAccessGuard.cookieName(port: port))=\(access.token)" }

    /// A POST to /write as the page would send it, with one part changed by `modify`.
    func post(body: String = "new line\n", _ modify: (inout [String: String]) -> Void = { _ in }) -> String {
      var fields = [
        "Host": host, "Cookie": cookie, "Origin": "http://\(host)", LocalAccessGuard.csrfHeaderName: access.csrfToken,
        "Content-Length": String(body.utf8.count), "Content-Type": "text/plain", "Sec-Fetch-Site": "same-origin",
      ]
      modify(&fields)
      let head = fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
      return "POST /write HTTP/1.1\r\n\(head)\r\n\(body)"
    }

    func contents() throws -> [UInt8] { [UInt8](try Data(contentsOf: file)) }

    /// Sends `request` on a new connection and returns the answer.
    func answer(_ request: String) throws -> TestClient.Response {
      try server.connect().exchange(request)
    }
  }

  /// The legitimate flow works (so the refusals below are the guard's doing): the printed
  /// address trades its token for a cookie, and a same-origin POST with the CSRF token writes.
  @Test func theOwnersBrowserGetsIn() throws {
    let fixture = try Fixture()
    let redirect = try fixture.answer("GET /x?a=1&token=\(fixture.access.token)&b=%20 HTTP/1.1\r\nHost: \(fixture.host)\r\n\r\n")
    #expect(redirect.status == 303)
    #expect(redirect.headers["Location"] == "/x?a=1&b=%20")
    let cookie = try #require(redirect.headers["Set-Cookie"])
    #expect(cookie == "\(fixture.cookie); Path=/; HttpOnly; SameSite=Strict")
    #expect(fixture.access.address(port: fixture.port) == "http://127.0.0.1:\(fixture.port)/?token=\(fixture.access.token)")

    let page = try fixture.answer("GET /x HTTP/1.1\r\nHost: localhost:\(fixture.port)\r\nCookie: other=1; \(fixture.cookie)\r\n\r\n")
    #expect(page.text == "page /x")
    let csrf = try fixture.answer("GET /csrf HTTP/1.1\r\nHost: \(fixture.host)\r\nCookie: \(fixture.cookie)\r\n\r\n")
    #expect(csrf.text.contains(fixture.access.csrfToken))

    let written = try fixture.answer(fixture.post())
    #expect(written.status == 200)
    #expect(try fixture.contents() == Fixture.original + Array("new line\n".utf8))
  }

  /// Each attack of issue 30's list, refused, with the file byte-identical after all of them.
  @Test func everyAttackIsRefusedAndTheFileIsUntouched() throws {
    let fixture = try Fixture()
    let port = fixture.port
    let token = fixture.access.token
    var refusals: [(String, String, Int)] = [
      // No token.
      ("no token: a page", "GET / HTTP/1.1\r\nHost: \(fixture.host)\r\n\r\n", 403),
      ("no token: a write", fixture.post { $0["Cookie"] = nil }, 403),
      ("no token: another cookie", fixture.post { $0["Cookie"] = "access-token-1=\(token)" }, 403),
      // A wrong token.
      ("wrong token in the URL", "GET /?token=\(String(token.reversed())) HTTP/1.1\r\nHost: \(fixture.host)\r\n\r\n", 403),
      ("a prefix of the token", "GET /?token=\(token.dropLast()) HTTP/1.1\r\nHost: \(fixture.host)\r\n\r\n", 403),
      ("empty token", "GET /?token= HTTP/1.1\r\nHost: \(fixture.host)\r\n\r\n", 403),
      // The first character changed (a random token may itself start with "x").
      ("wrong token in the cookie", fixture.post { $0["Cookie"] = "\(LocalAccessGuard.cookieName(port: port))=\(token.hasPrefix("x") ? "y" : "x")\(token.dropFirst())" }, 403),
      ("a wrong token with the right cookie", fixture.post { $0["Cookie"]! += "; x=1" }.replacingOccurrences(of: "POST /write ", with: "POST /write?token=bad "), 403),
      // A foreign Host (DNS rebinding).
      ("foreign Host", fixture.post { $0["Host"] = "evil.example:\(port)"; $0["Origin"] = "http://evil.example:\(port)" }, 403),
      ("foreign Host with the token", "GET /?token=\(token) HTTP/1.1\r\nHost: evil.example:\(port)\r\n\r\n", 403),
      ("Host of another port", "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port + 1)\r\nCookie: \(fixture.cookie)\r\n\r\n", 403),
      ("Host without its port", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: \(fixture.cookie)\r\n\r\n", 403),
      ("HTTP/1.0 without Host", "POST /write HTTP/1.0\r\nCookie: \(fixture.cookie)\r\nContent-Length: 1\r\n\r\nx", 403),
      // A cross-origin POST.
      ("cross-origin POST", fixture.post { $0["Origin"] = "http://evil.example" }, 403),
      ("POST from another local port", fixture.post { $0["Origin"] = "http://127.0.0.1:\(port + 1)" }, 403),
      ("POST from the other loopback name", fixture.post { $0["Origin"] = "http://localhost:\(port)" }, 403),
      ("POST with Origin null", fixture.post { $0["Origin"] = "null" }, 403),
      ("POST without Origin", fixture.post { $0["Origin"] = nil }, 403),
      ("POST marked cross-site", fixture.post { $0["Sec-Fetch-Site"] = "cross-site" }, 403),
      ("POST marked same-site", fixture.post { $0["Sec-Fetch-Site"] = "same-site" }, 403),
      ("POST without the CSRF token", fixture.post { $0[LocalAccessGuard.csrfHeaderName] = nil }, 403),
      ("POST with a wrong CSRF token", fixture.post { $0[LocalAccessGuard.csrfHeaderName] = token }, 403),
      ("PUT without the CSRF token", fixture.post { $0[LocalAccessGuard.csrfHeaderName] = nil }.replacingOccurrences(of: "POST", with: "PUT"), 403),
      ("DELETE cross-origin", fixture.post { $0["Origin"] = "http://evil.example" }.replacingOccurrences(of: "POST", with: "DELETE"), 403),
      ("a CORS preflight", "OPTIONS /write HTTP/1.1\r\nHost: \(fixture.host)\r\nOrigin: http://evil.example\r\nAccess-Control-Request-Method: POST\r\n\r\n", 403),
      ("GET with the token by POST", fixture.post { $0["Cookie"] = nil }.replacingOccurrences(of: "POST /write ", with: "POST /write?token=\(token) "), 403),
      // An oversized body.
      ("oversized body", fixture.post(body: String(repeating: "x", count: 1001)), 413),
      ("oversized chunked body", fixture.post(body: "3E9\r\n" + String(repeating: "x", count: 1001) + "\r\n0\r\n\r\n") {
        $0["Content-Length"] = nil
        $0["Transfer-Encoding"] = "chunked"
      }, 413),
      // A malformed request.
      ("bare LF", fixture.post().replacingOccurrences(of: "\r\n", with: "\n"), 400),
      ("two Content-Lengths", fixture.post { $0["content-length"] = "3" }, 400),
      ("Content-Length with chunked", fixture.post { $0["Transfer-Encoding"] = "chunked" }, 400),
      ("obs-fold", fixture.post().replacingOccurrences(of: "Content-Type: text/plain\r\n", with: "Content-Type: text/plain\r\n folded\r\n"), 400),
      ("a truncated body", String(fixture.post().dropLast(3)), 408),
    ]
    refusals.append(("two Origins", fixture.post().replacingOccurrences(of: "Origin:", with: "Origin: http://evil.example\r\nOrigin:"), 403))
    for (name, request, status) in refusals {
      let response = try fixture.answer(request)
      #expect(response.status == status, "\(name)")
      #expect(response.headers["Set-Cookie"] == nil, "\(name)")
      #expect(!response.headers.contains { $0.name.lowercased().hasPrefix("access-control-") }, "\(name)")
      #expect(try fixture.contents() == Fixture.original, "\(name)")
    }

    // A slow request (a slowloris of the write).
    let slow = try fixture.server.connect()
    for byte in fixture.post().utf8.prefix(60) {
      guard slow.send([byte]) else { break }
      usleep(20_000)
    }
    #expect(try slow.readResponse().status == 408)
    #expect(try fixture.contents() == Fixture.original)
  }

  @Test func answersCarryNoCORSHeaders() throws {
    let fixture = try Fixture()
    let response = try fixture.answer("GET /cors HTTP/1.1\r\nHost: \(fixture.host)\r\nCookie: \(fixture.cookie)\r\n\r\n")
    #expect(response.status == 200)
    #expect(!response.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
    #expect(response.headers["Cross-Origin-Resource-Policy"] == "same-origin")
  }

  /// A navigation from another site (a link) reaches a page; a fetch from it does not.
  @Test func onlyNavigationsComeFromOtherSites() throws {
    let fixture = try Fixture()
    let base = "GET /page HTTP/1.1\r\nHost: \(fixture.host)\r\nCookie: \(fixture.cookie)\r\nSec-Fetch-Site: same-site\r\n"
    #expect(try fixture.answer(base + "Sec-Fetch-Mode: navigate\r\n\r\n").status == 200)
    #expect(try fixture.answer(base + "Sec-Fetch-Mode: cors\r\n\r\n").status == 403)
    #expect(try fixture.answer(base + "Sec-Fetch-Mode: no-cors\r\n\r\n").status == 403)
  }

  @Test func hostsIncludeTheConfiguredOne() throws {
    let request = { (host: String) in
      try HTTPRequest(target: "/", headers: ["Host": host, "Cookie": "access-token-8080=0123456789abcdef0123"], localPort: 8080)
    }
    let access = LocalAccessGuard(token: "0123456789abcdef0123", host: "192.168.1.20", additionalHostNames: ["my-laptop.local", "fe80::1"])
    for host in ["127.0.0.1:8080", "LOCALHOST:8080", "[::1]:8080", "192.168.1.20:8080", "my-laptop.local:8080", "[fe80::1]:8080"] {
      #expect(access.check(try request(host)) == nil, "\(host)")
    }
    for host in ["127.0.0.2:8080", "localhost", "localhost:80", "0.0.0.0:8080", "my-laptop.local.evil:8080", "localhost.:8080"] {
      #expect(access.check(try request(host))?.status == 403, "\(host)")
    }
    let wildcard = LocalAccessGuard(token: "0123456789abcdef0123", host: "0.0.0.0")
    #expect(wildcard.hostNames == ["127.0.0.1", "localhost", "[::1]"])
  }

  @Test func tokensAreRandomAndComparedWhole() {
    let tokens = (0..<100).map { _ in SecretToken.generate() }
    #expect(Set(tokens).count == 100)
    #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } })
    #expect(SecretToken.generate(byteCount: 32).count == 43)
    #expect(SecretToken.matches("abc", "abc"))
    #expect(!SecretToken.matches("abd", "abc"))
    #expect(!SecretToken.matches("ab", "abc"))
    #expect(!SecretToken.matches("abcd", "abc"))
    #expect(!SecretToken.matches("", ""))
    let access = LocalAccessGuard()
    #expect(access.token != access.csrfToken)
  }
}
