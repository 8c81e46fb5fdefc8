#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

import Foundation
import RealmTestSupport
import Testing

@testable import RealmCLI

/// `realmctl studio`: the command line (in process) and the running server (the built
/// executable, stopped with Ctrl-C as a user stops it).
@Suite struct StudioCommandTests {
  private func run(_ words: [String]) -> (stdout: String, stderr: String, status: Int32) {
    let out = TextOutput.memory()
    let err = TextOutput.memory()
    let status = RealmCtl.run(arguments: words, standardOutput: out, standardError: err)
    return (out.text, err.text, status)
  }

  @Test func usageErrorsNameTheProblem() throws {
    let fixture = Fixtures.url("alltypes/before.realm").path
    let both = run(["studio", fixture, "--open", "--no-open"])
    expectEqual(both.status, 64)
    #expect(both.stderr.contains("'--open' and '--no-open' cannot be used together"))
    expectEqual(run(["studio"]).status, 64)
    expectEqual(run(["studio", fixture, "--port", "-1"]).status, 64)
    let missing = run(["studio", "/nonexistent/app.realm"])
    expectEqual(missing.status, 66)
    #expect(missing.stderr.contains("No such file"))
    expectEqual(run(["studio", fixture, "--key", "12"]).status, 64)
  }

  @Test func theDefaultPortIsFixedThenTheNextFree() {
    expectEqual(StudioCommand.defaultPort, 4780)
    #expect(StudioCommand.isDesktop(["DISPLAY": ":0"]) || StudioCommand.isDesktop([:]))
    // On Linux a desktop is known by DISPLAY or WAYLAND_DISPLAY; macOS always has one.
    #if !canImport(Darwin)
      #expect(!StudioCommand.isDesktop([:]))
      #expect(StudioCommand.isDesktop(["WAYLAND_DISPLAY": "wayland-0"]))
    #endif
  }

  /// The built executable prints the address with its token, answers through the guard, and
  /// stops cleanly on SIGINT (exit 0), leaving the file as it was.
  @Test func servesUntilCtrlC() throws {
    let executable = try #require(EndToEndTests.executable, "build realmctl first (swift build)")
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("app.realm")
    try FileManager.default.copyItem(at: Fixtures.url("alltypes/before.realm"), to: file)
    let before = try Data(contentsOf: file)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["studio", file.path, "--port", "0", "--no-open", "--read-only"]
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = nil
    environment["WAYLAND_DISPLAY"] = nil
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    // The first two lines: what is served, and the address.
    var text = ""
    let deadline = Date().addingTimeInterval(30)
    while text.split(separator: "\n").count < 3 && Date() < deadline {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    let lines = text.split(separator: "\n").map(String.init)
    expectEqual(lines.first, "realmctl studio: 1 file (app.realm), read-only at", "\(text)")
    let address = try #require(lines.dropFirst().first?.trimmingCharacters(in: .whitespaces))
    let match = try #require(address.firstMatch(of: /^http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{20,})$/))
    let port = Int(match.output.1)!
    let token = String(match.output.2)
    expectEqual(lines.dropFirst(2).first, "Press Ctrl-C to stop.")
    // Through the guard: no token, 403; the token, 303 and a cookie; the cookie, the API.
    try expectEqual(httpStatus(port: port, "GET /api/files HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"), 403)
    try expectEqual(httpStatus(port: port, "GET /?token=\(token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"), 303)
    #expect(
      try httpStatus(port: port, "GET /api/files/0 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: access-token-\(port)=\(token)\r\n") == 200)
    process.interrupt()
    process.waitUntilExit()
    expectEqual(process.terminationReason, .exit)
    expectEqual(process.terminationStatus, 0)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(stderr.contains("realmctl studio: stopped"), "\(stderr)")
    try expectEqual(Data(contentsOf: file), before)
  }

  /// The status of one request (`head` without its final blank line) to 127.0.0.1:`port`.
  private func httpStatus(port: Int, _ head: String) throws -> Int {
    let stream = try TCPStream(port: port)
    defer { stream.finish() }
    try stream.write(head + "Connection: close\r\n\r\n")
    let answer = stream.readAll()
    return Int(answer.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}

/// The browser test (`scripts/studio-browser-test.py`): headless Chromium through Selenium on
/// the fixtures and a 100,000-object file, Realm's oracle after each edit. Skipped, with the
/// reason, where Chromium, chromedriver or Selenium are missing (`.ci/run` installs them).
@Suite struct StudioBrowserTests {
  static let script = Snapshot.packageRoot.appendingPathComponent("scripts/studio-browser-test.py")

  /// Why the browser test cannot run here, nil when it can.
  static let unavailable: String? = {
    let fm = FileManager.default
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    func installed(_ names: [String]) -> Bool {
      names.contains { name in path.contains { fm.isExecutableFile(atPath: "\($0)/\(name)") } }
    }
    guard installed(["python3"]) else { return "python3 is not installed: skipped" }
    guard installed(["chromium", "chromium-browser", "google-chrome"]), installed(["chromedriver"]) else {
      return "Chromium or chromedriver is not installed (apt-get install chromium chromium-driver): skipped"
    }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = ["python3", "-c", "import selenium"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    do {
      try probe.run()
      probe.waitUntilExit()
    } catch { return "python3 cannot be started: skipped" }
    return probe.terminationStatus == 0 ? nil : "Python's selenium is not installed (pip install selenium): skipped"
  }()

  @Test(.enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")), .timeLimit(.minutes(5)))
  func theStudioWorksInChromium() throws {
    let executable = try #require(EndToEndTests.executable, "build realmctl first (swift build)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", Self.script.path, "--realmctl", executable.path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    expectEqual(process.terminationStatus, 0, "\(output)")
  }
}

/// A TCP connection to 127.0.0.1 (Foundation has no socket client on Linux).
private final class TCPStream {
  private let fd: Int32

  init(port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var tv = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    let rc = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard rc == 0 else {
      close(fd)
      throw CocoaError(.fileReadUnknown)
    }
  }

  func write(_ text: String) throws {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard n > 0 else { throw CocoaError(.fileWriteUnknown) }
      offset += n
    }
  }

  func readAll() -> String {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16384)
    while true {
      let n = recv(fd, &buffer, buffer.count, 0)
      if n <= 0 { break }
      received += buffer[0..<n]
    }
    return String(decoding: received, as: UTF8.self)
  }

  func finish() { close(fd) }
}
