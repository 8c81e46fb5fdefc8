import Dispatch
import Foundation
import HTTPServer
import RealmStudio
import RealmTestBytes
import RealmTestSupport
import Testing

/// The studio's endpoints behind the server and its guard, as `realmctl studio` runs them, over
/// loopback: each request a hostile page or program could send is refused, and the Realm file
/// is byte for byte as before after each.
@Suite(.serialized) final class StudioSecurityTests {
  let harness: StudioHarness
  let access = LocalAccessGuard()
  let server: HTTPServer
  let stopped = DispatchSemaphore(value: 0)
  var client: LoopbackClient { LoopbackClient(port: server.port) }
  var host: String { "Host: 127.0.0.1:\(server.port)" }
  var cookie: String { "Cookie: \(LocalAccessGuard.cookieName(port: server.port))=\(access.token)" }

  init() throws {
    harness = try StudioHarness("alltypes/before.realm")
    let studio = Studio(files: harness.paths, options: Studio.Options(csrfToken: access.csrfToken))
    let limits = HTTPServerConfiguration.Limits(maxBodyBytes: 1 << 20, headerTimeout: 1, bodyTimeout: 1)
    server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0, limits: limits), handler: access.wrap(studio.handle))
    let server = self.server
    let stopped = self.stopped
    Thread.detachNewThread {
      server.run()
      stopped.signal()
    }
  }

  deinit {
    server.stop()
    stopped.wait()
  }

  /// Runs `body` (requests), then checks that the file did not change.
  private func untouched(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let before = try harness.bytes()
    try body()
    #expect(TestFiles.same(try harness.bytes(), before), "the file changed", sourceLocation: sourceLocation)
  }

  private let edit = StudioHarness.classPath("AllTypes", "objects/6")
  private let editBody = #"{"values":{"int_req":1}}"#

  @Test func theGuardedStudioAnswersItsPage() throws {
    let page = try client.request("GET", "/?token=\(access.token)", headers: [host])
    expectEqual(page?.status, 303)
    expectEqual(page?.header("Set-Cookie")?.contains("HttpOnly"), true)
    let files = try client.request("GET", "/api/files", headers: [host, cookie])
    expectEqual(files?.status, 200)
    let html = try client.request("GET", "/", headers: [host, cookie])
    expectEqual(html?.body.contains(access.csrfToken), true)
    expectEqual(html?.header("Content-Security-Policy")?.contains("default-src 'self'"), true)
  }

  @Test func noTokenIsRefused() throws {
    try untouched { () throws in
      try expectEqual(client.request("GET", "/api/files/0/classes/AllTypes/objects", headers: [host])?.status, 403)
      try expectEqual(client.request("GET", "/", headers: [host])?.status, 403)
      #expect(
        try client.request(
          "POST", edit, headers: [host, "Origin: http://127.0.0.1:\(server.port)", "\(LocalAccessGuard.csrfHeaderName): \(access.csrfToken)"],
          body: editBody)?.status == 403)
    }
  }

  @Test func aWrongTokenIsRefused() throws {
    try untouched { () throws in
      try expectEqual(client.request("GET", "/?token=not-the-token-at-all", headers: [host])?.status, 403)
      let wrongCookie = "Cookie: \(LocalAccessGuard.cookieName(port: server.port))=\(String(access.token.reversed()))"
      try expectEqual(client.request("GET", "/api/files", headers: [host, wrongCookie])?.status, 403)
      #expect(
        try client.request(
          "POST", edit,
          headers: [host, wrongCookie, "Origin: http://127.0.0.1:\(server.port)", "\(LocalAccessGuard.csrfHeaderName): \(access.csrfToken)"],
          body: editBody)?.status == 403)
    }
  }

  @Test func aForeignHostIsRefused() throws {
    try untouched { () throws in
      // A DNS-rebinding page: its own name resolved to 127.0.0.1, the browser sends that name.
      for foreign in ["Host: evil.example:\(server.port)", "Host: 127.0.0.1:1", "Host: 127.0.0.1.evil.example:\(server.port)"] {
        try expectEqual(client.request("GET", "/api/files", headers: [foreign, cookie])?.status, 403, "\(foreign)")
        #expect(
          try client.request(
            "POST", edit, headers: [foreign, cookie, "Origin: http://evil.example:\(server.port)", "\(LocalAccessGuard.csrfHeaderName): \(access.csrfToken)"],
            body: editBody)?.status == 403)
      }
    }
  }

  @Test func aCrossOriginPostIsRefused() throws {
    try untouched { () throws in
      let csrf = "\(LocalAccessGuard.csrfHeaderName): \(access.csrfToken)"
      for origin in ["Origin: http://evil.example", "Origin: null", "Origin: http://127.0.0.1:1"] {
        try expectEqual(client.request("POST", edit, headers: [host, cookie, origin, csrf], body: editBody)?.status, 403, "\(origin)")
      }
      // No Origin, or no CSRF token (a form another page posts): refused too.
      try expectEqual(client.request("POST", edit, headers: [host, cookie, csrf], body: editBody)?.status, 403)
      #expect(
        try client.request("POST", edit, headers: [host, cookie, "Origin: http://127.0.0.1:\(server.port)"], body: editBody)?.status == 403)
      #expect(
        try client.request(
          "POST", StudioHarness.classPath("AllTypes", "delete"),
          headers: [host, cookie, "Origin: http://evil.example", csrf, "Sec-Fetch-Site: cross-site"], body: #"{"keys":["6"]}"#)?.status == 403)
      // A preflight gets no CORS header.
      let preflight = try client.request(
        "OPTIONS", edit, headers: [host, "Origin: http://evil.example", "Access-Control-Request-Method: POST"])
      #expect(preflight?.status != 200)
      #expect(preflight?.header("Access-Control-Allow-Origin") == nil)
    }
    // The same request from the page itself goes through (the checks above refused only the origin).
    let ok = try client.request(
      "POST", edit,
      headers: [host, cookie, "Origin: http://127.0.0.1:\(server.port)", "\(LocalAccessGuard.csrfHeaderName): \(access.csrfToken)"],
      body: editBody)
    expectEqual(ok?.status, 200, "\(ok?.body ?? "")")
    #expect(ok?.header("Access-Control-Allow-Origin") == nil)
  }

  @Test func aPathOutsideTheNamedFilesIsRefused() throws {
    try untouched { () throws in
      for target in [
        "/api/files/1", "/api/files/-1/schema", "/api/files/0/../../../etc/passwd", "/etc/passwd", "/api/files/0%2F..%2F..%2Fetc",
        "/../test.realm", "/test.realm", "/api/files/0/classes/AllTypes/objects/6/../../../../..", "/api/files/999999999999999999999",
      ] {
        let answer = try client.request("GET", target, headers: [host, cookie])
        #expect([400, 404].contains(answer?.status ?? 0), "\(target): \(answer?.status ?? 0)")
        #expect(answer?.body.contains("SQLite") != true)
      }
    }
  }

  @Test func anOversizedBodyIsRefused() throws {
    try untouched { () throws in
      let headers = [
        host, cookie, "Origin: http://127.0.0.1:\(server.port)", "\(LocalAccessGuard.csrfHeaderName): \(access.csrfToken)",
      ]
      var text = "POST \(StudioHarness.classPath("AllTypes", "import?format=csv")) HTTP/1.1\r\n"
      for h in headers { text += h + "\r\n" }
      text += "Content-Length: \(100 << 20)\r\nConnection: close\r\n\r\n"
      let answer = try client.exchange([Array(text.utf8)])
      expectEqual(answer?.status, 413)
    }
  }

  @Test func aSlowOrMalformedRequestIsRefused() throws {
    try untouched { () throws in
      // A slowloris: the head never ends.
      let slow = try client.exchange([Array("GET /api/files HTTP/1.1\r\n\(host)\r\n".utf8), Array("X-Slow: 1\r\n".utf8)], pause: 1.5)
      #expect(slow == nil || slow?.status == 408)
      // A body slower than its length.
      let headers = [host, cookie, "Origin: http://127.0.0.1:\(server.port)", "\(LocalAccessGuard.csrfHeaderName): \(access.csrfToken)"]
      let head = "POST \(edit) HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "Content-Length: 100\r\n\r\n{\"values\""
      let slowBody = try client.exchange([Array(head.utf8)], timeout: 10)
      #expect(slowBody == nil || slowBody?.status == 408)
      for garbage in ["GARBAGE\r\n\r\n", "GET /api/files HTTP/9.9\r\n\r\n", "GET  /api/files HTTP/1.1\r\n\r\n", "\u{0}\u{1}\u{2}\r\n\r\n",
        "GET /api/files HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "POST /api/files HTTP/1.1\r\n\(host)\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"]
      {
        let answer = try client.exchange([Array(garbage.utf8)])
        // 400, or 505 for a version that is not HTTP/1.x; or a closed connection.
        #expect(answer == nil || [400, 505].contains(answer!.status), "\(garbage.debugDescription): \(answer?.status ?? 0)")
      }
      // The server is still there.
      try expectEqual(client.request("GET", "/api/files", headers: [host, cookie])?.status, 200)
    }
  }
}
