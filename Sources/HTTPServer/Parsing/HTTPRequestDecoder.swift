/// Turns the bytes a client sends into requests, one after the other, however the bytes are
/// split: the parser of the server, with no socket, so that tests and the fuzzer drive it
/// directly.
///
/// Feed bytes with ``append(_:)`` and call ``next()`` until it answers
/// ``Event/needMoreData``. A ``Event/failure(_:)`` is final: the server answers its status and
/// closes the connection, since after a framing error it can no longer tell where the next
/// request starts.
///
/// What it accepts (RFC 9112, strictly; see ``RequestHead`` for the fields):
/// - lines end with CRLF; a bare LF or a bare CR is 400 (a bare LF is allowed by RFC 9112 as
///   lenient parsing, and is a request-smuggling vector between parsers that differ on it);
/// - empty lines before a request line are skipped (RFC 9112 §2.2), counted in the header limit;
/// - a request line over ``HTTPServerConfiguration/Limits/maxRequestLineBytes`` is 414; a head
///   over ``HTTPServerConfiguration/Limits/maxHeaderBytes`` or with more than
///   ``HTTPServerConfiguration/Limits/maxHeaderCount`` fields is 431;
/// - a body of `Content-Length` bytes, or chunked: hexadecimal sizes (extensions ignored,
///   a size line at most 1 KiB), each chunk followed by CRLF, trailers read and dropped;
///   a body over ``HTTPServerConfiguration/Limits/maxBodyBytes`` is 413.
public struct HTTPRequestDecoder: Sendable {
  /// What ``next()`` found.
  public enum Event: Sendable {
    /// The bytes so far hold no complete request: read more.
    case needMoreData
    /// The head asked for `Expect: 100-continue`: send `HTTP/1.1 100 Continue` and go on.
    case continueExpected
    /// A complete request; its bytes are consumed.
    case request(HTTPRequest)
    /// The bytes are no valid request: answer the error's status and close.
    case failure(HTTPRequestError)
  }

  /// Where the decoder is within a request (the server picks its timeout by it).
  public enum Phase: Sendable, Equatable {
    /// No byte of the next request yet.
    case idle
    /// Reading a request line and header fields.
    case head
    /// Reading a body.
    case body
  }

  /// Where the bytes being decoded belong.
  private enum State: Sendable {
    case head
    case fixedBody(remaining: Int)
    case chunkSizeLine
    case chunkData(remaining: Int)
    case chunkDataEnd
    case trailers(bytes: Int)
    case failed(HTTPRequestError)
  }

  /// The longest line of a chunk size with its extensions.
  static let maxChunkLineBytes = 1024

  private let limits: HTTPServerConfiguration.Limits
  private let localPort: Int
  private var buffer: [UInt8] = []
  /// The first byte not consumed.
  private var start = 0
  /// Head and trailer scanning: where the current line starts, how far LFs were looked for.
  private var lineStart = 0
  private var scanned = 0
  /// The complete lines of the head so far (without CRLF).
  private var lines: [Range<Int>] = []
  private var state = State.head
  private var head: RequestHead?
  private var body: [UInt8] = []

  /// A decoder for a connection held to `limits`; requests carry `localPort`.
  public init(limits: HTTPServerConfiguration.Limits = .init(), localPort: Int = 0) {
    self.limits = limits
    self.localPort = localPort
  }

  /// Adds bytes received from the client.
  public mutating func append(_ bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
  }

  /// Where the decoder is within a request.
  public var phase: Phase {
    switch state {
    case .head: return start == buffer.count ? .idle : .head
    case .failed: return .head
    default: return .body
    }
  }

  /// Bytes received and not yet consumed.
  public var bufferedByteCount: Int { buffer.count - start }

  /// Decodes as far as the bytes go: the next event.
  public mutating func next() -> Event {
    switch state {
    case .failed(let error):
      return .failure(error)
    case .head:
      return decodeHead()
    default:
      return decodeBody()
    }
  }

  // MARK: - The head

  private mutating func decodeHead() -> Event {
    while true {
      guard let lf = buffer[scanned...].firstIndex(of: HTTPSyntax.lf) else {
        scanned = buffer.count
        // No byte here is a line end: a limit whose first excess byte has come is exceeded.
        if let error = headLimitExceeded(before: buffer.count, lineEnd: nil) { return fail(error) }
        return .needMoreData
      }
      scanned = lf + 1
      // The limits first, as they would be found had the bytes come one at a time, so that
      // the answer never depends on how the bytes were split.
      if let error = headLimitExceeded(before: lf + 1, lineEnd: lf) { return fail(error) }
      guard lf > lineStart, buffer[lf - 1] == HTTPSyntax.cr else { return fail(.badRequest("bare LF in the request head")) }
      let line = lineStart..<(lf - 1)
      lineStart = lf + 1
      if !line.isEmpty {
        lines.append(line)
        if lines.count > limits.maxHeaderCount + 1 {
          return fail(HTTPRequestError(status: 431, reason: "more than \(limits.maxHeaderCount) header fields"))
        }
        continue
      }
      if lines.isEmpty { continue }  // an empty line before the request line
      return headComplete(end: lf + 1)
    }
  }

  /// The limit of the head the bytes before index `end` exceed (the LF at `lineEnd`, if any,
  /// ends the current line): 414 once the request line has a byte beyond its limit (its CR
  /// aside), 431 once the head has; when both, the one exceeded at the earlier byte.
  private func headLimitExceeded(before end: Int, lineEnd: Int?) -> HTTPRequestError? {
    // The index of the first byte over each limit.
    let overLine = lines.isEmpty ? lineStart + limits.maxRequestLineBytes + 1 : Int.max
    let overHead = start + limits.maxHeaderBytes
    let lineExceeded = overLine < (lineEnd ?? end)  // the LF does not count in a line
    let headExceeded = overHead < end
    if lineExceeded && (!headExceeded || overLine <= overHead) {
      return HTTPRequestError(status: 414, reason: "the request line is longer than \(limits.maxRequestLineBytes) bytes")
    }
    return headExceeded ? tooLargeHead : nil
  }

  private var tooLargeHead: HTTPRequestError {
    HTTPRequestError(status: 431, reason: "the request head is larger than \(limits.maxHeaderBytes) bytes")
  }

  private mutating func headComplete(end: Int) -> Event {
    let parsed: RequestHead
    do {
      parsed = try RequestHead.parse(lines: lines.map { buffer[$0] }, limits: limits)
    } catch {
      return fail(error)
    }
    start = end
    lines = []
    head = parsed
    switch parsed.framing {
    case .none: return finishRequest()
    case .length(let count): state = .fixedBody(remaining: count)
    case .chunked:
      state = .chunkSizeLine
      lineStart = start
      scanned = start
    }
    return parsed.expectsContinue && parsed.minorVersion == 1 && start == buffer.count ? .continueExpected : decodeBody()
  }

  // MARK: - The body

  private mutating func decodeBody() -> Event {
    while true {
      switch state {
      case .fixedBody(let remaining):
        let count = min(remaining, buffer.count - start)
        body.append(contentsOf: buffer[start..<(start + count)])
        start += count
        compactBody()
        if count == remaining { return finishRequest() }
        state = .fixedBody(remaining: remaining - count)
        return .needMoreData
      case .chunkSizeLine:
        guard let line = nextLine(limit: Self.maxChunkLineBytes, tooLong: .badRequest("chunk size line too long"), what: "chunk size line") else { return pendingOrFailure }
        let size: Int
        do throws(HTTPRequestError) { size = try chunkSize(buffer[line]) } catch { return fail(error) }
        if size > limits.maxBodyBytes - body.count {
          return fail(HTTPRequestError(status: 413, reason: "the body is larger than \(limits.maxBodyBytes) bytes"))
        }
        state = size == 0 ? .trailers(bytes: 0) : .chunkData(remaining: size)
      case .chunkData(let remaining):
        let count = min(remaining, buffer.count - start)
        body.append(contentsOf: buffer[start..<(start + count)])
        start += count
        guard count == remaining else {
          state = .chunkData(remaining: remaining - count)
          compactBody()
          return .needMoreData
        }
        state = .chunkDataEnd
      case .chunkDataEnd:
        guard buffer.count - start >= 2 else {
          if buffer.count - start == 1 && buffer[start] != HTTPSyntax.cr { return fail(.badRequest("chunk data not followed by CRLF")) }
          return .needMoreData
        }
        guard buffer[start] == HTTPSyntax.cr, buffer[start + 1] == HTTPSyntax.lf else {
          return fail(.badRequest("chunk data not followed by CRLF"))
        }
        start += 2
        lineStart = start
        scanned = start
        compactBody()
        state = .chunkSizeLine
      case .trailers(let bytes):
        let lineBegin = start
        guard let line = nextLine(limit: limits.maxHeaderBytes - bytes, tooLong: tooLargeHead, what: "trailer") else {
          return pendingOrFailure
        }
        if line.isEmpty { return finishRequest() }
        let field = buffer[line]
        guard let colon = field.firstIndex(of: HTTPSyntax.colon), HTTPSyntax.isToken(field[..<colon]),
          field[(colon + 1)...].allSatisfy(HTTPSyntax.isFieldValueByte)
        else { return fail(.badRequest("malformed trailer field")) }
        state = .trailers(bytes: bytes + start - lineBegin)
      case .head, .failed:
        return next()
      }
    }
  }

  /// After `nextLine` returned nil: the failure it recorded, or a wait for more bytes.
  private var pendingOrFailure: Event {
    if case .failed(let error) = state { return .failure(error) }
    return .needMoreData
  }

  /// The next CRLF-terminated line from `start` (consumed, without its CRLF), or nil when it is
  /// incomplete, or when it is malformed or, with its CRLF, longer than `limit` (then the state
  /// is failed, with `tooLong` for a long line).
  private mutating func nextLine(limit: Int, tooLong: HTTPRequestError, what: String) -> Range<Int>? {
    guard let lf = buffer[scanned...].firstIndex(of: HTTPSyntax.lf) else {
      scanned = buffer.count
      if buffer.count - start > limit { state = .failed(tooLong) }
      return nil
    }
    // The limit before the bare-LF check, as in the head.
    if lf + 1 - start > limit {
      state = .failed(tooLong)
      return nil
    }
    guard lf > start, buffer[lf - 1] == HTTPSyntax.cr else {
      state = .failed(.badRequest("bare LF in a \(what)"))
      return nil
    }
    let line = start..<(lf - 1)
    start = lf + 1
    lineStart = start
    scanned = start
    return line
  }

  /// The size of a chunk line: hexadecimal digits, then nothing or `;` extensions.
  private func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> Int {
    let digits = line.prefix { RequestTarget.hexValue($0) != nil }
    guard !digits.isEmpty else { throw .badRequest("invalid chunk size") }
    var rest = line[digits.endIndex...]
    while let byte = rest.first, HTTPSyntax.isWhitespace(byte) { rest.removeFirst() }
    if let first = rest.first {
      guard first == UInt8(ascii: ";"), rest.allSatisfy(HTTPSyntax.isFieldValueByte) else {
        throw .badRequest("invalid chunk extension")
      }
    }
    let significant = digits.drop { $0 == UInt8(ascii: "0") }
    guard significant.count <= 15 else {
      throw HTTPRequestError(status: 413, reason: "the body is larger than \(limits.maxBodyBytes) bytes")
    }
    return significant.reduce(0) { $0 << 4 | Int(RequestTarget.hexValue($1)!) }
  }

  // MARK: - Ends

  /// Drops consumed body bytes from the buffer once they are many.
  private mutating func compactBody() {
    guard start >= 64 * 1024 || start == buffer.count else { return }
    buffer.removeSubrange(0..<start)
    lineStart = max(0, lineStart - start)
    scanned = max(0, scanned - start)
    start = 0
  }

  private mutating func finishRequest() -> Event {
    guard let head else { return fail(.badRequest("no request head")) }
    let request = HTTPRequest(head: head, body: body, localPort: localPort)
    self.head = nil
    body = []
    state = .head
    if start > 0 {
      buffer.removeSubrange(0..<start)
      start = 0
    }
    lineStart = 0
    scanned = 0
    lines = []
    return .request(request)
  }

  private mutating func fail(_ error: HTTPRequestError) -> Event {
    state = .failed(error)
    return .failure(error)
  }
}

extension HTTPRequest {
  /// The request of a parsed head and its body.
  init(head: RequestHead, body: [UInt8], localPort: Int) {
    self.method = head.method
    self.target = head.target
    self.path = head.path
    self.query = head.query
    self.headers = head.headers
    self.body = body
    self.localPort = localPort
    self.minorVersion = head.minorVersion
  }
}
