import Foundation
import RealmFormat
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmStorage
import RealmJSON

/// `exec` steps that succeed: the results are checked against Realm's own migration of the same
/// file (the fixture's `after.*`) or against the input objects.
@Suite struct ExecStepTests {
  typealias S = ExecTestSupport

  /// Realm's docs example (fullName, then age as string) with the fullName written by a script.
  func fullNamePlan(_ command: [String]) throws -> MigrationPlan {
    let text = """
      {"schemaVersion": 3,
       "schema": [{"name": "Person", "properties": {"fullName": "string", "age": "string"}}],
       "migrations": [
         {"version": 2, "steps": [
           {"op": "addProperty", "class": "Person", "name": "fullName", "type": "string"},
           \(S.execStep(command)),
           {"op": "removeProperty", "class": "Person", "name": "firstName"},
           {"op": "removeProperty", "class": "Person", "name": "lastName"}]},
         {"version": 3, "steps": [
           {"op": "transform", "class": "Person", "set": {"age": "string(old.age)"}}]}]}
      """
    return try PlanDecoder.decode(Array(text.utf8))
  }

  func expectRealmsResult(_ path: String) throws {
    let diff = try DumpComparison.compareRealm(at: path, withFixture: "\(S.fixture)/after")
    #expect(diff.isEmpty, "\(diff.prefix(5))")
    #expect(try RealmFile.open(path: path).group.check().isEmpty)
  }

  @Test func pythonScriptThenTransformMatchesRealm() throws {
    let (path, dir) = try S.copyOfFixture()
    let command = try S.python(
      """
      import json, sys
      for line in sys.stdin:
          p = json.loads(line)
          p["fullName"] = p["firstName"] + " " + p["lastName"]
          print(json.dumps(p, ensure_ascii=False))
      """, in: dir)
    let result = try Migrator.migrate(path: path, plan: try fullNamePlan(command))
    expectEqual(result.toVersion, 3)
    let person = try #require(result.classes.first { $0.name == "Person" })
    #expect(person.objectsBefore == 1000 && person.objectsAfter == 1000)
    try expectRealmsResult(path)
  }

  @Test(.enabled(if: ExecTestSupport.jqAvailable, "jq is not installed: the jq exec test is skipped"))
  func jqProgramMatchesRealm() throws {
    let (path, _) = try S.copyOfFixture()
    let command = ["jq", "-c", "--unbuffered", ".fullName = .firstName + \" \" + .lastName"]
    _ = try Migrator.migrate(path: path, plan: try fullNamePlan(command))
    try expectRealmsResult(path)
  }

  @Test func partialAnswersKeepTheOtherProperties() throws {
    let (path, dir) = try S.copyOfFixture()
    let before = try S.objects(path)
    let command = try S.python(
      """
      import json, sys
      for line in sys.stdin:
          p = json.loads(line)
          print(json.dumps({"$class": "Person", "$key": p["$key"], "age": p["age"] + 1}))
      """, in: dir)
    _ = try Migrator.migrate(path: path, plan: try S.plan(steps: S.execStep(command)))
    let after = try S.objects(path)
    expectEqual(after.count, before.count)
    for (a, b) in zip(after, before) {
      #expect(a["$key"] == b["$key"] && a["firstName"] == b["firstName"] && a["lastName"] == b["lastName"])
      guard case .int(let x)? = a["age"], case .int(let y)? = b["age"] else {
        Issue.record("age is not an int")
        return
      }
      expectEqual(x, y + 1)
    }
  }

  @Test func whereSendsOnlyMatchingObjectsAndKeepsKeyOrder() throws {
    let (path, dir) = try S.copyOfFixture()
    let before = try S.objects(path)
    let seen = dir.appendingPathComponent("seen.txt")
    // Answers after reading everything (a buffering program), and records what it was given.
    let command = try S.python(
      """
      import json, sys
      objs = [json.loads(l) for l in sys.stdin]
      with open(sys.argv[1], "w") as f:
          f.write(" ".join(str(o["$key"]) for o in objs))
      for o in objs:
          o["lastName"] = o["lastName"].upper()
          sys.stdout.write(json.dumps(o, ensure_ascii=False) + "\\n")
      """, in: dir) + [seen.path]
    _ = try Migrator.migrate(path: path, plan: try S.plan(steps: S.execStep(command, where: "age >= 50")))
    let after = try S.objects(path)
    expectEqual(after.map { $0["$key"] }, before.map { $0["$key"] })
    var expectedKeys: [String] = []
    for (a, b) in zip(after, before) {
      guard case .int(let age)? = b["age"], case .string(let last)? = b["lastName"], case .int(let key)? = b["$key"] else {
        Issue.record("unexpected object \(b)")
        return
      }
      if age >= 50 {
        expectedKeys.append(String(key))
        expectEqual(a["lastName"], .string(last.uppercased()))
      } else {
        expectEqual(a, b)
      }
    }
    try expectEqual(String(contentsOf: seen, encoding: .utf8), expectedKeys.joined(separator: " "))
    #expect(!expectedKeys.isEmpty && expectedKeys.count < before.count)
  }

  @Test func twoExecStepsRunAsAPipelineAndDeletesStillApply() throws {
    let (path, dir) = try S.copyOfFixture()
    let before = try S.objects(path)
    let double = try S.python(
      """
      import json, sys
      for line in sys.stdin:
          p = json.loads(line); p["age"] = p["age"] * 2; print(json.dumps(p, ensure_ascii=False))
      """, in: dir, name: "double.py")
    let plusOne = try S.python(
      """
      import json, sys
      for line in sys.stdin:
          p = json.loads(line); p["age"] = p["age"] + 1; print(json.dumps(p, ensure_ascii=False))
      """, in: dir, name: "plus.py")
    let steps = [
      S.execStep(double), S.execStep(plusOne),
      #"{"op": "deleteObjects", "class": "Person", "where": "age > 100"}"#,
    ].joined(separator: ", ")
    let result = try Migrator.migrate(path: path, plan: try S.plan(steps: steps))
    var expected: [JSONValue] = []
    for b in before {
      guard case .int(let age)? = b["age"], case .object(var members) = b else { continue }
      let newAge = age * 2 + 1
      guard newAge <= 100 else { continue }
      if let i = members.firstIndex(where: { $0.key == "age" }) { members[i].value = .int(newAge) }
      expected.append(.object(members))
    }
    let after = try S.objects(path)
    expectEqual(after, expected)
    let person = try #require(result.classes.first { $0.name == "Person" })
    #expect(person.objectsBefore == before.count && person.objectsAfter == expected.count)
  }

  @Test func sameInputSameFile() throws {
    var files: [Data] = []
    for _ in 0..<2 {
      let (path, dir) = try S.copyOfFixture()
      let command = try S.python(
        """
        import json, sys
        for line in sys.stdin:
            p = json.loads(line); p["firstName"] = p["firstName"][::-1]; print(json.dumps(p))
        """, in: dir)
      _ = try Migrator.migrate(path: path, plan: try S.plan(steps: S.execStep(command, where: "age < 30")))
      files.append(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    expectEqual(files[0], files[1])
  }
}

/// A program that answers every object unchanged leaves every value as it was: every value
/// type, links, embedded objects and mixed values survive the trip through JSON.
@Suite struct ExecRoundTripTests {
  @Test(arguments: ["alltypes", "embedded", "nested-links"])
  func identityProgramChangesNothing(_ fixture: String) throws {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("copy.realm").path
    try FileManager.default.copyItem(at: Fixtures.url("\(fixture)/before.realm"), to: URL(fileURLWithPath: path))
    let schema = try RealmFile.open(path: path).group.schema()
    let command = try ExecTestSupport.python(
      "import json, sys\nfor line in sys.stdin:\n    print(json.dumps(json.loads(line)))\n", in: dir)
    let version = (schema.schemaVersion ?? 0) + 1
    let steps = schema.classes.filter { !$0.isEmbedded }.map {
      ExecTestSupport.execStep(command).replacingOccurrences(of: "\"Person\"", with: "\"\($0.name)\"")
    }
    guard case .object(let doc) = try JSONParser.parse(SchemaJSON.encode(schema)),
      let classes = doc.first(where: { $0.key == "classes" })?.value
    else {
      Issue.record("no classes in the schema JSON")
      return
    }
    var w = JSONWriter(indent: 0)
    w.value(classes)
    let text = """
      {"schemaVersion": \(version), "schema": \(String(decoding: w.buffer, as: UTF8.self)),
       "migrations": [{"version": \(version), "steps": [\(steps.joined(separator: ", "))]}]}
      """
    let before = try RealmDumper.dumpJSONL(path)
    _ = try Migrator.migrate(path: path, plan: try PlanDecoder.decode(Array(text.utf8)))
    let diff = DumpComparison.compareDumps(
      expected: before, actual: try RealmDumper.dumpJSONL(path), schema: try RealmDumper.schemaJSON(path))
    #expect(diff.isEmpty, "\(diff.prefix(5))")
  }
}

/// How often the program runs: once per step, except when objects are deleted after it (the
/// class is then streamed twice: once to find the deleted keys, once to write).
@Suite struct ExecRunCountTests {
  typealias S = ExecTestSupport

  func runs(steps: (_ exec: String) -> [String]) throws -> Int {
    let (path, dir) = try S.copyOfFixture()
    let log = dir.appendingPathComponent("runs.txt")
    let command = try S.python(
      "import sys\nopen(sys.argv[1], 'a').write('run\\n')\nfor line in sys.stdin: sys.stdout.write(line)\n", in: dir)
      + [log.path]
    _ = try Migrator.migrate(path: path, plan: try S.plan(steps: steps(S.execStep(command)).joined(separator: ", ")))
    return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count
  }

  @Test func onceAlone() throws {
    try expectEqual(runs { [$0] }, 1)
  }

  @Test func onceWhenObjectsAreDeletedBefore() throws {
    try expectEqual(runs { [#"{"op": "deleteObjects", "class": "Person", "where": "age < 30"}"#, $0] }, 1)
  }

  @Test func twiceWhenObjectsAreDeletedAfter() throws {
    try expectEqual(runs { [$0, #"{"op": "deleteObjects", "class": "Person", "where": "age < 30"}"#] }, 2)
  }
}

#if os(Linux) || os(macOS)
  /// The program gets stdin, stdout and stderr only: not the realm file, the file being
  /// written, nor any other descriptor of ours.
  @Suite struct ExecDescriptorTests {
    #if os(Linux)
      /// Linux: the entries of /proc/self/fd, less the listing's own descriptor.
      static let listLeaks = """
        for fd in os.listdir("/proc/self/fd"):
            try:
                target = os.readlink("/proc/self/fd/" + fd)
            except OSError:
                continue  # the descriptor of the listing itself, already closed
            if int(fd) > 2 and not target.startswith("/proc/"):
                leaked.append(fd + " -> " + target)
        """
    #else
      /// macOS has no /proc: every descriptor above stderr that fstat finds open.
      static let listLeaks = """
        for fd in range(3, 1024):
            try:
                os.fstat(fd)
            except OSError:
                continue
            leaked.append(str(fd))
        """
    #endif

    @Test func programSeesOnlyItsStandardStreams() throws {
      let (path, dir) = try ExecTestSupport.copyOfFixture()
      let command = try ExecTestSupport.python(
        """
        import os, sys
        leaked = []
        \(Self.listLeaks)
        if leaked:
            print("leaked: " + ", ".join(leaked), file=sys.stderr)
            sys.exit(9)
        for line in sys.stdin:
            sys.stdout.write(line)
        """, in: dir)
      // A descriptor of this process without close-on-exec (as a library or the parent of
      // realmctl may leave one) must not reach the program either.
      #if os(Linux)
        let open = Glibc.open(path, O_RDONLY)
      #else
        let open = Darwin.open(path, O_RDONLY)
      #endif
      #expect(open > 2)
      defer { close(open) }
      _ = try Migrator.migrate(path: path, plan: try ExecTestSupport.plan(steps: ExecTestSupport.execStep(command)))
    }
  }
#endif
