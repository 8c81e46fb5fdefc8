import Foundation
import RealmTestSupport
import Testing

@testable import RealmCLI

@Suite struct TerminalTests {
  @Test func columnsPreferTheEnvironmentThenTheWindowThenEighty() {
    expectEqual(Terminal.columns(environment: ["COLUMNS": "120"], windowWidth: 100), 120)
    expectEqual(Terminal.columns(environment: [:], windowWidth: 100), 100)
    expectEqual(Terminal.columns(environment: ["COLUMNS": "wide"], windowWidth: nil), 80)
    expectEqual(Terminal.columns(environment: ["COLUMNS": "0"], windowWidth: nil), 80)
    expectEqual(Terminal.columns(environment: [:], windowWidth: nil), 80)
  }

  @Test func colourOnlyOnATerminalWithoutNoColor() {
    #expect(Terminal.usesColor(stderrIsTerminal: true, environment: [:]))
    #expect(!Terminal.usesColor(stderrIsTerminal: true, environment: ["NO_COLOR": ""]))
    #expect(!Terminal.usesColor(stderrIsTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(!Terminal.usesColor(stderrIsTerminal: false, environment: [:]))
  }

  @Test func aPipeIsNotATerminal() {
    var fds: [Int32] = [0, 0]
    expectEqual(pipe(&fds), 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    #expect(Terminal.windowWidth(fd: fds[1]) == nil)
  }

  @Test func wrapsLikeArgumentParser() {
    expectEqual("aaa bbb ccc".wrapped(to: 8), "aaa bbb\nccc")
    expectEqual("aaa bbb ccc".wrapped(to: 10, indent: 2), "  aaa bbb\n  ccc")
    expectEqual("one\n\ntwo".wrapped(to: 80, indent: 4), "    one\n\n    two")
    expectEqual("averyveryverylongword next".wrapped(to: 10), "averyveryverylongword\nnext")
  }
}
