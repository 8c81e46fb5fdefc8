import HTTPServer

extension FuzzTarget {
  /// The input is what a client sends on one connection to `realmctl studio`'s HTTP server.
  ///
  /// The request parser (``HTTPRequestDecoder``, with small limits so that every limit is
  /// reached) must give the same requests and the same failure however the bytes are split;
  /// a failure must have one of the parser's statuses; every request must keep the parser's
  /// promises (a token method, a decoded path without `.`/`..` segments or NUL, a body within
  /// the limit, `Host` in HTTP/1.1) and parse again to itself once written back out; and the
  /// access guard must decide on it without letting through a request without the token.
  /// Then the bytes are sent over loopback to a live server of the same limits: it must answer
  /// exactly the requests the parser found (up to the first that closes the connection), each
  /// with the echo of that request, then the parser's failure status, then close.
  public static let http = FuzzTarget(
    name: "http",
    summary: "the bytes a client sends on one connection to the studio's HTTP server (requests, pipelined, malformed)",
    run: { input in
      var problems = HTTPParserChecks.problems(input)
      if problems.isEmpty && input.count <= 64 << 10 { problems += HTTPServerProbe.shared.problems(input) }
      return problems
    },
    seeds: { _ in HTTPParserChecks.seeds })
}
