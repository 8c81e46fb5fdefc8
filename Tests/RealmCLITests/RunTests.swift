import Foundation
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmCLI

/// `RealmCtl.run` in-process: what reaches each output and the exit status.
@Suite struct RunTests {
  private func run(_ words: [String], terminal: Terminal = .plain) -> (
    stdout: String, stderr: String, status: Int32
  ) {
    let out = TextOutput.memory()
    let err = TextOutput.memory()
    let status = RealmCtl.run(
      arguments: words, standardOutput: out, standardError: err, terminal: terminal)
    return (out.text, err.text, status)
  }

  @Test func aMissingInputFileExits66WithOneLine() {
    for words in [
      ["open", "/no/such.realm"], ["schema", "/no/such.realm"], ["dump", "/no/such.realm"],
      ["compact", "/no/such.realm"], ["rename-property", "/no/such.realm", "A", "b", "c"],
      ["migrate", "--plan", "/no/such.realm", "a.realm"],
      ["create", "out.realm", "--schema", "/no/such.realm"],
    ] {
      let output = run(words)
      expectEqual(output.status, 66, "\(words)")
      expectEqual(output.stderr, "Error: No such file: '/no/such.realm'\n", "\(words)")
      #expect(output.stdout.isEmpty)
    }
  }

  @Test func aDirectoryIsNotAnInputFile() throws {
    let directory = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = run(["open", directory.path])
    expectEqual(output.status, 66)
    expectEqual(output.stderr, "Error: '\(directory.path)' is a directory, not a file\n")
  }

  @Test func openSummarisesARealFile() {
    let fixture = Fixtures.url("alltypes/before.realm").path
    let output = run(["open", fixture, "--check"])
    expectEqual(output.status, 0)
    expectEqual(output.stderr, "")
    #expect(output.stdout.contains("File format:     24 (Realm Core 14 and 20, 2024 on: the current SDKs)\n"))
    #expect(output.stdout.contains("\n  AllTypes        600 objects (primary key _id)\n"))
    #expect(output.stdout.contains("EmbeddedThing"))
    #expect(output.stdout.contains("Check:           clean\n"))
  }

  @Test func csvWithoutAClassIsAUsageError() {
    let output = run(["dump", "a.realm", "--format", "csv"])
    expectEqual(output.status, 64)
    #expect(
      output.stderr == """
        Error: The csv format prints one class: add '--class <name>'
        Usage: realmctl dump [<options>] <file>
          See 'realmctl dump --help' for more information.

        """)
  }

  @Test func backupTakesASingleFile() {
    let output = run(["migrate", "--plan", "p.json", "--backup", "b", "x.realm", "y.realm"])
    expectEqual(output.status, 64)
    #expect(
      output.stderr.hasPrefix(
        "Error: '--backup <path>' names one copy, so it takes a single file\n"))
  }

  @Test func colouredErrorsOnlyWhenTheTerminalAllowsIt() {
    let coloured = run(["open", "/no/such.realm"], terminal: Terminal(usesColor: true))
    expectEqual(coloured.stderr, "\u{1B}[1;31mError:\u{1B}[0m No such file: '/no/such.realm'\n")
  }

  @Test func aBrokenPipeEndsQuietlyWithSuccess() throws {
    try CommandTestSupport.withBrokenPipe { fd in
      let err = TextOutput.memory()
      let status = RealmCtl.run(
        arguments: ["--help"], standardOutput: TextOutput(FileDescriptorDestination(fd: fd)),
        standardError: err)
      expectEqual(status, 0)
      #expect(err.text.isEmpty)
    }
  }

  @Test func aFailingStandardOutputIsAnIOError() {
    let err = TextOutput.memory()
    // fd -1 is never open: write(2) fails with EBADF.
    let status = RealmCtl.run(
      arguments: ["--version"], standardOutput: TextOutput(FileDescriptorDestination(fd: -1)),
      standardError: err)
    expectEqual(status, 74)
    #expect(err.text.hasPrefix("Error: Cannot write to file descriptor -1: "))
  }

  @Test func createRefusesToOverwriteAnExistingFile() throws {
    let schema = Fixtures.url("alltypes/schema.json").path
    let existing = Fixtures.url("alltypes/before.realm").path
    let output = run(["create", existing, "--schema", schema])
    expectEqual(output.status, 73)
    #expect(
      output.stderr
        == "Error: '\(existing)' already exists; remove it or choose another output name\n")
  }

  @Test func reportErrorPrintsOneLineAndReturnsTheCode() throws {
    let err = TextOutput.memory()
    let context = CommandContext(
      standardOutput: .memory(), standardError: err, terminal: .plain, environment: [:])
    let code = try context.reportError(RealmCtlError.fileNotFound("b.realm"), subject: "b.realm")
    expectEqual(code, .noInput)
    expectEqual(err.text, "Error: b.realm: No such file: 'b.realm'\n")
  }

  private struct Mystery: Error, CustomStringConvertible {
    var description: String { "something odd" }
  }

  @Test func unknownErrorsAreReportedAsInternal() {
    #expect(
      RealmCtl.errorMessage(for: Mystery()) == "Internal error: something odd; please report it")
    // The storage library's own internal errors say so once.
    #expect(
      RealmCtl.errorMessage(for: StorageError.misuse("a node freed twice"))
        == "Internal error: a node freed twice; please report it")
  }
}
