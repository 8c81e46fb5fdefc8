import RealmTestSupport
import Testing

/// `ProgramRun`, which runs Realm's oracle for the suite: both outputs whole and apart, even
/// when each is larger than a pipe holds, the exit status, a signal, a program that is absent.
@Suite struct ProgramRunTests {
  @Test func bothOutputsComeBackWholeAndApart() throws {
    // 200 KiB on each, interleaved: more than a pipe's buffer, so both must be read together.
    // (`yes` ends by SIGPIPE, which would print an error if the child inherited an ignored one.)
    let run = try ProgramRun.run([
      "/bin/sh", "-c", "for i in 1 2 3 4; do head -c 51200 /dev/zero; yes e | head -c 51200 >&2; done; exit 3",
    ])
    expectEqual(run.status, 3)
    expectEqual(run.output.count, 204_800)
    expectEqual(run.errorOutput.count, 204_800)
    #expect(run.output.allSatisfy { $0 == 0 })
    #expect(run.errorOutput.allSatisfy { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "\n") })
  }

  @Test func standardInputIsEmptyAndASignalIsReported() throws {
    expectEqual(try ProgramRun.run(["/bin/sh", "-c", "wc -c"]).output, Array("0\n".utf8))
    expectEqual(try ProgramRun.run(["/bin/sh", "-c", "kill -9 $$"]).status, 128 + 9)
  }

  @Test func anAbsentProgramIsAnError() {
    #expect(throws: ProgramRun.Failure.self) { try ProgramRun.run(["/nonexistent/program"]) }
  }
}
