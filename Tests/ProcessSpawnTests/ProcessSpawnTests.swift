import Foundation
import ProcessSpawn
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a program started through `ProcessSpawn` finds: its descriptors, environment, signal
/// dispositions and session, as read by the program itself (`sh`, and `/proc` on Linux).
@Suite struct ProcessSpawnTests {
  static let hasProc = FileManager.default.fileExists(atPath: "/proc/self/status")

  /// Runs `script` with `sh -c`, its stdout into a file, and returns what it wrote and its exit
  /// status.
  static func run(_ script: String, _ configure: (inout ProcessSpawn) -> Void = { _ in }) throws -> (output: String, status: Int32) {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)").path
    defer { unlink(out) }
    var spawn = ProcessSpawn(["/bin/sh", "-c", script], searchingPath: false)
    configure(&spawn)
    spawn.fileActions.insert(.open(1, out, O_WRONLY | O_CREAT | O_TRUNC), at: 0)
    let pid = try spawn.start()
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let output = try String(contentsOfFile: out, encoding: .utf8)
    return (output, (status >> 8) & 0xFF)
  }

  @Test func aMissingProgramIsENOENT() {
    #expect(throws: ProcessSpawn.Failure(code: ENOENT)) {
      try ProcessSpawn(["/nonexistent/program"], searchingPath: false).start()
    }
    #expect(throws: ProcessSpawn.Failure(code: ENOENT)) {
      try ProcessSpawn(["realmctl-no-such-program-\(getpid())"], searchingPath: true).start()
    }
    #expect(ProcessSpawn.Failure(code: ENOENT).description == "no such file or directory")
  }

  @Test func thePathIsSearchedOnlyWhenAsked() throws {
    let found = try Self.run("exit 3") { $0.arguments = ["sh", "-c", "exit 3"]; $0.searchingPath = true }
    #expect(found.status == 3)
    #expect(throws: ProcessSpawn.Failure(code: ENOENT)) { try ProcessSpawn(["sh", "-c", "exit 0"], searchingPath: false).start() }
  }

  @Test func theEnvironmentIsOursUnlessGiven() throws {
    setenv("PROCESS_SPAWN_TEST", "ours", 1)
    defer { unsetenv("PROCESS_SPAWN_TEST") }
    #expect(try Self.run("printf %s \"$PROCESS_SPAWN_TEST\"").output == "ours")
    let given = try Self.run("printf %s \"$PROCESS_SPAWN_TEST.$HOME\"") {
      $0.environment = ["PROCESS_SPAWN_TEST": "given"]
    }
    #expect(given.output == "given.")
  }

  @Test func descriptorsAreDuplicatedInOrder() throws {
    // stdout is the file (the first action); 2 becomes a copy of it, so both lines reach it.
    let result = try Self.run("echo out; echo err >&2") { $0.fileActions = [.duplicate(1, as: 2)] }
    #expect(result.output == "out\nerr\n")
  }

  @Test(.enabled(if: hasProc, "reads /proc"))
  func otherDescriptorsAreClosedWhenAsked() throws {
    // A pipe without close-on-exec, as a library might leave one.
    var fds: [Int32] = [-1, -1]
    #expect(pipe(&fds) == 0)
    defer { fds.forEach { close($0) } }
    let check = "test -e /proc/self/fd/\(fds[0]) && echo open || echo closed"
    #expect(try Self.run(check).output == "open\n")
    #expect(try Self.run(check) { $0.closesOtherDescriptors = true }.output == "closed\n")
    // The standard descriptors stay.
    #expect(try Self.run("test -e /proc/self/fd/2 && echo kept") { $0.closesOtherDescriptors = true }.output == "kept\n")
  }

  @Test(.enabled(if: hasProc, "reads /proc"))
  func signalsStartAtTheirDefaultsWhenAsked() throws {
    // Ignored for good, as realmctl itself does (`RealmCtl.run`): restoring the default while
    // another test writes to a closed pipe would kill the test process.
    signal(SIGPIPE, SIG_IGN)
    // The mask of ignored signals, in hexadecimal: SIGPIPE (13) is bit 12.
    let ignored = "sed -n 's/^SigIgn:[[:space:]]*//p' /proc/self/status"
    func pipeIgnored(_ mask: String) -> Bool {
      (UInt64(mask.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16) ?? 0) & (1 << 12) != 0
    }
    #expect(pipeIgnored(try Self.run(ignored).output))
    #expect(!pipeIgnored(try Self.run(ignored) { $0.defaultSignals = [SIGPIPE] }.output))
  }

  @Test(.enabled(if: hasProc, "reads /proc"))
  func aSessionOfItsOwnWhenAsked() throws {
    // Field 6 of /proc/PID/stat is the session; the shell's own pid is $$.
    let session = "set -- $(sed 's/.*) //' /proc/$$/stat); echo \"$4 $$\""
    func leads(_ line: String) -> Bool {
      let parts = line.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      return parts.count == 2 && parts[0] == parts[1]
    }
    #expect(!leads(try Self.run(session).output))
    #expect(leads(try Self.run(session) { $0.startsSession = true }.output))
  }
}
