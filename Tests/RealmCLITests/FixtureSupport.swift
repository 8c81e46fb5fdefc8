import Foundation
import RealmCLI
import RealmJSON
import RealmTestBytes
import RealmTestSupport

/// One in-process run of `realmctl` with memory outputs.
struct CommandRun {
  /// The exit status.
  var status: Int32
  /// Standard output, as bytes.
  var output: [UInt8]
  /// Standard error, as text.
  var errors: String

  /// Standard output as text.
  var text: String { String(decoding: output, as: UTF8.self) }

  /// Runs `arguments` (the words after `realmctl`) with `terminal`.
  init(_ arguments: [String], terminal: Terminal = .plain, environment: [String: String] = [:]) {
    let out = MemoryDestination()
    let err = TextOutput.memory()
    status = RealmCtl.run(
      arguments: arguments, standardOutput: TextOutput(out), standardError: err, environment: environment,
      terminal: terminal)
    output = out.bytes
    errors = err.text
  }
}

/// A Realm file among the fixtures with Realm's own schema and dump for it.
struct AnsweredFixture: CustomStringConvertible, Sendable {
  /// The Realm file, below the fixtures root of `location`.
  var realm: String
  /// Realm's `schema.json` for it.
  var schema: String
  /// Realm's `dump.jsonl` for it.
  var dump: String
  /// `Tests/Fixtures`, or `../shared/fixtures` for Realm Core's samples.
  var location: FixtureLocation = .committed
  var description: String { realm }

  /// True for realm-core samples: Realm answered after upgrading its copy to format 24, so
  /// the `fileFormat` of its schema is the upgraded one, not the file's.
  var upgradedByRealm: Bool { realm.hasPrefix("\(SharedFixtures.realmCoreSamples)/") }

  /// The file system path of the Realm file.
  func path() throws -> String { try location.path(realm) }

  /// Every committed reading case: `before.realm` of every case, the `after.realm` /
  /// `copy.realm` of migration cases, the steps of `user-tutorial`.
  static let all: [AnsweredFixture] = {
    let fm = FileManager.default
    let root = Fixtures.root.path
    func exists(_ path: String) -> Bool { fm.fileExists(atPath: root + "/" + path) }
    func listing(_ dir: String) -> [String] {
      ((try? fm.contentsOfDirectory(atPath: root + "/" + dir)) ?? []).sorted()
    }
    var out: [AnsweredFixture] = []
    for dir in listing("") {
      if exists("\(dir)/before.realm") && exists("\(dir)/dump.jsonl") {
        out.append(AnsweredFixture(realm: "\(dir)/before.realm", schema: "\(dir)/schema.json", dump: "\(dir)/dump.jsonl"))
      }
      for prefix in ["after", "copy"] where exists("\(dir)/\(prefix).realm") {
        out.append(AnsweredFixture(
          realm: "\(dir)/\(prefix).realm", schema: "\(dir)/\(prefix).schema.json",
          dump: "\(dir)/\(prefix).dump.jsonl"))
      }
      for step in listing("\(dir)/steps") where exists("\(dir)/steps/\(step)/after.realm") {
        let d = "\(dir)/steps/\(step)"
        out.append(AnsweredFixture(realm: "\(d)/after.realm", schema: "\(d)/after.schema.json", dump: "\(d)/after.dump.jsonl"))
      }
    }
    return out
  }()

  /// Every realm-core sample with Realm's answers (`../shared`; empty when it is absent).
  static let realmCoreSamples = FixturePair.realmCoreSamples.map { answers in
    let sample = (answers.dump as NSString).deletingLastPathComponent
    return AnsweredFixture(realm: "\(sample)/original.realm", schema: answers.schema, dump: answers.dump, location: .shared)
  }

  /// The file format the sample's `info.txt` says the file has (`selected=22`), for samples.
  var selectedFormat: Int? {
    let info = (realm as NSString).deletingLastPathComponent + "/info.txt"
    guard let text = try? String(contentsOf: location.url(info), encoding: .utf8),
      let range = text.range(of: "selected=")
    else { return nil }
    return Int(text[range.upperBound...].prefix { $0.isNumber })
  }
}

/// Realm's answers for a fixture directory, parsed.
struct RealmAnswers {
  /// `schema.json`.
  var schema: JSONValue
  /// `dump.jsonl`, one value per line.
  var lines: [JSONValue]

  /// Reads `<dir>/<prefix>schema.json` and `<dir>/<prefix>dump.jsonl`.
  init(_ dir: String, prefix: String = "") throws {
    schema = try JSONParser.parse(try Fixtures.bytes("\(dir)/\(prefix)schema.json"))
    var problems: [String] = []
    lines = DumpComparison.parseLines(try Fixtures.bytes("\(dir)/\(prefix)dump.jsonl"), name: dir, problems: &problems)
  }

  /// The schema document's classes.
  var classes: [JSONValue] {
    guard case .array(let classes)? = schema["classes"] else { return [] }
    return classes
  }

  /// The dump lines of class `name`.
  func lines(of name: String) -> [JSONValue] { lines.filter { $0["$class"] == .string(name) } }

  /// Compares dump output with `expected` lines by meaning.
  func compare(_ output: [UInt8], with expected: [JSONValue]) -> [String] {
    var problems: [String] = []
    let actual = DumpComparison.parseLines(output, name: "output", problems: &problems)
    return problems + DumpComparison.compareDumps(expected: expected, actual: actual, schema: schema)
  }
}

/// The path of a fixture file.
func fixturePath(_ relative: String) -> String { Fixtures.url(relative).path }

/// Realm's answers to queries (`Tests/Fixtures/queries/queries.jsonl`).
enum QueryAnswers {
  /// The keys Realm returns for `query` on `className`, nil when the file has no such case.
  static func keys(class className: String, query: String) -> [Int64]? {
    guard let bytes = try? Fixtures.bytes("queries/queries.jsonl") else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      guard let json = try? JSONParser.parse(Array(line.utf8)), json["class"] == .string(className),
        json["where"] == .string(query), case .array(let items)? = json["keys"]
      else { continue }
      return items.compactMap { if case .int(let i) = $0 { return i } else { return nil } }
    }
    return nil
  }
}
