/// A request's line and header fields, parsed and checked, with what they say about the body
/// and the connection.
struct RequestHead: Sendable {
  /// How the body is delimited.
  enum Framing: Equatable, Sendable {
    /// No body.
    case none
    /// `Content-Length` bytes.
    case length(Int)
    /// `Transfer-Encoding: chunked`.
    case chunked
  }

  var method: String
  var target: String
  var path: String
  var query: [(name: String, value: String)]
  var minorVersion: Int
  var headers: HTTPHeaders
  var framing: Framing
  /// `Expect: 100-continue`: the client waits for an interim answer before the body.
  var expectsContinue: Bool
  /// The connection closes after the answer (`Connection: close`, or HTTP/1.0).
  var closesConnection: Bool

  /// Parses the request line and field lines (each without its CRLF). The rules, strict where
  /// RFC 9112 lets a server choose, since a lenient parser behind a stricter proxy is how
  /// requests get smuggled:
  /// - request line: `method SP target SP HTTP/1.x`, single spaces; the method a token; the
  ///   version `HTTP/1.1` or `HTTP/1.0` (another `HTTP/d.d` is 505, anything else 400);
  /// - field lines: a token, a colon with nothing before it, a value of visible bytes, spaces,
  ///   tabs or obs-text; obs-fold (a line starting with whitespace) is 400;
  /// - exactly one `Host` in HTTP/1.1, not empty, of host characters;
  /// - `Content-Length`: digits only, at most once; with `Transfer-Encoding` 400;
  /// - `Transfer-Encoding`: `chunked` only (another coding is 501; `chunked` not last, or any in
  ///   HTTP/1.0, is 400);
  /// - `Expect`: `100-continue` only (else 417).
  static func parse(lines: [ArraySlice<UInt8>], limits: HTTPServerConfiguration.Limits) throws(HTTPRequestError) -> RequestHead {
    guard let requestLine = lines.first else { throw .badRequest("empty request") }
    let parts = requestLine.split(separator: HTTPSyntax.space, maxSplits: 3, omittingEmptySubsequences: false)
    guard parts.count == 3 else { throw .badRequest("malformed request line") }
    guard HTTPSyntax.isToken(parts[0]) else { throw .badRequest("invalid method") }
    let minorVersion = try version(parts[2])
    let target = try RequestTarget.parse(Array(parts[1]))

    var headers = HTTPHeaders()
    for line in lines.dropFirst() {
      guard let first = line.first, !HTTPSyntax.isWhitespace(first) else {
        throw .badRequest("obsolete line folding in the header")
      }
      guard let colon = line.firstIndex(of: HTTPSyntax.colon) else { throw .badRequest("header line without a colon") }
      let name = line[..<colon]
      guard HTTPSyntax.isToken(name) else { throw .badRequest("invalid header name") }
      var value = line[(colon + 1)...]
      while let byte = value.first, HTTPSyntax.isWhitespace(byte) { value.removeFirst() }
      while let byte = value.last, HTTPSyntax.isWhitespace(byte) { value.removeLast() }
      guard value.allSatisfy(HTTPSyntax.isFieldValueByte) else {
        throw .badRequest("invalid byte in the value of \(String(decoding: name, as: UTF8.self))")
      }
      headers.add(name: String(decoding: name, as: UTF8.self), value: HTTPSyntax.text(value))
    }

    let hosts = headers.values(for: "Host")
    if minorVersion == 1 && hosts.count != 1 || hosts.count > 1 {
      throw .badRequest(hosts.isEmpty ? "no Host header" : "Host given more than once")
    }
    if let host = hosts.first, !isValidHost(host) { throw .badRequest("invalid Host header") }

    let framing = try Self.framing(headers, minorVersion: minorVersion, limits: limits)
    let expectsContinue = try Self.expectsContinue(headers)
    let connectionOptions = headers.values(for: "Connection").flatMap(Self.listElements)
    let closes = minorVersion == 0 || connectionOptions.contains("close")
    return RequestHead(
      method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
      path: target.path, query: target.query, minorVersion: minorVersion, headers: headers, framing: framing,
      expectsContinue: expectsContinue, closesConnection: closes)
  }

  /// The minor version of `HTTP/1.x`.
  private static func version(_ bytes: ArraySlice<UInt8>) throws(HTTPRequestError) -> Int {
    let text = Array(bytes)
    let digit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    guard text.count == 8, text[0..<5].elementsEqual("HTTP/".utf8), digit(text[5]), text[6] == UInt8(ascii: "."), digit(text[7])
    else { throw .badRequest("malformed HTTP version") }
    guard text[5] == UInt8(ascii: "1"), text[7] <= UInt8(ascii: "1") else {
      throw HTTPRequestError(status: 505, reason: "only HTTP/1.1 and HTTP/1.0 are served")
    }
    return Int(text[7] - UInt8(ascii: "0"))
  }

  /// How the body is delimited, from `Content-Length` and `Transfer-Encoding`.
  private static func framing(_ headers: HTTPHeaders, minorVersion: Int, limits: HTTPServerConfiguration.Limits)
    throws(HTTPRequestError) -> Framing
  {
    let lengths = headers.values(for: "Content-Length")
    let codings = headers.values(for: "Transfer-Encoding")
    if !codings.isEmpty {
      guard lengths.isEmpty else { throw .badRequest("both Transfer-Encoding and Content-Length") }
      guard minorVersion == 1 else { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
      let elements = codings.flatMap(listElements)
      guard !elements.isEmpty, !elements.contains("") else { throw .badRequest("empty Transfer-Encoding") }
      guard elements.last == "chunked" else { throw .badRequest("Transfer-Encoding does not end with chunked") }
      guard elements.count == 1 else {
        throw HTTPRequestError(status: 501, reason: "only the chunked transfer coding is supported")
      }
      return .chunked
    }
    guard let length = lengths.first else { return .none }
    guard lengths.count == 1 else { throw .badRequest("Content-Length given more than once") }
    let digits = Array(length.utf8)
    guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
      throw .badRequest("invalid Content-Length")
    }
    guard let value = Int(length), value <= limits.maxBodyBytes else {
      throw HTTPRequestError(status: 413, reason: "the body is larger than \(limits.maxBodyBytes) bytes")
    }
    return value == 0 ? .none : .length(value)
  }

  /// Whether the client waits for 100 Continue; another expectation is 417.
  private static func expectsContinue(_ headers: HTTPHeaders) throws(HTTPRequestError) -> Bool {
    let expectations = headers.values(for: "Expect").flatMap(listElements)
    guard !expectations.isEmpty else { return false }
    guard expectations.allSatisfy({ $0 == "100-continue" }) else {
      throw HTTPRequestError(status: 417, reason: "only the 100-continue expectation is supported")
    }
    return true
  }

  /// The elements of a comma-separated list value, trimmed and in lower case.
  static func listElements(_ value: String) -> [String] {
    value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { element in
      var element = element
      while let byte = element.first, HTTPSyntax.isWhitespace(byte) { element.removeFirst() }
      while let byte = element.last, HTTPSyntax.isWhitespace(byte) { element.removeLast() }
      return String(decoding: HTTPSyntax.lowercased(element), as: UTF8.self)
    }
  }

  /// Whether a `Host` value is `uri-host [":" port]`: an IP literal in brackets, or
  /// registered-name characters; the port digits only.
  static func isValidHost(_ host: String) -> Bool {
    let bytes = Array(host.utf8)
    guard !bytes.isEmpty, bytes.count <= 300 else { return false }
    var name = bytes[...]
    var port: ArraySlice<UInt8> = []
    if bytes[0] == UInt8(ascii: "[") {
      guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
      let literal = bytes[1..<close]
      guard !literal.isEmpty, literal.allSatisfy({ RequestTarget.hexValue($0) != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
      else { return false }
      let rest = bytes[(close + 1)...]
      if !rest.isEmpty {
        guard rest.first == HTTPSyntax.colon else { return false }
        port = rest.dropFirst()
      }
      name = []
    } else if let colon = bytes.lastIndex(of: HTTPSyntax.colon) {
      name = bytes[..<colon]
      port = bytes[(colon + 1)...]
    }
    let nameBytes = Array("-._~!$&'()*+,;=%".utf8)
    guard name.allSatisfy({ isAlphanumeric($0) || nameBytes.contains($0) }) else { return false }
    return port.count <= 5 && port.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
}
