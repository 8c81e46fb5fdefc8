import Foundation
import RealmJSON
import RealmTestSupport
import Testing

/// `migrate`, `rename-property` and `compact` on files of older formats (issue 7): they read
/// the file through the same API as format 24 and say which format they wrote: format 24 for a
/// file of formats 2-11 (with a warning: the old SDK cannot open it any more), the file's own
/// format for 20-23 (issue 16).
@Suite struct LegacyWriteCommandTests {
  typealias Support = CommandTestSupport

  /// person-v1 in format 9 (Realm Core 5) and format 22 (Realm Core 11's upgrade of it).
  static let sources = [("legacy-core5/person-v1/original.realm", 9), ("legacy-core5/person-v1/upgraded.realm", 22)]

  /// The format written for a file of `format`, and how the reports say it.
  static func written(_ format: Int) -> (format: Int, phrase: String) {
    format < 20 ? (24, "file format \(format) -> 24") : (format, "file format \(format) (kept)")
  }

  /// The warning of a write that leaves the old SDK behind, or "" when the format is kept.
  static func warning(_ format: Int, _ file: String) -> String {
    format < 20
      ? "warning: '\(file)' was file format \(format) and is now file format 24: apps on the Realm SDK that wrote it (Realm Core 6 and older) can no longer open it; formats below 20 cannot be written\n"
      : ""
  }

  /// Realm's answer for the source: the objects every result is compared with.
  static func realmObjects() throws -> [JSONValue] {
    try RealmAnswers("legacy-core5/person-v1").lines
  }

  static let plan = """
    {"schemaVersion": 2, "schema": [{"name": "Person", "primaryKey": "id", "properties":
      {"id": "int", "fullName": "string", "age": "int", "email": "string?"}}],
     "migrations": [{"version": 2, "steps": [
       {"op": "transform", "class": "Person", "set": {"fullName": "old.firstName + ' ' + old.lastName"}}]}]}
    """

  @Test(arguments: sources)
  func migrateWritesTheFormatAndSaysSo(_ source: String, _ format: Int) throws {
    try Support.withCopy(of: source, as: "a.realm") { file, dir in
      let plan = try Support.write(Self.plan, to: dir, as: "plan.json")
      let run = Support.run(["migrate", "--plan", plan, file])
      expectEqual(run.status, 0, "\(run.stderr)")
      let (writtenFormat, phrase) = Self.written(format)
      #expect(run.stdout.hasPrefix("\(file): schema version 1 -> 2, \(phrase), "), "\(run.stdout)")
      expectEqual(run.stderr, Self.warning(format, file))
      expectEqual(RealmAnswerCheck.headerFormat(file), writtenFormat)
      #expect(try Support.problems(file).isEmpty)
      let json = Support.run(["migrate", "--plan", plan, file, "--json"])
      let report = try JSONParser.parse(Array(json.stdout.utf8))
      #expect(report["files"]?[0]?["fromFileFormat"] == .int(Int64(writtenFormat)) && report["files"]?[0]?["method"] == .string("unchanged"))
      expectEqual(report["files"]?[0]?["fileFormatKept"], .bool(true))
      // Every object keeps its key and primary key and gets Realm's values, transformed.
      let dump = try JSONParser.parseLines(Array(Support.run(["dump", file, "--format", "jsonl"]).stdout.utf8))
      let expected = try Self.realmObjects()
      expectEqual(dump.count, expected.count)
      for (new, old) in zip(dump, expected) {
        #expect(new["$key"] == old["$key"] && new["id"] == old["id"] && new["age"] == old["age"] && new["email"] == .null)
        if case .string(let first)? = old["firstName"], case .string(let last)? = old["lastName"] {
          expectEqual(new["fullName"], .string(first + " " + last))
        }
      }
    }
  }

  @Test(arguments: sources)
  func renamePropertyWritesTheFormat(_ source: String, _ format: Int) throws {
    try Support.withCopy(of: source, as: "a.realm") { file, _ in
      let run = Support.run(["rename-property", file, "Person", "age", "years"])
      expectEqual(run.status, 0, "\(run.stderr)")
      expectEqual(run.stdout, "Renamed 'Person.age' to 'Person.years' in \(file) (schema version 1 -> 2, \(Self.written(format).phrase))\n")
      expectEqual(RealmAnswerCheck.headerFormat(file), Self.written(format).format)
      #expect(try Support.problems(file).isEmpty)
      let dump = try JSONParser.parseLines(Array(Support.run(["dump", file, "--format", "jsonl"]).stdout.utf8))
      let expected = try Self.realmObjects()
      expectEqual(dump.count, expected.count)
      for (new, old) in zip(dump, expected) {
        #expect(new["$key"] == old["$key"] && new["years"] == old["age"] && new["firstName"] == old["firstName"])
      }
    }
  }

  @Test(arguments: sources)
  func compactWritesTheFormat(_ source: String, _ format: Int) throws {
    try Support.withCopy(of: source, as: "a.realm") { file, _ in
      let before = try Support.bytes(file).count
      let run = Support.run(["compact", file])
      expectEqual(run.status, 0, "\(run.stderr)")
      let after = try Support.bytes(file).count
      let suffix = format < 20 ? " (file format \(format) -> 24)" : ", file format \(format) (kept)"
      expectEqual(run.stdout, "Compacted \(file): \(before) -> \(after) bytes\(suffix)\n")
      expectEqual(RealmAnswerCheck.headerFormat(file), Self.written(format).format)
      #expect(try Support.problems(file).isEmpty)
      let fixture = Fixtures.url("legacy-core5/person-v1")
      let problems = RealmAnswerCheck.problems(
        realm: file, schema: fixture.appendingPathComponent("schema.json"), dump: fixture.appendingPathComponent("dump.jsonl"))
      #expect(problems.isEmpty, "\(problems)")
    }
  }
}

extension JSONParser {
  /// Parses JSON Lines (blank lines left out).
  static func parseLines(_ bytes: [UInt8]) throws -> [JSONValue] {
    try bytes.split(separator: 0x0A).map { try JSONParser.parse(Array($0)) }
  }
}
