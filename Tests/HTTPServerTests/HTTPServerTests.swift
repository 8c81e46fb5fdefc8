import Dispatch
import Foundation
import HTTPServer
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server over real loopback sockets: framing, keep-alive, pipelining, HEAD, streaming,
/// 100-continue, every limit, malformed requests, port errors, stopping.
@Suite struct HTTPServerTests {
  @Test func answersAndKeepsTheConnectionAlive() throws {
    let server = try RunningServer(handler: echoHandler)
    let client = try server.connect()
    let first = try client.exchange(get("/hello?a=1&b=x%20y", port: server.port))
    #expect(first.status == 200)
    #expect(first.text == "GET /hello\nquery a=1\nquery b=x y\nbody 0 ")
    #expect(first.headers["Content-Type"] == "text/plain; charset=utf-8")
    #expect(first.headers["Content-Length"] == String(first.body.count))
    #expect(first.headers["Connection"] == nil)
    #expect(first.headers["Date"]?.hasSuffix(" GMT") == true)
    // Security headers on every answer.
    #expect(first.headers["X-Content-Type-Options"] == "nosniff")
    #expect(first.headers["Content-Security-Policy"]?.hasPrefix("default-src 'self'") == true)
    #expect(first.headers["X-Frame-Options"] == "DENY")
    #expect(first.headers["Referrer-Policy"] == "no-referrer")
    #expect(first.headers["Cache-Control"] == "no-store")
    // The same connection carries the next request.
    let second = try client.exchange("POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nbody")
    #expect(second.text.hasSuffix("body 4 body"))
    // Connection: close is honoured: the answer says so and the server closes.
    let last = try client.exchange(get("/bye", "Connection: close\r\n"))
    #expect(last.headers["Connection"] == "close")
    #expect(client.isClosedByServer())
  }

  @Test func closesAfterAnHTTP10Request() throws {
    let server = try RunningServer(handler: echoHandler)
    let client = try server.connect()
    let response = try client.exchange("GET /old HTTP/1.0\r\n\r\n")
    #expect(response.status == 200)
    #expect(response.headers["Connection"] == "close")
    #expect(client.isClosedByServer())
  }

  /// Pipelining: requests sent together are answered in order on the one connection.
  @Test func answersPipelinedRequestsInOrder() throws {
    let server = try RunningServer(handler: echoHandler)
    let client = try server.connect()
    client.send(get("/1") + "POST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc" + get("/3") + get("/4", "Connection: close\r\n"))
    let answers = try (0..<4).map { _ in try client.readResponse() }
    #expect(answers.map { $0.text.split(separator: "\n")[0] } == ["GET /1", "POST /2", "GET /3", "GET /4"])
    #expect(client.isClosedByServer())
  }

  @Test func answersHeadWithoutABody() throws {
    let server = try RunningServer { request in
      request.path == "/stream" ? .stream(contentType: "text/plain") { write in try write(Array("abc".utf8)[...]) } : .text("twelve bytes")
    }
    let client = try server.connect()
    let head = try client.exchange("HEAD /x HTTP/1.1\r\nHost: h\r\n\r\n", head: true)
    #expect(head.status == 200)
    #expect(head.headers["Content-Length"] == "12")
    let streamHead = try client.exchange("HEAD /stream HTTP/1.1\r\nHost: h\r\n\r\n", head: true)
    #expect(streamHead.headers["Transfer-Encoding"] == "chunked")
    // No body came: the next answer on the connection starts right away.
    let next = try client.exchange(get("/x"))
    #expect(next.text == "twelve bytes")
  }

  /// A streamed answer goes out in chunks as it is produced (to HTTP/1.0: unframed, then the
  /// connection closes).
  @Test func streamsLargeAnswersInChunks() throws {
    let piece = [UInt8](repeating: UInt8(ascii: "z"), count: 10_000)
    let server = try RunningServer { _ in
      .stream(contentType: "application/octet-stream") { write in
        for index in 0..<100 {
          try write(piece[...])
          try write(Array("\(index)\n".utf8)[...])
          try write([][...])  // nothing: no chunk
        }
      }
    }
    let client = try server.connect()
    let response = try client.exchange(get("/"))
    #expect(response.headers["Transfer-Encoding"] == "chunked")
    #expect(response.headers["Content-Length"] == nil)
    let expected = (0..<100).flatMap { piece + Array("\($0)\n".utf8) }
    #expect(response.body == expected)
    #expect(response.chunkSizes.count > 2)  // more than one chunk: sent while produced
    #expect(response.chunkSizes.last == 0)
    #expect(!response.chunkSizes.dropLast().contains(0))
    // The connection goes on after the last chunk.
    #expect(try client.exchange(get("/")).body == expected)

    let old = try server.connect()
    old.send("GET / HTTP/1.0\r\n\r\n")
    let oldResponse = try old.readResponse()
    #expect(oldResponse.headers["Transfer-Encoding"] == nil)
    #expect(oldResponse.headers["Connection"] == "close")
    #expect(oldResponse.body == expected)
  }

  /// A producer that fails before sending anything gives a 500; after, the answer is cut off.
  @Test func aFailingStreamIsNeverPassedOffAsComplete() throws {
    struct Failed: Error {}
    let server = try RunningServer { request in
      .stream(contentType: "text/plain") { write in
        if request.path == "/late" { try write([UInt8](repeating: 1, count: 200_000)[...]) }
        throw Failed()
      }
    }
    let early = try server.connect()
    #expect(try early.exchange(get("/early")).status == 500)
    let late = try server.connect()
    late.send(get("/late"))
    #expect(throws: TestClient.Failure.self) { try late.readResponse() }
  }

  /// A client that leaves in the middle of a large stream: the producer's write throws, the
  /// process gets no SIGPIPE, and the server goes on serving.
  @Test func aClientThatLeavesMidStreamHarmsNothing() throws {
    let writesFailed = Atomic<Int>(0)
    let server = try RunningServer { request in
      if request.path == "/small" { return .text("still here") }
      return .stream(contentType: "application/octet-stream") { write in
        let piece = [UInt8](repeating: 7, count: 64 * 1024)
        do {
          for _ in 0..<10_000 { try write(piece[...]) }
        } catch {
          writesFailed.add(1, ordering: .relaxed)
          throw error
        }
      }
    }
    for _ in 0..<3 {
      let client = try server.connect()
      client.send(get("/big"))
      _ = try client.readResponse(head: true)  // the head, then leave
    }
    let deadline = Date().addingTimeInterval(10)
    while writesFailed.load(ordering: .relaxed) < 3 && Date() < deadline { usleep(10_000) }
    #expect(writesFailed.load(ordering: .relaxed) == 3)
    #expect(try server.connect().exchange(get("/small")).text == "still here")
  }

  @Test func sendsContinueBeforeReadingTheBody() throws {
    let server = try RunningServer(handler: echoHandler)
    let client = try server.connect()
    client.send("POST /up HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
    let interim = try client.readResponse(head: true)
    #expect(interim.status == 100)
    client.send("12345")
    #expect(try client.readResponse().text.hasSuffix("body 5 12345"))
    // A body too large is refused at once, without 100.
    let large = try server.connect()
    large.send("POST /up HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 999999999\r\n\r\n")
    #expect(try large.readResponse().status == 413)
  }

  /// Each limit answers its status and closes the connection; the server goes on.
  @Test func holdsRequestsToTheLimits() throws {
    let limits = HTTPServerConfiguration.Limits(
      maxRequestLineBytes: 200, maxHeaderBytes: 1000, maxHeaderCount: 10, maxBodyBytes: 5000)
    let server = try RunningServer(limits: limits, handler: echoHandler)
    let cases: [(String, Int)] = [
      ("GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\r\nHost: h\r\n\r\n", 414),
      ("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "b", count: 1000) + "\r\n\r\n", 431),
      ("GET / HTTP/1.1\r\nHost: h\r\n" + (0..<11).map { "X-\($0): 1\r\n" }.joined() + "\r\n", 431),
      ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5001\r\n\r\n", 413),
      ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1389\r\n", 413),
    ]
    for (request, status) in cases {
      let client = try server.connect()
      let response = try client.exchange(request)
      #expect(response.status == status, "\(request.prefix(40))")
      #expect(response.headers["Connection"] == "close")
      #expect(response.headers["X-Content-Type-Options"] == "nosniff")
      #expect(client.isClosedByServer())
    }
    #expect(try server.connect().exchange(get("/")).status == 200)
  }

  /// A refused body the client keeps sending still gets its answer (the server reads and
  /// drops the rest for a moment before closing, instead of resetting the connection).
  @Test func aClientStillSendingARefusedBodyReadsTheAnswer() throws {
    let limits = HTTPServerConfiguration.Limits(maxBodyBytes: 1000)
    let server = try RunningServer(limits: limits, handler: echoHandler)
    let client = try server.connect()
    client.send("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n")
    for _ in 0..<20 { client.send("100\r\n" + String(repeating: "q", count: 256) + "\r\n") }
    #expect(try client.readResponse().status == 413)
  }

  /// Every malformed request gets 400 (or its own status) and a closed connection; the
  /// server keeps serving.
  @Test(arguments: [
    ("GET / HTTP/1.1\nHost: h\n\n", 400),
    ("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: br\r\n\r\n", 400),
    ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: br, chunked\r\n\r\n", 501),
    ("G\u{1}T / HTTP/1.1\r\nHost: h\r\n\r\n", 400),
    ("GET / HTTP/3.0\r\nHost: h\r\n\r\n", 505),
    ("GET / HTTP/1.1\r\n\r\n", 400),
    ("\u{16}\u{3}\u{1}\u{2}\u{0}\u{1}\u{0}\u{1}\u{FC}\u{3}\u{3}\r\n\r\n", 400),  // a TLS hello
  ])
  func answersMalformedRequestsAndGoesOn(request: String, status: Int) throws {
    let server = try RunningServer(handler: echoHandler)
    let client = try server.connect()
    let response = try client.exchange(request)
    #expect(response.status == status)
    #expect(response.headers["Connection"] == "close")
    #expect(client.isClosedByServer())
    #expect(try server.connect().exchange(get("/")).status == 200)
  }

  /// Slow clients: a head not finished in time is 408 (a slowloris sending a byte at a time
  /// too), a body not finished in time is 408, an idle kept-alive connection is closed quietly.
  @Test func cutsOffSlowClients() throws {
    let limits = HTTPServerConfiguration.Limits(headerTimeout: 0.5, bodyTimeout: 0.5, idleTimeout: 0.5)
    let server = try RunningServer(limits: limits, handler: echoHandler)

    let slowloris = try server.connect()
    let start = Date()
    var answer: TestClient.Response?
    for byte in "GET / HTTP/1.1\r\nHost: h\r\nX-Slow: ".utf8 {
      guard slowloris.send([byte]) else { break }
      usleep(50_000)
      if Date().timeIntervalSince(start) > 1.5 { break }
    }
    answer = try slowloris.readResponse()
    #expect(answer?.status == 408)
    #expect(Date().timeIntervalSince(start) < 2)
    #expect(slowloris.isClosedByServer())

    let slowBody = try server.connect()
    slowBody.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc")
    #expect(try slowBody.readResponse().status == 408)

    let idle = try server.connect()
    #expect(try idle.exchange(get("/")).status == 200)
    let idleStart = Date()
    #expect(idle.isClosedByServer())
    #expect(Date().timeIntervalSince(idleStart) < 2)

    let silent = try server.connect()
    #expect(silent.readToEnd().isEmpty)  // connected, sent nothing: closed without an answer
  }

  @Test func refusesConnectionsOverTheLimit() throws {
    let limits = HTTPServerConfiguration.Limits(maxConnections: 2)
    let server = try RunningServer(limits: limits, handler: echoHandler)
    let first = try server.connect()
    let second = try server.connect()
    #expect(try first.exchange(get("/")).status == 200)
    #expect(try second.exchange(get("/")).status == 200)
    let third = try server.connect()
    #expect(try third.readResponse().status == 503)
    // Once one closes, a new connection is served.
    first.send(get("/", "Connection: close\r\n"))
    _ = try first.readResponse()
    #expect(first.isClosedByServer())
    first.close()
    usleep(200_000)
    #expect(try server.connect().exchange(get("/")).status == 200)
  }

  @Test func handlersCannotSplitAnswersOrFrameThemWrongly() throws {
    let server = try RunningServer { request in
      switch request.path {
      case "/split": return HTTPResponse(status: 200, headers: [(name: "X-A", value: "1\r\nSet-Cookie: evil=1")], body: .bytes([]))
      case "/badname": return HTTPResponse(status: 200, headers: [(name: "X A", value: "1")], body: .bytes([]))
      case "/frame":
        return HTTPResponse(
          status: 200, headers: [(name: "Content-Length", value: "1000"), (name: "Connection", value: "close")], body: .bytes([1, 2]))
      case "/override": return HTTPResponse(status: 200, headers: [(name: "Cache-Control", value: "max-age=60")], body: .bytes([]))
      case "/nocontent": return HTTPResponse(status: 204, headers: [], body: .bytes([1, 2, 3]))
      default: return HTTPResponse(status: 99, headers: [], body: .bytes([]))
      }
    }
    let client = try server.connect()
    let split = try client.exchange(get("/split"))
    #expect(split.status == 500)
    #expect(split.headers["Set-Cookie"] == nil)
    #expect(try client.exchange(get("/badname")).status == 500)
    let framed = try client.exchange(get("/frame"))
    #expect(framed.headers["Content-Length"] == "2")
    #expect(framed.headers["Connection"] == nil)
    let overridden = try client.exchange(get("/override"))
    #expect(overridden.headers.values(for: "Cache-Control") == ["max-age=60"])
    let noContent = try client.exchange(get("/nocontent"))
    #expect(noContent.status == 204)
    #expect(noContent.headers["Content-Length"] == nil)
    #expect(try client.exchange(get("/odd")).status == 500)
  }

  @Test func aTakenPortIsAClearError() throws {
    let first = try RunningServer(handler: echoHandler)
    #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: first.port)) {
      _ = try HTTPServer(configuration: .init(port: first.port), handler: echoHandler)
    }
    let message = HTTPServerError.addressInUse(host: "127.0.0.1", port: first.port).description
    #expect(message == "127.0.0.1:\(first.port) is already in use by another program; choose another port (0 picks a free one)")
  }

  @Test func listensOnLoopbackUnlessToldOtherwise() throws {
    #expect(throws: HTTPServerError.nonLoopbackHost("0.0.0.0")) {
      _ = try HTTPServer(configuration: .init(host: "0.0.0.0", port: 0), handler: echoHandler)
    }
    #expect(throws: HTTPServerError.invalidPort(70_000)) {
      _ = try HTTPServer(configuration: .init(port: 70_000), handler: echoHandler)
    }
    for host in ["127.0.0.1", "localhost", "::1", "[::1]", "127.1.2.3", "::ffff:127.0.0.1"] {
      #expect(HTTPServerConfiguration.isLoopback(host: host), "\(host)")
    }
    for host in ["0.0.0.0", "::", "192.168.1.2", "127.0.0.1.example.com", "128.0.0.1", "127.0.0.256", "example.com", ""] {
      #expect(!HTTPServerConfiguration.isLoopback(host: host), "\(host)")
    }
    // localhost and ::1 bind (::1 where the machine has IPv6).
    let local = try RunningServer(configuration: .init(host: "localhost", port: 0), handler: echoHandler)
    #expect(try local.connect().exchange(get("/")).status == 200)
    #expect(LocalAccessGuard.exposureWarning(host: "127.0.0.1") == nil)
    #expect(LocalAccessGuard.exposureWarning(host: "0.0.0.0")?.contains("other machines") == true)
  }

  /// stop() closes idle connections at once and lets a request being answered finish.
  @Test func stopsGracefully() throws {
    let started = DispatchSemaphore(value: 0)
    let server = try RunningServer { request in
      if request.path == "/slow" {
        started.signal()
        usleep(300_000)
      }
      return .text("done")
    }
    let idle = try server.connect()
    #expect(try idle.exchange(get("/")).status == 200)
    let busy = try server.connect()
    busy.send(get("/slow"))
    #expect(started.wait(timeout: .now() + 5) == .success)
    let stopStart = Date()
    #expect(server.stop())
    #expect(Date().timeIntervalSince(stopStart) < 3)
    let answer = try busy.readResponse()
    #expect(answer.text == "done")
    #expect(answer.headers["Connection"] == "close")
    #expect(idle.isClosedByServer())
    #expect(throws: (any Error).self) { _ = try TestClient(port: server.port) }
    // The port is free again at once.
    let again = try RunningServer(configuration: .init(port: server.port), handler: echoHandler)
    #expect(try again.connect().exchange(get("/")).status == 200)
  }

  /// Many clients at once, each with several requests: every answer is the right one.
  @Test func servesConcurrentClients() throws {
    let server = try RunningServer(handler: echoHandler)
    let failures = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 16) { index in
      do {
        let client = try server.connect()
        for request in 0..<10 {
          let body = "client \(index) request \(request)"
          let response = try client.exchange("POST /c HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
          if !response.text.hasSuffix(body) { failures.add(1, ordering: .relaxed) }
        }
      } catch {
        failures.add(1, ordering: .relaxed)
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
  }

  /// A client that stops reading a large answer is disconnected after the write timeout: the
  /// producer's write throws, and the connection's thread ends.
  @Test func aClientThatStopsReadingIsDisconnected() throws {
    let failed = Atomic<Bool>(false)
    let limits = HTTPServerConfiguration.Limits(writeTimeout: 0.5)
    let server = try RunningServer(limits: limits) { _ in
      .stream(contentType: "application/octet-stream") { write in
        let piece = [UInt8](repeating: 1, count: 1 << 20)
        do {
          for _ in 0..<500 { try write(piece[...]) }
        } catch {
          failed.store(true, ordering: .relaxed)
          throw error
        }
      }
    }
    let client = try server.connect()
    client.send(get("/"))
    let deadline = Date().addingTimeInterval(10)
    while !failed.load(ordering: .relaxed) && Date() < deadline { usleep(20_000) }
    let gaveUp = failed.load(ordering: .relaxed)
    #expect(gaveUp)
  }

  /// stopOnSignals: the signal stops the server as stop() does.
  @Test func aSignalStopsTheServer() throws {
    let server = try HTTPServer(configuration: .init(port: 0), handler: echoHandler)
    server.stopOnSignals([SIGUSR2])
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      server.run()
      finished.signal()
    }
    #expect(try TestClient(port: server.port).exchange(get("/")).status == 200)
    kill(getpid(), SIGUSR2)
    #expect(finished.wait(timeout: .now() + 5) == .success)
    signal(SIGUSR2, SIG_IGN)
  }

  /// A handler that does not end holds up stop() only for the grace period.
  @Test func stopWaitsNoLongerThanTheGracePeriod() throws {
    let started = DispatchSemaphore(value: 0)
    let limits = HTTPServerConfiguration.Limits(shutdownGracePeriod: 0.3)
    let server = try RunningServer(limits: limits) { _ in
      started.signal()
      sleep(3)
      return .text("late")
    }
    let client = try server.connect()
    client.send(get("/"))
    #expect(started.wait(timeout: .now() + 5) == .success)
    let stopStart = Date()
    #expect(server.stop(within: 2))
    #expect(Date().timeIntervalSince(stopStart) < 1.5)
  }
}
