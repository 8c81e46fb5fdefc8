import HTTPServer

/// The `http` fuzz target's checks of the request parser alone.
enum HTTPParserChecks {
  /// Small limits, so that inputs of a few KiB reach each of them.
  static let limits = HTTPServerConfiguration.Limits(
    maxRequestLineBytes: 256, maxHeaderBytes: 1024, maxHeaderCount: 16, maxBodyBytes: 4096)

  /// The statuses the parser may refuse a request with.
  static let failureStatuses: Set<Int> = [400, 413, 414, 417, 431, 501, 505]

  /// The requests `input` holds and the failure after them (nil: the input ends within or
  /// after a request), fed in pieces of the sizes `pieces` gives in turn (`[]`: all at once).
  static func decode(_ input: [UInt8], pieces: [Int] = [], limits: HTTPServerConfiguration.Limits = limits) -> (
    requests: [HTTPRequest], failure: HTTPRequestError?
  ) {
    var decoder = HTTPRequestDecoder(limits: limits)
    var requests: [HTTPRequest] = []
    var offset = 0
    var turn = 0
    repeat {
      let size = pieces.isEmpty ? input.count : max(1, pieces[turn % pieces.count])
      turn += 1
      let end = min(input.count, offset + size)
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

  /// What must hold of `input`; empty when it does.
  static func problems(_ input: [UInt8]) -> [String] {
    var problems: [String] = []
    let whole = decode(input)
    // The split of the bytes changes nothing: one byte at a time (short inputs), and pieces of
    // sizes drawn from the input itself.
    var splits: [[Int]] = [[Int(input.first ?? 0) % 13 + 1, 1, Int(input.last ?? 0) % 97 + 2]]
    if input.count <= 4096 { splits.append([1]) }
    for pieces in splits {
      let split = decode(input, pieces: pieces)
      if split.failure != whole.failure {
        problems.append("pieces \(pieces): failure \(String(describing: split.failure)) instead of \(String(describing: whole.failure))")
      }
      if split.requests.count != whole.requests.count
        || zip(split.requests, whole.requests).contains(where: { !same($0, $1) })
      {
        problems.append("pieces \(pieces): \(split.requests.count) requests differ from the \(whole.requests.count) of the whole input")
      }
    }
    if let failure = whole.failure, !failureStatuses.contains(failure.status) {
      problems.append("failure status \(failure.status) (\(failure.reason))")
    }
    for request in whole.requests {
      problems += promises(request)
      problems += roundTrip(request)
      problems += guardDecision(request)
    }
    return problems
  }

  /// Whether two requests are the same in every field.
  static func same(_ a: HTTPRequest, _ b: HTTPRequest) -> Bool {
    a.method == b.method && a.target == b.target && a.path == b.path && a.minorVersion == b.minorVersion
      && a.body == b.body && a.query.map(\.name) == b.query.map(\.name) && a.query.map(\.value) == b.query.map(\.value)
      && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
  }

  private static let tokenBytes = Set(Array("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))

  /// The parser's promises about a request it accepted.
  static func promises(_ request: HTTPRequest) -> [String] {
    var problems: [String] = []
    if request.method.isEmpty || !request.method.utf8.allSatisfy(tokenBytes.contains) { problems.append("method \(request.method.debugDescription)") }
    if !request.path.hasPrefix("/") { problems.append("path \(request.path.debugDescription) without a leading /") }
    if request.path.utf8.contains(0) { problems.append("NUL in the path") }
    if request.path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) {
      problems.append("a dot segment in \(request.path.debugDescription)")
    }
    if !request.target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }) {
      problems.append("target \(request.target.debugDescription)")
    }
    if request.body.count > limits.maxBodyBytes { problems.append("a body of \(request.body.count) bytes") }
    if request.headers.count > limits.maxHeaderCount { problems.append("\(request.headers.count) header fields") }
    if request.minorVersion == 1 && request.headers.values(for: "Host").count != 1 { problems.append("HTTP/1.1 without one Host") }
    if !(0...1).contains(request.minorVersion) { problems.append("HTTP/1.\(request.minorVersion)") }
    for field in request.headers {
      if field.name.isEmpty || !field.name.utf8.allSatisfy(tokenBytes.contains) { problems.append("header name \(field.name.debugDescription)") }
      if field.value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) {
        problems.append("control character in the value of \(field.name)")
      }
      if field.value.first == " " || field.value.last == " " { problems.append("untrimmed value of \(field.name)") }
    }
    if request.headers.values(for: "Content-Length").count > 1 { problems.append("two Content-Length fields") }
    if request.headers.contains("Content-Length") && request.headers.contains("Transfer-Encoding") {
      problems.append("Content-Length with Transfer-Encoding")
    }
    return problems
  }

  /// The request written back out (its fields, its body with a `Content-Length`) parses to
  /// the same request.
  static func roundTrip(_ request: HTTPRequest) -> [String] {
    var text = "\(request.method) \(request.target) HTTP/1.\(request.minorVersion)\r\n"
    for field in request.headers where !["content-length", "transfer-encoding"].contains(field.name.lowercased()) {
      text += "\(field.name): \(field.value)\r\n"
    }
    if !request.body.isEmpty { text += "Content-Length: \(request.body.count)\r\n" }
    text += "\r\n"
    // Header values of Latin-1 bytes come back as UTF-8, two bytes each: room for them.
    var roomy = limits
    roomy.maxHeaderBytes *= 4
    roomy.maxRequestLineBytes *= 4
    roomy.maxHeaderCount += 2
    let again = decode(Array(text.utf8) + request.body, limits: roomy)
    guard again.failure == nil, again.requests.count == 1, let parsed = again.requests.first else {
      return ["written back, \(request.method) \(request.target) gives \(again.requests.count) requests, \(String(describing: again.failure))"]
    }
    var expected = request
    expected.headers.remove(name: "Content-Length")
    expected.headers.remove(name: "Transfer-Encoding")
    var actual = parsed
    actual.headers.remove(name: "Content-Length")
    return same(expected, actual) ? [] : ["written back, \(request.method) \(request.target) parses differently"]
  }

  /// The guard of a fixed token: it lets a request through only with that token's cookie, a
  /// `Host` of its own, and for a state change the right Origin and CSRF token.
  static let access = LocalAccessGuard(token: "fuzz-token-0123456789", csrfToken: "fuzz-csrf-0123456789", port: 8080)

  static func guardDecision(_ request: HTTPRequest) -> [String] {
    guard access.check(request) == nil else { return [] }
    var problems: [String] = []
    let host = request.headers["Host"]?.lowercased() ?? ""
    if !["127.0.0.1:8080", "localhost:8080", "[::1]:8080"].contains(host) { problems.append("the guard let Host \(host) through") }
    let cookies = request.headers["Cookie"] ?? ""
    if !cookies.contains("access-token-8080=") || !cookies.contains("fuzz-token-0123456789") {
      problems.append("the guard let a request without the token through")
    }
    if !request.isSafeMethod {
      if request.headers.values(for: "Origin") != ["http://\(host)"] { problems.append("the guard let a cross-origin \(request.method) through") }
      if request.headers.values(for: LocalAccessGuard.csrfHeaderName) != ["fuzz-csrf-0123456789"] {
        problems.append("the guard let a \(request.method) without the CSRF token through")
      }
    }
    return problems
  }

  /// Requests of every kind: plain, with bodies, chunked, pipelined, guarded, and malformed
  /// ones of each rule.
  static let seeds: [FuzzSeed] = {
    let host = "Host: 127.0.0.1:8080\r\n"
    let cookie = "Cookie: a=1; access-token-8080=fuzz-token-0123456789\r\n"
    let texts: [(String, String)] = [
      ("get", "GET / HTTP/1.1\r\n\(host)\r\n"),
      ("get-query", "GET /api/files/0/classes/Dog%20s/objects?where=age%20%3E%201&sort=name&limit=50&x=a+b HTTP/1.1\r\n\(host)Accept: application/json\r\n\r\n"),
      ("get-token", "GET /?token=fuzz-token-0123456789 HTTP/1.1\r\n\(host)User-Agent: Mozilla/5.0\r\nSec-Fetch-Site: none\r\nSec-Fetch-Mode: navigate\r\n\r\n"),
      ("get-cookie", "GET /app.js HTTP/1.1\r\n\(host)\(cookie)Sec-Fetch-Site: same-origin\r\n\r\n"),
      ("head", "HEAD /x HTTP/1.1\r\nHost: localhost:8080\r\n\r\n"),
      ("post", "POST /api/edit HTTP/1.1\r\n\(host)\(cookie)Origin: http://127.0.0.1:8080\r\nX-CSRF-Token: fuzz-csrf-0123456789\r\nContent-Type: application/json\r\nContent-Length: 26\r\n\r\n{\"class\":\"Dog\",\"key\":1234}"),
      ("post-chunked", "POST /api/import HTTP/1.1\r\n\(host)\(cookie)Origin: http://127.0.0.1:8080\r\nX-CSRF-Token: fuzz-csrf-0123456789\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nname,\r\n4;ext=1\r\nage\n\r\n0\r\nTrailer: t\r\n\r\n"),
      ("post-continue", "POST /up HTTP/1.1\r\n\(host)Expect: 100-continue\r\nContent-Length: 3\r\n\r\nabc"),
      ("pipelined", "\r\nGET /1 HTTP/1.1\r\n\(host)\r\nPOST /2 HTTP/1.1\r\n\(host)Content-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\n\(host)Connection: close\r\n\r\nGET /4 HTTP/1.1\r\n\(host)\r\n"),
      ("http10", "GET /old HTTP/1.0\r\nUser-Agent: x\r\n\r\n"),
      ("delete", "DELETE /api/objects/7 HTTP/1.1\r\nHost: [::1]:8080\r\n\(cookie)Origin: http://[::1]:8080\r\nX-CSRF-Token: fuzz-csrf-0123456789\r\n\r\n"),
      ("bare-lf", "GET / HTTP/1.1\n\(host)\n"),
      ("obs-fold", "GET / HTTP/1.1\r\n\(host)X: a\r\n b\r\n\r\n"),
      ("two-lengths", "POST / HTTP/1.1\r\n\(host)Content-Length: 1\r\nContent-Length: 1\r\n\r\nx"),
      ("length-and-chunked", "POST / HTTP/1.1\r\n\(host)Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
      ("gzip", "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"),
      ("bad-chunk", "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n"),
      ("big-chunk", "POST / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\nfff\r\n"),
      ("long-line", "GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\r\n\(host)\r\n"),
      ("many-fields", "GET / HTTP/1.1\r\n\(host)" + (0..<20).map { "X-\($0): \($0)\r\n" }.joined() + "\r\n"),
      ("large-body", "POST / HTTP/1.1\r\n\(host)Content-Length: 5000\r\n\r\n"),
      ("dot-segment", "GET /a/%2e%2e/b HTTP/1.1\r\n\(host)\r\n"),
      ("bad-escape", "GET /a%zz?b=%4 HTTP/1.1\r\n\(host)\r\n"),
      ("absolute", "GET http://127.0.0.1:8080/ HTTP/1.1\r\n\(host)\r\n"),
      ("version", "GET / HTTP/2.0\r\n\(host)\r\n"),
      ("no-host", "GET / HTTP/1.1\r\n\r\n"),
      ("expect", "POST / HTTP/1.1\r\n\(host)Expect: 200-ok\r\nContent-Length: 1\r\n\r\nx"),
    ]
    var seeds = texts.map { FuzzSeed(name: $0.0, bytes: Array($0.1.utf8)) }
    seeds.append(FuzzSeed(name: "latin1", bytes: Array("GET / HTTP/1.1\r\n\(host)X: caf".utf8) + [0xE9, 0x0D, 0x0A, 0x0D, 0x0A]))
    return seeds
  }()
}
