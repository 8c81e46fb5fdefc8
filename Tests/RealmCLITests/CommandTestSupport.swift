import Foundation
import RealmFormat
import RealmJSON
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Helpers for the command tests: `RealmCtl.run` in-process with memory outputs, scratch
/// copies of fixtures, and the checks every written file must pass.
enum CommandTestSupport {
  struct Output {
    var stdout: String
    var stderr: String
    var status: Int32
  }

  /// Runs one command line in-process.
  static func run(_ words: [String]) -> Output {
    let out = TextOutput.memory()
    let err = TextOutput.memory()
    let status = RealmCtl.run(arguments: words, standardOutput: out, standardError: err)
    return Output(stdout: out.text, stderr: err.text, status: status)
  }

  /// A scratch directory, removed by the caller.
  static func directory() throws -> URL { try Fixtures.temporaryDirectory() }

  /// Runs `body` in a fresh scratch directory, removed afterwards.
  static func inScratchDirectory(_ body: (_ dir: URL) throws -> Void) throws {
    let dir = try directory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try body(dir)
  }

  /// Runs `body` with a copy of fixture `relative`, named `name`, in a fresh scratch directory
  /// removed afterwards; `body` gets the copy's path and the directory.
  static func withCopy(
    of relative: String, as name: String, _ body: (_ path: String, _ dir: URL) throws -> Void
  ) throws {
    try inScratchDirectory { dir in try body(try copy(relative, to: dir, as: name), dir) }
  }

  /// Runs `body` with a file named `name` holding `data`, in a fresh scratch directory removed
  /// afterwards; `body` gets the file's path and the directory.
  static func withFile(
    _ data: [UInt8], as name: String, _ body: (_ path: String, _ dir: URL) throws -> Void
  ) throws {
    try inScratchDirectory { dir in
      let path = dir.appendingPathComponent(name).path
      try write(data, to: path)
      try body(path, dir)
    }
  }

  /// Copies fixture `relative` into `dir` as `name` and returns its path.
  @discardableResult
  static func copy(_ relative: String, to dir: URL, as name: String) throws -> String {
    let path = dir.appendingPathComponent(name).path
    try write(try Fixtures.bytes(relative), to: path)
    return path
  }

  /// Writes `text` to `dir/name` and returns its path.
  @discardableResult
  static func write(_ text: String, to dir: URL, as name: String) throws -> String {
    let path = dir.appendingPathComponent(name).path
    try write(Array(text.utf8), to: path)
    return path
  }

  /// Writes with POSIX calls retried on EINTR (child processes deliver SIGCHLD).
  static func write(_ data: [UInt8], to path: String) throws { try TestFiles.write(data, to: path) }

  static func bytes(_ path: String) throws -> [UInt8] { try TestFiles.bytes(path) }

  static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  /// What `open --check` reports for the file (empty when clean): the command's status and
  /// verdict, and the library's problem list it is based on.
  static func problems(_ path: String) throws -> [String] {
    var problems = try RealmFile.open(path: path).group.check().map { "\($0)" }
    let check = run(["open", path, "--check"])
    // `open --check` exits 1 when it finds problems (docs/exit-codes.md).
    if check.status != 0 {
      problems.append("open --check exited \(check.status): \(check.stdout)\(check.stderr)")
    }
    return problems
  }

  /// Expects a list of test cases to hold at least `count` names, `expected` among them.
  static func expectCases(
    _ names: [String], atLeast count: Int, including expected: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(names.count >= count, "\(names.count) cases", sourceLocation: sourceLocation)
    for name in expected {
      #expect(names.contains(name), "\(name)", sourceLocation: sourceLocation)
    }
  }

  /// Runs `body` with the write end of a pipe whose read end is closed, so that writing to it
  /// fails with EPIPE (SIGPIPE is ignored for the whole test process and never restored:
  /// tests run in parallel).
  static func withBrokenPipe(_ body: (_ writeEnd: Int32) throws -> Void) throws {
    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    close(fds[0])
    signal(SIGPIPE, SIG_IGN)
    defer { close(fds[1]) }
    try body(fds[1])
  }

  /// Parses the canonical schema JSON of the file at `path`.
  static func schema(_ path: String) throws -> JSONValue {
    try JSONParser.parse(try RealmDumper.schemaJSON(path))
  }
}

extension JSONValue {
  /// Element `index` of an array, nil otherwise (for reading reports in tests).
  subscript(_ index: Int) -> JSONValue? {
    guard case .array(let items) = self, items.indices.contains(index) else { return nil }
    return items[index]
  }
}
