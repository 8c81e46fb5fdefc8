import HTTPServer
import Testing

/// The request parser without sockets: what it accepts, what it refuses with which status,
/// and that the way the bytes are split never changes the result.
@Suite struct HTTPRequestDecoderTests {
  /// What a decoder makes of `input` fed in pieces of `piece` bytes: the requests, then the
  /// failure (or nil when it waits for more).
  static func decode(
    _ input: [UInt8], piece: Int = .max, limits: HTTPServerConfiguration.Limits = .init()
  ) -> (requests: [HTTPRequest], failure: HTTPRequestError?) {
    var decoder = HTTPRequestDecoder(limits: limits)
    var requests: [HTTPRequest] = []
    var offset = 0
    repeat {
      let end = min(input.count, offset + max(1, min(piece, input.count)))
      decoder.append(input[offset..<end])
      offset = end
      loop: while true {
        switch decoder.next() {
        case .needMoreData: break loop
        case .continueExpected: continue
        case .request(let request): requests.append(request)
        case .failure(let error): return (requests, error)
        }
      }
    } while offset < input.count
    return (requests, nil)
  }

  static func decode(_ text: String, limits: HTTPServerConfiguration.Limits = .init()) -> (
    requests: [HTTPRequest], failure: HTTPRequestError?
  ) {
    decode(Array(text.utf8), limits: limits)
  }

  @Test func parsesAGetWithItsQueryAndHeaders() throws {
    let result = Self.decode("GET /api/classes/Dog%20s?where=age%20%3E%201&limit=10&flag&name=a+b HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nX-Thing:  two words \t\r\nCookie: a=1\r\n\r\n")
    #expect(result.failure == nil)
    let request = try #require(result.requests.first)
    #expect(request.method == "GET")
    #expect(request.target == "/api/classes/Dog%20s?where=age%20%3E%201&limit=10&flag&name=a+b")
    #expect(request.path == "/api/classes/Dog s")
    #expect(request.query.map(\.name) == ["where", "limit", "flag", "name"])
    #expect(request.queryValue("where") == "age > 1")
    #expect(request.queryValue("flag") == "")
    #expect(request.queryValue("name") == "a b")
    #expect(request.queryValue("missing") == nil)
    #expect(request.headers["host"] == "127.0.0.1:8080")
    #expect(request.headers["X-THING"] == "two words")
    #expect(request.minorVersion == 1)
    #expect(request.body.isEmpty)
  }

  @Test func readsBodiesByLengthAndChunked() throws {
    let fixed = Self.decode("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world")
    #expect(fixed.failure == nil)
    #expect(fixed.requests.first.map { String(decoding: $0.body, as: UTF8.self) } == "hello world")

    let chunked = Self.decode(
      "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=\"x\"\r\n world\r\nA \r\n0123456789\r\n0\r\nTrailer-Field: x\r\n\r\n")
    #expect(chunked.failure == nil)
    #expect(chunked.requests.first.map { String(decoding: $0.body, as: UTF8.self) } == "hello world0123456789")
    #expect(chunked.requests.first?.headers["Transfer-Encoding"] == "chunked")
  }

  /// Keep-alive and pipelining: requests one after the other in one buffer come out in order.
  @Test func decodesPipelinedRequestsInOrder() {
    let text = "\r\nGET /1 HTTP/1.1\r\nHost: h\r\n\r\nPOST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
      + "POST /3 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\nGET /4 HTTP/1.0\r\n\r\n"
    let result = Self.decode(text)
    #expect(result.failure == nil)
    #expect(result.requests.map(\.path) == ["/1", "/2", "/3", "/4"])
    #expect(result.requests.map { String(decoding: $0.body, as: UTF8.self) } == ["", "abc", "x", ""])
    #expect(result.requests.map(\.minorVersion) == [1, 1, 1, 0])
  }

  /// However the bytes are split (down to one at a time), the requests and the failure are
  /// the same as when they come at once.
  @Test func theSplitOfTheBytesChangesNothing() {
    let limits = HTTPServerConfiguration.Limits(maxRequestLineBytes: 256, maxHeaderBytes: 1024)
    let inputs = [
      "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nPOST /2 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nT: 1\r\n\r\n",
      "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhelloGET /b\nHTTP/1.1\r\n\r\n",
      "POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n",
      "GET /a HTTP/1.1\r\nHost: h\r\nBad Name: x\r\n\r\n",
      // Limits and a bare LF on one line (a finding of the fuzzer: the limit was found first
      // when the line came in pieces, the bare LF when it came whole).
      "GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\nHost: h\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "b", count: 2000) + "\n\r\n",
      String(repeating: "\r\n", count: 400) + "GET /" + String(repeating: "a", count: 300) + "\n",
      "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 1100) + "\n",
      "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: " + String(repeating: "t", count: 2000) + "\n",
    ]
    for input in inputs {
      let whole = Self.decode(Array(input.utf8), limits: limits)
      for piece in [1, 2, 3, 7, 16, 300] {
        let split = Self.decode(Array(input.utf8), piece: piece, limits: limits)
        #expect(split.requests.map(\.target) == whole.requests.map(\.target), "\(piece)")
        #expect(split.requests.map(\.body) == whole.requests.map(\.body), "\(piece)")
        #expect(split.failure == whole.failure, "\(piece)")
      }
    }
  }

  /// Every malformed request and its status.
  static let malformedRequests: [(input: String, status: Int, reason: String)] = [
    // Line ends and the request line.
    ("GET / HTTP/1.1\nHost: h\n\n", 400, "bare LF"),
    ("GET / HTTP/1.1\r\nHost: h\n\r\n", 400, "bare LF"),
    ("GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n", 400, "invalid byte"),
    ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", 400, "malformed request line"),
    ("GET / HTTP/1.1 \r\nHost: h\r\n\r\n", 400, "malformed request line"),
    ("GET /\r\nHost: h\r\n\r\n", 400, "malformed request line"),
    ("G(T / HTTP/1.1\r\nHost: h\r\n\r\n", 400, "invalid method"),
    ("GET / HTTP/1.1x\r\nHost: h\r\n\r\n", 400, "malformed HTTP version"),
    ("GET / http/1.1\r\nHost: h\r\n\r\n", 400, "malformed HTTP version"),
    ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505, "only HTTP/1.1"),
    ("GET / HTTP/1.2\r\nHost: h\r\n\r\n", 505, "only HTTP/1.1"),
    // The target.
    ("GET http://h/ HTTP/1.1\r\nHost: h\r\n\r\n", 400, "must be a path"),
    ("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n", 400, "must be a path"),
    ("CONNECT h:443 HTTP/1.1\r\nHost: h\r\n\r\n", 400, "must be a path"),
    ("GET /a%zz HTTP/1.1\r\nHost: h\r\n\r\n", 400, "percent-encoding"),
    ("GET /a%2 HTTP/1.1\r\nHost: h\r\n\r\n", 400, "percent-encoding"),
    ("GET /a%FF HTTP/1.1\r\nHost: h\r\n\r\n", 400, "UTF-8"),
    ("GET /a%00b HTTP/1.1\r\nHost: h\r\n\r\n", 400, "NUL"),
    ("GET /a/../b HTTP/1.1\r\nHost: h\r\n\r\n", 400, ". or .. segment"),
    ("GET /a/%2e%2E/b HTTP/1.1\r\nHost: h\r\n\r\n", 400, ". or .. segment"),
    ("GET /./b HTTP/1.1\r\nHost: h\r\n\r\n", 400, ". or .. segment"),
    ("GET /a#frag HTTP/1.1\r\nHost: h\r\n\r\n", 400, "invalid byte"),
    ("GET /a\u{7F} HTTP/1.1\r\nHost: h\r\n\r\n", 400, "invalid byte"),
    ("GET /?q=%zz HTTP/1.1\r\nHost: h\r\n\r\n", 400, "in the query"),
    // Header fields.
    ("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", 400, "obsolete line folding"),
    ("GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n\tfolded\r\n\r\n", 400, "obsolete line folding"),
    ("GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400, "invalid header name"),
    ("GET / HTTP/1.1\r\n: h\r\nHost: h\r\n\r\n", 400, "invalid header name"),
    ("GET / HTTP/1.1\r\nHost: h\r\nNo colon\r\n\r\n", 400, "without a colon"),
    ("GET / HTTP/1.1\r\nHost: h\r\nX-A: a\u{0}b\r\n\r\n", 400, "invalid byte"),
    ("GET / HTTP/1.1\r\n\r\n", 400, "no Host"),
    ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "Host given more than once"),
    ("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "invalid Host"),
    ("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400, "invalid Host"),
    ("GET / HTTP/1.1\r\nHost: h:80:80\r\n\r\n", 400, "invalid Host"),
    ("GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", 400, "invalid Host"),
    ("GET / HTTP/1.1\r\nHost:\r\n\r\n", 400, "invalid Host"),
    // Bodies.
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc", 400, "Content-Length given more than once"),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\n\r\nabc", 400, "invalid Content-Length"),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\nabc", 400, "invalid Content-Length"),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", 400, "invalid Content-Length"),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x10\r\n\r\n", 400, "invalid Content-Length"),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length:\r\n\r\n", 400, "invalid Content-Length"),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413, "larger than"),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "both Transfer-Encoding and Content-Length"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501, "only the chunked"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501, "only the chunked"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 501, "only the chunked"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", 400, "does not end with chunked"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400, "does not end with chunked"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: ,chunked\r\n\r\n", 400, "empty Transfer-Encoding"),
    ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "HTTP/1.0"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nx\r\n", 400, "invalid chunk size"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", 400, "invalid chunk size"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3 x\r\n", 400, "invalid chunk extension"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n", 400, "bare LF"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n", 400, "not followed by CRLF"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\n", 400, "not followed by CRLF"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n", 400, "malformed trailer"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n", 413, "larger than"),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1000001\r\n", 413, "larger than"),
    ("POST / HTTP/1.1\r\nHost: h\r\nExpect: something\r\nContent-Length: 1\r\n\r\nx", 417, "100-continue"),
  ]

  @Test(arguments: malformedRequests)
  func refusesMalformedRequests(input: String, status: Int, reason: String) {
    let result = Self.decode(Array(input.utf8))
    #expect(result.requests.isEmpty)
    #expect(result.failure?.status == status, "\(input.debugDescription)")
    #expect(result.failure?.reason.contains(reason) == true, "\(result.failure?.reason ?? "no failure") for \(input.debugDescription)")
  }

  /// The limits of the head: 414 for a long request line, 431 for a large head or too many
  /// fields, found as soon as the bytes exceed them (before the end of the head comes).
  @Test func holdsTheHeadToItsLimits() {
    let limits = HTTPServerConfiguration.Limits(maxRequestLineBytes: 100, maxHeaderBytes: 400, maxHeaderCount: 5, maxBodyBytes: 1000)
    let longTarget = "/" + String(repeating: "a", count: 100)
    #expect(Self.decode("GET \(longTarget) HTTP/1.1\r\nHost: h\r\n\r\n", limits: limits).failure?.status == 414)
    #expect(Self.decode("GET \(longTarget)", limits: limits).failure?.status == 414)  // incomplete
    let exactTarget = "/" + String(repeating: "a", count: 100 - 14)  // "GET " + target + " HTTP/1.1" = 100
    #expect(Self.decode("GET \(exactTarget) HTTP/1.1\r\nHost: h\r\n\r\n", limits: limits).requests.count == 1)
    let bigField = "X: " + String(repeating: "b", count: 400)
    #expect(Self.decode("GET / HTTP/1.1\r\nHost: h\r\n\(bigField)\r\n\r\n", limits: limits).failure?.status == 431)
    #expect(Self.decode("GET / HTTP/1.1\r\nHost: h\r\n\(bigField)", limits: limits).failure?.status == 431)  // incomplete
    let fields = (1...5).map { "X-\($0): v\r\n" }.joined()
    #expect(Self.decode("GET / HTTP/1.1\r\nHost: h\r\n\(fields)\r\n", limits: limits).failure?.status == 431)
    let fewer = Self.decode("GET / HTTP/1.1\r\nHost: h\r\n\(fields.dropLast(7))\r\n", limits: limits)  // (CRLF is one Character)
    #expect(fewer.requests.count == 1, "\(String(describing: fewer.failure))")
    // Empty lines before a request line count toward the head.
    #expect(Self.decode(String(repeating: "\r\n", count: 201), limits: limits).failure?.status == 431)
    // A body over the limit, by length or by chunks; trailers are held to the head's limit.
    #expect(Self.decode("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1001\r\n\r\n", limits: limits).failure?.status == 413)
    #expect(Self.decode("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "x", count: 1000), limits: limits).requests.count == 1)
    let chunk = "1F4\r\n" + String(repeating: "y", count: 500) + "\r\n"
    #expect(Self.decode("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\(chunk)\(chunk)0\r\n\r\n", limits: limits).requests.count == 1)
    #expect(Self.decode("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\(chunk)\(chunk)1\r\n", limits: limits).failure?.status == 413)
    #expect(Self.decode("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\(bigField)\r\n\r\n", limits: limits).failure?.status == 431)
    let longChunkLine = "1;" + String(repeating: "e", count: 1100)
    #expect(Self.decode("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\(longChunkLine)", limits: limits).failure?.status == 400)
  }

  @Test func acceptsWhatHTTPAllows() {
    // HTTP/1.0 without Host; methods beyond GET and POST; a Host with an IPv6 literal; obs-text.
    #expect(Self.decode("GET / HTTP/1.0\r\n\r\n").requests.count == 1)
    #expect(Self.decode("PATCH /x HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n").requests.first?.method == "PATCH")
    #expect(Self.decode("GET / HTTP/1.1\r\nHost: localhost\r\nX: caf\u{E9}\r\n\r\n").requests.first?.headers["X"] == "café")
    let latin1 = Array("GET / HTTP/1.1\r\nHost: h\r\nX: a".utf8) + [0xE9] + Array("\r\n\r\n".utf8)
    #expect(Self.decode(latin1).requests.first?.headers["X"] == "aé")
    // Leading and trailing spaces of a value are not part of it; a Content-Length of 0.
    let zero = Self.decode("POST / HTTP/1.1\r\nHost: h\r\nContent-Length:  0 \r\n\r\n")
    #expect(zero.requests.first?.body == [])
    // Target bytes browsers send unescaped.
    #expect(Self.decode("GET /a|b?x={1}&y=[2]^ HTTP/1.1\r\nHost: h\r\n\r\n").requests.first?.queryValue("x") == "{1}")
  }

  @Test func asksForContinueBeforeTheBody() {
    var decoder = HTTPRequestDecoder()
    decoder.append(Array("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\n".utf8))
    guard case .continueExpected = decoder.next() else { Issue.record("no continue"); return }
    guard case .needMoreData = decoder.next() else { Issue.record("no wait"); return }
    #expect(decoder.phase == .body)
    decoder.append(Array("ok".utf8))
    guard case .request(let request) = decoder.next() else { Issue.record("no request"); return }
    #expect(request.body == Array("ok".utf8))
    #expect(decoder.phase == .idle)
  }

  @Test func aFailureIsFinal() {
    var decoder = HTTPRequestDecoder()
    decoder.append(Array("GET / HTTP/1.1\nHost: h\r\n\r\n".utf8))
    guard case .failure = decoder.next() else { Issue.record("no failure"); return }
    decoder.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
    guard case .failure(let error) = decoder.next() else { Issue.record("recovered"); return }
    #expect(error.status == 400)
  }

  @Test func requestsBuiltByHandTestsAreCheckedTheSameWay() throws {
    let request = try HTTPRequest(method: "POST", target: "/a%20b?x=1", headers: ["Host": "h"])
    #expect(request.path == "/a b")
    #expect(request.queryValue("x") == "1")
    #expect(throws: HTTPRequestError.self) { try HTTPRequest(target: "/../etc/passwd") }
    #expect(throws: HTTPRequestError.self) { try HTTPRequest(target: "relative") }
  }
}
