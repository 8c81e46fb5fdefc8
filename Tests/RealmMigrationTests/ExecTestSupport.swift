import Foundation
import RealmTestSupport
@testable import RealmMigration
import RealmJSON

/// Helpers for the `exec` tests: a copy of the 1000-person fixture, scripts in a temporary
/// directory, plans around one `exec` step.
enum ExecTestSupport {
  /// The fixture: Person {firstName, lastName, age: int}, 1000 objects, written by Realm Core.
  static let fixture = "person-fullname-then-string-age"

  /// True when `jq` is on PATH (the jq test is skipped otherwise: a fresh machine has only the
  /// Swift toolchain and python3).
  static let jqAvailable: Bool = {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    return paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/jq") }
  }()

  /// A temporary copy of the fixture's `before.realm`, and its directory.
  static func copyOfFixture() throws -> (path: String, dir: URL) {
    let dir = try Fixtures.temporaryDirectory()
    let dest = dir.appendingPathComponent("people.realm")
    try FileManager.default.copyItem(at: Fixtures.url("\(fixture)/before.realm"), to: dest)
    return (dest.path, dir)
  }

  /// Writes a Python script into `dir` and returns the command that runs it.
  static func python(_ source: String, in dir: URL, name: String = "step.py") throws -> [String] {
    let url = dir.appendingPathComponent(name)
    try source.write(to: url, atomically: true, encoding: .utf8)
    return ["python3", url.path]
  }

  /// A plan at version 2 that keeps Person as it is and runs `steps` (JSON text of the steps).
  static func plan(steps: String, schema: String = personSchema, version: Int = 2) throws -> MigrationPlan {
    let text = """
      {"schemaVersion": \(version), "schema": [\(schema)],
       "migrations": [{"version": 2, "steps": [\(steps)]}]}
      """
    return try PlanDecoder.decode(Array(text.utf8))
  }

  static let personSchema = """
    {"name": "Person", "properties": {"firstName": "string", "lastName": "string", "age": "int"}}
    """

  /// JSON text of an exec step.
  static func execStep(_ command: [String], where filter: String? = nil) -> String {
    let argv = command.map { "\"\($0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\"" }
    var s = "{\"op\": \"exec\", \"class\": \"Person\", \"command\": [\(argv.joined(separator: ", "))]"
    if let filter { s += ", \"where\": \"\(filter)\"" }
    return s + "}"
  }

  /// The dump lines of a file, parsed.
  static func objects(_ path: String) throws -> [JSONValue] {
    let bytes = try RealmDumper.dumpJSONL(path)
    return try bytes.split(separator: 0x0A).map { try JSONParser.parse(Array($0)) }
  }

  /// Migrates a copy of the fixture with `plan`, expecting a failure: returns the error text and
  /// whether the file is byte-for-byte unchanged.
  static func failingMigration(_ plan: MigrationPlan, path: String) throws -> (message: String, unchanged: Bool) {
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    var message = "no error"
    do {
      _ = try Migrator.migrate(path: path, plan: plan)
    } catch {
      message = "\(error)"
    }
    let after = try Data(contentsOf: URL(fileURLWithPath: path))
    return (message, before == after)
  }
}
