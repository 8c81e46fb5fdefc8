import Foundation
import RealmJSON
import RealmMigration
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI
import RealmEdit

/// The shell's editing statements and transactions: every statement equals the command it
/// stands for, `ROLLBACK` and a failing statement leave the file byte for byte as it was at
/// `BEGIN`, and a `COMMIT` killed with SIGKILL at every write leaves the old or the new file.
@Suite(.serialized) struct ShellEditTests {
  typealias T = CommandTestSupport
  typealias E = EditCommandTests

  static let fileEnvironment = "REALMCTL_TEST_SHELL_COMMIT_FILE"
  static let pointEnvironment = "REALMCTL_TEST_SHELL_COMMIT_AT"

  /// Runs `lines` in a session on `path` (as the pipe mode does).
  static func script(
    _ lines: [String], on path: String, faultBeforeCommit: (@Sendable (FaultPoint) -> FaultAction)? = nil
  ) throws -> (stdout: String, stderr: String, status: ExitCode) {
    let out = TextOutput.memory()
    let err = TextOutput.memory()
    let context = CommandContext(standardOutput: out, standardError: err, terminal: .plain, environment: [:])
    let session = try ShellSession(path: path, file: try RealmInput.open(path), context: context, mode: .jsonl, limit: nil)
    var remaining = lines[...]
    var source = ShellCommand.LineSource {
      guard let line = remaining.popFirst() else { return nil }
      if line == "COMMIT", let faultBeforeCommit { session.faultInjection = faultBeforeCommit }
      return line
    }
    let status = try ShellCommand.runScript(session, lines: &source, bail: false)
    return (out.text, err.text, status)
  }

  /// The statements of the transaction tests and the objects they leave (from Realm's dump).
  static let statements = [
    "BEGIN",
    #"INSERT {"$class":"User","name":"Zed","age":3}"#,
    "UPDATE User SET age = old.age + 100, name = upper(old.name) WHERE age < 10",
    "DELETE FROM User WHERE age > 90 AND age < 100",
  ]

  static func expectedAfterStatements() throws -> [JSONValue] {
    var users = try E.fixtureDump("user-tutorial")
    users.append(try JSONParser.parse(#"{"$class":"User","$key":100,"name":"Zed","age":3}"#))
    return users.compactMap { o -> JSONValue? in
      guard case .int(let age)? = o["age"], case .string(let name)? = o["name"] else { return o }
      if age > 90 && age < 100 { return nil }
      if age < 10 { return E.replacing(E.replacing(o, "age", with: .int(age + 100)), "name", with: .string(name.uppercased())) }
      return o
    }
  }

  @Test func committedStatementsEqualTheExpectedObjects() throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, dir in
      let before = try T.bytes(file)
      var seen: [UInt8] = []
      // Before COMMIT the realm is untouched; queries see the pending changes.
      let pending = try Self.script(Self.statements + [".count User WHERE name == 'Zed' OR name == 'ZED'"], on: file)
      seen = try T.bytes(file)
      #expect(pending.stdout.hasSuffix("1\n"), "\(pending.stdout)")
      expectEqual(seen, before)
      #expect(pending.stderr.contains("the open transaction was rolled back"))
      let r = try Self.script(Self.statements + ["COMMIT"], on: file)
      expectEqual(r.status, .success, "\(r.stderr)")
      try E.expectFile(file, equals: try Self.expectedAfterStatements(), schema: "user-tutorial")
      let stray = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".realmctl-") }
      #expect(stray.isEmpty, "\(stray)")
    }
  }

  @Test func eachStatementOutsideATransactionIsCommittedOnItsOwn() throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, _ in
      let r = try Self.script(Array(Self.statements.dropFirst()) + ["UPDATE User SET age = 'x'"], on: file)
      expectEqual(r.status, .dataError)
      // A string literal never fits an int: refused when the statement is checked (issue 28).
      #expect(
        r.stderr.contains("line 4: set age: 'age' holds values of type 'int', but the expression gives values of type 'string'; convert them: int('x')"),
        "\(r.stderr)")
      try E.expectFile(file, equals: try Self.expectedAfterStatements(), schema: "user-tutorial")
    }
  }

  @Test func rollbackLeavesTheFileAsItWasAtBegin() throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, _ in
      let before = try T.bytes(file)
      let r = try Self.script(Self.statements + ["ROLLBACK", ".count User"], on: file)
      expectEqual(r.status, .success, "\(r.stderr)")
      #expect(r.stdout.hasSuffix("ROLLBACK: \(file) is as it was at BEGIN\n100\n"), "\(r.stdout)")
      #expect(TestFiles.same(try T.bytes(file), before))
    }
  }

  @Test func aFailingStatementRollsTheTransactionBack() throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, _ in
      let before = try T.bytes(file)
      let r = try Self.script(Self.statements + [#"INSERT {"$class":"User","name":5}"#, "COMMIT", ".count User"], on: file)
      expectEqual(r.status, .dataError)
      #expect(r.stderr.contains("line 5:") && r.stderr.contains("(the transaction was rolled back: the file is as it was at BEGIN)"), "\(r.stderr)")
      #expect(r.stderr.contains("line 6: no transaction is open"))
      #expect(r.stdout.hasSuffix("100\n"))
      #expect(TestFiles.same(try T.bytes(file), before))
    }
  }

  @Test func importReadsCSVAndJSONLinesInAndOutOfATransaction() throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, dir in
      let csv = try T.write("name,age\nZed,3\nYves,4\n", to: dir, as: "more.csv")
      let jsonl = try T.write(#"{"$class":"User","name":"Xia","age":5}"# + "\n", to: dir, as: "more.jsonl")
      // In a transaction the imports are pending until COMMIT; ROLLBACK drops them.
      let before = try T.bytes(file)
      let rolled = try Self.script(["BEGIN", ".import \(csv) User", ".import \(jsonl)", ".count User", "ROLLBACK", ".count User"], on: file)
      expectEqual(rolled.status, .success, "\(rolled.stderr)")
      #expect(rolled.stdout.contains("103\n"), "\(rolled.stdout)")
      #expect(rolled.stdout.hasSuffix("100\n"), "\(rolled.stdout)")
      #expect(TestFiles.same(try T.bytes(file), before))
      // Outside one, each import is committed on its own, as `insert` writes it.
      let r = try Self.script([".import \(csv) User", ".import \(jsonl)"], on: file)
      expectEqual(r.status, .success, "\(r.stderr)")
      var users = try E.fixtureDump("user-tutorial")
      users.append(try JSONParser.parse(#"{"$class":"User","$key":100,"name":"Zed","age":3}"#))
      users.append(try JSONParser.parse(#"{"$class":"User","$key":101,"name":"Yves","age":4}"#))
      users.append(try JSONParser.parse(#"{"$class":"User","$key":102,"name":"Xia","age":5}"#))
      try E.expectFile(file, equals: users, schema: "user-tutorial")
    }
  }

  @Test func importNeedsTheClassOfCSVRowsOnly() throws {
    try T.inScratchDirectory { dir in
      let csv = try T.write("name,age\nZed,3\n", to: dir, as: "more.csv")
      let jsonl = try T.write("{}\n", to: dir, as: "more.jsonl")
      try expectEqual(ShellSession.importStatement([csv, "User"]), .importFile(path: csv, className: "User", upsert: false, csv: true))
      try expectEqual(ShellSession.importStatement(["--upsert", jsonl]), .importFile(path: jsonl, className: nil, upsert: true, csv: false))
      #expect(throws: UsageError.self) { try ShellSession.importStatement([csv]) }
      #expect(throws: UsageError.self) { try ShellSession.importStatement([jsonl, "User"]) }
      #expect(throws: UsageError.self) { try ShellSession.importStatement(["--csvv", csv, "User"]) }
    }
  }

  @Test func statementsParse() throws {
    typealias S = ShellSession.Statement
    #expect(try S.parse("update Person set a = f(1, 2), b = 'x, WHERE y' where name == 'a WHERE b'")
      == .update(
        className: "Person",
        assignments: [.init(property: "a", expression: "f(1, 2)"), .init(property: "b", expression: "'x, WHERE y'")],
        query: "name == 'a WHERE b'"))
    try expectEqual(S.parse("DELETE FROM Person"), .delete(className: "Person", query: nil))
    try expectEqual(S.parse(#"UPSERT INTO Person {"a":1}"#), .insert(json: #"{"a":1}"#, className: "Person", upsert: true))
    #expect(try S.parse("Person WHERE age > 3") == nil)
    #expect(try S.parse("Update WHERE x > 1") == nil)  // a query of a class called Update
    #expect(throws: UsageError.self) { try S.parse("DELETE Person") }
    #expect(throws: UsageError.self) { try S.parse("UPDATE Person age = 1") }
  }

  // MARK: - kill -9 during COMMIT

  @Test(.enabled(if: ProcessInfo.processInfo.environment[fileEnvironment] != nil, SkipReason.childProcessOnly))
  func shellCommitInChildProcess() throws {
    let env = ProcessInfo.processInfo.environment
    let path = try #require(env[Self.fileEnvironment])
    let hook = try #require(ChildTestRun.killHook(at: env[Self.pointEnvironment]))
    _ = try Self.script(Self.statements + ["COMMIT"], on: path, faultBeforeCommit: hook)
  }

  @Test func aCommitKilledAtEveryWriteLeavesTheOldOrTheNewFile() throws {
    try T.inScratchDirectory { dir in
      // The reference: the old file, and the new one with the fault points of its COMMIT.
      let reference = try T.copy("user-tutorial/before.realm", to: dir, as: "reference.realm")
      let oldBytes = try T.bytes(reference)
      let recorder = FaultPointRecorder()
      let r = try Self.script(Self.statements + ["COMMIT"], on: reference, faultBeforeCommit: recorder.hook)
      expectEqual(r.status, .success, "\(r.stderr)")
      let newBytes = try T.bytes(reference)
      let all = recorder.points
      try #require(all.count >= 4, "the commit has fault points")
      var sawOld = false
      var sawNew = false
      // Every kind of point of the commit (FaultPointSweep); every point in the full sweep.
      for point in FaultPointSweep.choose(all, full: { all }) {
        let crashDir = dir.appendingPathComponent("crash-\(point.index)-\(point.isBefore)")
        try FileManager.default.createDirectory(at: crashDir, withIntermediateDirectories: true)
        let path = crashDir.appendingPathComponent("a.realm").path
        try T.write(oldBytes, to: path)
        let process = try ChildTestRun.run(
          "shellCommitInChildProcess",
          environment: [Self.fileEnvironment: path, Self.pointEnvironment: ChildTestRun.environmentValue(of: point)])
        #expect(ChildTestRun.wasKilled(process), "not killed at \(point)")
        let after = try T.bytes(path)
        let isOld = TestFiles.same(after, oldBytes)
        let isNew = TestFiles.same(after, newBytes)
        #expect(isOld || isNew, "killed at \(point): neither the old nor the new file")
        if isOld { sawOld = true }
        if isNew { sawNew = true }
        // The next transaction removes what the killed one left (its working copy, the
        // temporary file of the replacement).
        _ = try Self.script(["BEGIN", "ROLLBACK"], on: path)
        let stray = try FileManager.default.contentsOfDirectory(atPath: crashDir.path).filter { $0.contains(".realmctl-") }
        #expect(stray.isEmpty, "killed at \(point): \(stray) left")
      }
      #expect(sawOld && sawNew)
    }
  }

}
