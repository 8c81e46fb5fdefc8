import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// Issue 28: a dry run that passes means the real run passes. For each command that computes
/// values under `--dry-run` (`migrate`, `update`, `insert`), a value error in the middle of a
/// class (object 567 of person-add-email's 1000 Person objects, the first whose age is 79, so
/// `100 / (old.age - 79)` divides by zero there and nowhere before) fails the dry run and the
/// real run alike: same exit code, same message, and the file byte for byte as it was, free
/// space included. The message names the object once.
@Suite struct DryRunAgreementTests {
  typealias T = CommandTestSupport
  static let people = "person-add-email/before.realm"
  static let person = #"{"name": "Person", "properties": {"firstName": "string", "lastName": "string", "age": "int"}}"#

  /// A plan taking Person from version 1 to 2 with `steps`.
  static func plan(_ steps: String, in dir: URL, schema: String = person) throws -> String {
    let text = #"{"schemaVersion": 2, "schema": [\#(schema)], "migrations": [{"version": 2, "steps": [\#(steps)]}]}"#
    return try T.write(text, to: dir, as: "plan.json")
  }

  /// Runs `words` with `--dry-run`, then without it: both fail with exit code 65 and the same
  /// message, and the file never changes. Returns the message.
  @discardableResult
  static func expectDryRunAgrees(_ words: [String], file: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    let before = try T.bytes(file)
    let dry = T.run(words + ["--dry-run"])
    #expect(TestFiles.same(try T.bytes(file), before), "the dry run changed the file", sourceLocation: sourceLocation)
    let real = T.run(words)
    expectEqual(dry.status, 65, "dry run: \(dry.stdout)\(dry.stderr)", sourceLocation: sourceLocation)
    expectEqual(real.status, dry.status, "real run: \(real.stdout)\(real.stderr)", sourceLocation: sourceLocation)
    expectEqual(real.stderr, dry.stderr, sourceLocation: sourceLocation)
    #expect(TestFiles.same(try T.bytes(file), before), "the failed real run changed the file", sourceLocation: sourceLocation)
    #expect(try T.problems(file).isEmpty, sourceLocation: sourceLocation)
    return real.stderr
  }

  static let divideByZero = #"{"op": "transform", "class": "Person", "set": {"age": "100 / (old.age - 79)"}}"#

  /// The one location of the failing object: its key once, never "object 567" beside it.
  static func expectOneLocation(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(message.contains("object with key 567: division by zero"), "\(message)", sourceLocation: sourceLocation)
    expectEqual(message.components(separatedBy: "567").count, 2, "\(message)", sourceLocation: sourceLocation)
  }

  @Test func migrateInPlaceColumnWise() throws {
    try T.withCopy(of: Self.people, as: "a.realm") { file, dir in
      let plan = try Self.plan(Self.divideByZero, in: dir)
      let message = try Self.expectDryRunAgrees(["migrate", "--plan", plan, file], file: file)
      Self.expectOneLocation(message)
      // The JSON report of the dry run says the file fails, with the same exit code.
      let json = try JSONParser.parse(T.run(["migrate", "--plan", plan, file, "--dry-run", "--json"]).stdout)
      expectEqual(json["files"]?[0]?["ok"], .bool(false))
      expectEqual(json["files"]?[0]?["exitCode"], .int(65))
    }
  }

  @Test func migrateRewrite() throws {
    // A deleteObjects step sends the plan down the rewrite path.
    try T.withCopy(of: Self.people, as: "a.realm") { file, dir in
      let steps = #"{"op": "deleteObjects", "class": "Person", "where": "age == 1000"}, "# + Self.divideByZero
      let plan = try Self.plan(steps, in: dir)
      Self.expectOneLocation(try Self.expectDryRunAgrees(["migrate", "--plan", plan, file], file: file))
    }
  }

  @Test func migrateWithBackupLeavesNoBackupWhenItFails() throws {
    try T.withCopy(of: Self.people, as: "a.realm") { file, dir in
      let plan = try Self.plan(Self.divideByZero, in: dir)
      let backup = dir.appendingPathComponent("a.bak").path
      try Self.expectDryRunAgrees(["migrate", "--plan", plan, file, "--backup", backup], file: file)
      #expect(!T.exists(backup))
    }
  }

  @Test func updateInPlaceColumnWise() throws {
    try T.withCopy(of: Self.people, as: "a.realm") { file, _ in
      let message = try Self.expectDryRunAgrees(
        ["update", file, "--class", "Person", "--set", "age = 100 / (old.age - 79)"], file: file)
      Self.expectOneLocation(message)
    }
  }

  @Test func updateWithWhere() throws {
    try T.withCopy(of: Self.people, as: "a.realm") { file, _ in
      let message = try Self.expectDryRunAgrees(
        ["update", file, "--class", "Person", "--set", "age = 100 / (old.age - 79)", "--where", "age > 50"], file: file)
      Self.expectOneLocation(message)
    }
  }

  /// A Mixed property is written by the rewrite (the column path computes no mixed values):
  /// object 7 of AllTypes is the first whose int_req is 93.
  @Test func updateRewrite() throws {
    try T.withCopy(of: "alltypes/before.realm", as: "a.realm") { file, dir in
      let backup = dir.appendingPathComponent("a.bak").path
      let message = try Self.expectDryRunAgrees(
        ["update", file, "--class", "AllTypes", "--set", "mixed_val = 100 / (old.int_req - 93)", "--backup", backup], file: file)
      #expect(message.contains("object with key 7: division by zero"), "\(message)")
      expectEqual(message.components(separatedBy: "7").count, 2, "\(message)")
      #expect(!T.exists(backup))
      // Without the error, the same update takes the rewrite path.
      let ok = T.run(["update", file, "--class", "AllTypes", "--set", "mixed_val = old.int_req", "--json"])
      expectEqual(ok.status, 0, "\(ok.stderr)")
      let report = try JSONParser.parse(ok.stdout)
      expectEqual(report["path"], .string("rewrite"), "\(ok.stdout)")
    }
  }

  /// The wild file of the issue (a glucose tracker, format 23): a plan putting a string into
  /// the float `glucose` is refused when checked; `int(old.timestamp)` fails on the first
  /// object, in the dry run as in the real run, naming it once.
  @Test(SharedFixtures.enabled) func theGlucoseTrackerOfTheIssue() throws {
    let wild = try #require(SharedFixtures.url("wild/files/fb4a8a8cc0f66782.realm"))
    try T.inScratchDirectory { dir in
      let file = dir.appendingPathComponent("glucose.realm").path
      try FileManager.default.copyItem(atPath: wild.path, toPath: file)
      // The plan's schema is the file's own (a plan names the complete target schema).
      let schema = try JSONSerialization.jsonObject(with: Data(T.run(["schema", "--format", "json", file]).stdout.utf8)) as? [String: Any]
      let classes = try #require(schema?["classes"])
      let step: [String: Any] = ["op": "transform", "class": "GlucoseInfo", "set": ["glucose": "old.timestamp"]]
      let planObject: [String: Any] = ["schemaVersion": 1, "schema": classes, "migrations": [["version": 1, "steps": [step]]]]
      let text = String(decoding: try JSONSerialization.data(withJSONObject: planObject), as: UTF8.self)
      let plan = try T.write(text, to: dir, as: "plan.json")
      let refused = try Self.expectDryRunAgrees(["migrate", "--plan", plan, file], file: file)
      #expect(refused.contains("'glucose' holds values of type 'float', but the expression gives values of type 'string'"), "\(refused)")
      #expect(!refused.contains("object with key"), "\(refused)")
      let failed = try Self.expectDryRunAgrees(["update", file, "--class", "GlucoseInfo", "--set", "glucose = int(old.timestamp)"], file: file)
      #expect(failed.contains("object with key 4:"), "\(failed)")
      #expect(!failed.contains("object 4"), "\(failed)")
      expectEqual(failed.components(separatedBy: "key 4").count, 2, "\(failed)")
    }
  }

  @Test func insertAppendWithAnExistingPrimaryKeyInTheMiddle() throws {
    try T.withCopy(of: "embedded/before.realm", as: "a.realm") { file, dir in
      var lines: [String] = []
      for i in 0..<200 {
        // Line 101 takes the primary key of the file's first Contact.
        let id = i == 100 ? "650000000000000000000000" : String(format: "66%022x", i)
        lines.append(#"{"$class": "Contact", "_id": {"$oid": "\#(id)"}, "name": "n\#(i)", "address": null, "phones": [], "previous": [], "byLabel": {}}"#)
      }
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "data.jsonl")
      let message = try Self.expectDryRunAgrees(["insert", file, data], file: file)
      #expect(message.contains("line 101: Contact._id: an object of 'Contact' with primary key '650000000000000000000000' already exists"), "\(message)")
    }
  }

  /// The upsert path: line 101 of 200 puts a number into a string property.
  @Test func insertUpsertWithAWrongTypeInTheMiddle() throws {
    try T.withCopy(of: "embedded/before.realm", as: "a.realm") { file, dir in
      var lines: [String] = []
      for i in 0..<200 {
        let id = i == 0 ? "650000000000000000000000" : String(format: "66%022x", i)
        let name = i == 100 ? "5" : "\"n\(i)\""
        lines.append(#"{"$class": "Contact", "_id": {"$oid": "\#(id)"}, "name": \#(name), "address": null, "phones": [], "previous": [], "byLabel": {}}"#)
      }
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "data.jsonl")
      let message = try Self.expectDryRunAgrees(["insert", file, data, "--upsert"], file: file)
      #expect(message.contains("line 101"), "\(message)")
      #expect(message.contains("name"), "\(message)")
    }
  }

  // MARK: - Refused when checked, before any object is read

  @Test func aStringIntoAnIntIsRefusedWhenTheSetIsChecked() throws {
    try T.withCopy(of: Self.people, as: "a.realm") { file, dir in
      let message = try Self.expectDryRunAgrees(["update", file, "--class", "Person", "--set", "age = old.firstName"], file: file)
      #expect(message.contains("'age' holds values of type 'int', but the expression gives values of type 'string'; convert them: int(old.firstName)"), "\(message)")
      #expect(!message.contains("object with key"), "\(message)")
      let plan = try Self.plan(#"{"op": "transform", "class": "Person", "set": {"age": "old.lastName"}}"#, in: dir)
      let planMessage = try Self.expectDryRunAgrees(["migrate", "--plan", plan, file], file: file)
      #expect(planMessage.contains("'age' holds values of type 'int', but the expression gives values of type 'string'"), "\(planMessage)")
      #expect(!planMessage.contains("object with key"), "\(planMessage)")
    }
  }

  // MARK: - A rename step explains itself

  @Test func aTransformNamingARenamedPropertySaysWhichStepRenamedIt() throws {
    try T.withCopy(of: Self.people, as: "a.realm") { file, dir in
      let schema = #"{"name": "Person", "properties": {"firstName": "string", "lastName": "string", "years": "int"}}"#
      let steps = #"{"op": "renameProperty", "class": "Person", "from": "age", "to": "years"}, "#
        + #"{"op": "transform", "class": "Person", "set": {"years": "old.age + 1"}}"#
      let plan = try Self.plan(steps, in: dir, schema: schema)
      let message = try Self.expectDryRunAgrees(["migrate", "--plan", plan, file], file: file)
      #expect(message.contains("'Person.age' was renamed to 'years' by migrations[0].steps[0]; write 'old.years'"), "\(message)")
    }
  }
}
