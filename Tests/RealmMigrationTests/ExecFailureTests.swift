import Foundation
import Testing

/// Every way an `exec` program can fail aborts the migration with a clear error and leaves the
/// file byte-for-byte as it was.
@Suite struct ExecFailureTests {
  typealias S = ExecTestSupport

  struct Case: CustomStringConvertible, Sendable {
    var name: String
    /// The body of a Python script (`objs` is the list of parsed input lines; `out(o)` prints one).
    var script: String
    /// Texts the error message must contain.
    var expected: [String]
    var description: String { name }
  }

  static let prelude = """
    import json, os, signal, sys
    def out(o):
        sys.stdout.write(json.dumps(o, ensure_ascii=False) + "\\n")

    """

  static let cases: [Case] = [
    Case(
      name: "non-zero exit after answering everything",
      script: "for l in sys.stdin: out(json.loads(l))\nsys.stdout.flush()\nsys.exit(3)",
      expected: ["exited with status 3", "migrations[0].steps[0]"]),
    Case(
      name: "non-zero exit before answering (an exception)",
      script: "for l in sys.stdin: raise ValueError('no way')",
      expected: ["exited with status 1"]),
    Case(
      name: "one line missing",
      script: "objs = [json.loads(l) for l in sys.stdin]\nfor o in objs[:-1]: out(o)",
      expected: ["answered 999 object(s)", "before the answer for key 999"]),
    Case(
      name: "exits at once without reading its input",
      script: "sys.exit(0)",
      expected: ["answered 0 object(s)", "before the answer for key 0"]),
    Case(
      name: "one line too many",
      script: "objs = [json.loads(l) for l in sys.stdin]\nfor o in objs + objs[-1:]: out(o)",
      expected: ["wrote more lines than objects it was given", "output line 1001"]),
    Case(
      name: "a wrong key",
      script: "for l in sys.stdin:\n    o = json.loads(l)\n    if o['$key'] == 5: o['$key'] = 12345\n    out(o)",
      expected: ["output line 6", "expected the answer for key 5", "found '$key' 12345"]),
    Case(
      name: "answers out of order",
      script: "objs = [json.loads(l) for l in sys.stdin]\nobjs[1], objs[2] = objs[2], objs[1]\nfor o in objs: out(o)",
      expected: ["output line 2", "expected the answer for key 1", "found '$key' 2"]),
    Case(
      name: "no key",
      script: "for l in sys.stdin:\n    o = json.loads(l)\n    del o['$key']\n    out(o)",
      expected: ["output line 1 has no '$key'"]),
    Case(
      name: "another class",
      script: "for l in sys.stdin:\n    o = json.loads(l)\n    o['$class'] = 'Dog'\n    out(o)",
      expected: ["output line 1", "expected '$class' 'Person', found 'Dog'"]),
    Case(
      name: "invalid JSON",
      script: "for l in sys.stdin:\n    o = json.loads(l)\n    sys.stdout.write('{\"$class\": \"Person\", oops\\n' if o['$key'] == 3 else json.dumps(o) + '\\n')",
      expected: ["output line 4 (the answer for key 3) is not valid JSON"]),
    Case(
      name: "a value of the wrong type",
      script: "for l in sys.stdin:\n    o = json.loads(l)\n    if o['$key'] == 7: o['age'] = 'old'\n    out(o)",
      expected: ["output line 8", "the answer for key 7", "Person.age", "'old'"]),
    Case(
      name: "null for a required property",
      script: "for l in sys.stdin:\n    o = json.loads(l)\n    if o['$key'] == 2: o['firstName'] = None\n    out(o)",
      expected: ["output line 3", "the answer for key 2", "Person.firstName"]),
    Case(
      name: "an unknown property",
      script: "for l in sys.stdin:\n    o = json.loads(l)\n    o['nickname'] = 'x'\n    out(o)",
      expected: ["output line 1", "has no property 'nickname'"]),
    Case(
      name: "killed by a signal",
      script: "sys.stdin.readline()\nos.kill(os.getpid(), signal.SIGKILL)",
      expected: ["was killed by SIGKILL"]),
  ]

  @Test(arguments: cases)
  func failsAndLeavesTheFileUnchanged(_ c: Case) throws {
    let (path, dir) = try S.copyOfFixture()
    let command = try S.python(Self.prelude + c.script, in: dir)
    let (message, unchanged) = try S.failingMigration(try S.plan(steps: S.execStep(command)), path: path)
    #expect(unchanged, "the file must be untouched")
    for text in c.expected { #expect(message.contains(text), "\(message)") }
    #expect(message.contains("'python3 \(command[1])'"), "the message names the command: \(message)")
  }

  @Test func aMissingProgramIsNamed() throws {
    let (path, _) = try S.copyOfFixture()
    let plan = try S.plan(steps: S.execStep(["realmctl-no-such-program", "--fix"]))
    let (message, unchanged) = try S.failingMigration(plan, path: path)
    #expect(unchanged)
    #expect(message.contains("cannot run 'realmctl-no-such-program --fix'"), "\(message)")
    #expect(message.contains("not found"), "\(message)")
  }

  @Test func aFailureInTheSecondClassStepStillLeavesTheFileUnchanged() throws {
    let (path, dir) = try S.copyOfFixture()
    let ok = try S.python(Self.prelude + "for l in sys.stdin: out(json.loads(l))", in: dir, name: "ok.py")
    let bad = try S.python(Self.prelude + "for l in sys.stdin: pass\nsys.exit(2)", in: dir, name: "bad.py")
    let plan = try S.plan(steps: [S.execStep(ok), S.execStep(bad)].joined(separator: ", "))
    let (message, unchanged) = try S.failingMigration(plan, path: path)
    #expect(unchanged)
    #expect(message.contains("bad.py' exited with status 2") && message.contains("migrations[0].steps[1]"), "\(message)")
  }
}

/// Programs given by path: not found, or not executable.
@Suite struct ExecStartFailureTests {
  typealias S = ExecTestSupport

  @Test func aMissingPathIsNamed() throws {
    let (path, _) = try S.copyOfFixture()
    let (message, unchanged) = try S.failingMigration(try S.plan(steps: S.execStep(["./scripts/nope.py"])), path: path)
    #expect(unchanged)
    #expect(message.contains("cannot run './scripts/nope.py': './scripts/nope.py' not found (relative paths"), "\(message)")
  }

  @Test func aFileThatIsNotExecutableIsRefused() throws {
    let (path, dir) = try S.copyOfFixture()
    let script = try S.python("print('hi')\n", in: dir)[1]  // written without the execute bit
    let (message, unchanged) = try S.failingMigration(try S.plan(steps: S.execStep([script])), path: path)
    #expect(unchanged)
    #expect(message.contains("cannot run '\(script)'") && message.contains("permission denied"), "\(message)")
  }
}
