import Foundation
import RealmFormat
import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmStorage

/// Every migration case of the fixtures: Realm Core migrated `before.realm` (or refused to);
/// realmctl must produce the same schema and objects (by meaning), or Realm's error.
@Suite struct MigrationFixtureTests {
  struct Case: CustomStringConvertible, Sendable {
    var dir: String
    var input: String
    var plan: String
    var expected: String  // prefix of after.schema.json / after.dump.jsonl, or error.txt
    var isError: Bool
    var description: String { "\(dir): \(input) + \(plan)" }
  }

  static var cases: [Case] {
    let fm = FileManager.default
    var out: [Case] = []
    for dir in ((try? fm.contentsOfDirectory(atPath: Fixtures.root.path)) ?? []).sorted() {
      let d = Fixtures.root.appendingPathComponent(dir).path
      guard fm.fileExists(atPath: "\(d)/plan.json") else { continue }
      if fm.fileExists(atPath: "\(d)/error.txt") {
        out.append(Case(dir: dir, input: "before.realm", plan: "plan.json", expected: "error.txt", isError: true))
      } else if fm.fileExists(atPath: "\(d)/copy.realm") {
        // realmctl keeps values where Realm resets them (optionality): the expected result is copy.*.
        out.append(Case(dir: dir, input: "before.realm", plan: "plan.json", expected: "copy", isError: false))
      } else {
        out.append(Case(dir: dir, input: "before.realm", plan: "plan.json", expected: "after", isError: false))
      }
      // Linear migrations: files at intermediate versions reach the same result.
      for step in ["v1", "v2"] where fm.fileExists(atPath: "\(d)/steps/\(step)/after.realm") {
        out.append(Case(dir: dir, input: "steps/\(step)/after.realm", plan: "plan.json", expected: "after", isError: false))
      }
    }
    return out
  }

  func copyToTemp(_ relative: String) throws -> String {
    let dir = try Fixtures.temporaryDirectory()
    let dest = dir.appendingPathComponent("test.realm")
    try FileManager.default.copyItem(at: Fixtures.url(relative), to: dest)
    return dest.path
  }

  @Test(arguments: cases)
  func migratesLikeRealm(_ c: Case) throws {
    let path = try copyToTemp("\(c.dir)/\(c.input)")
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    let plan = try PlanDecoder.decode(try Fixtures.bytes("\(c.dir)/\(c.plan)"))
    if c.isError {
      let expected = String(decoding: try Fixtures.bytes("\(c.dir)/\(c.expected)"), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      do {
        _ = try Migrator.migrate(path: path, plan: plan)
        Issue.record("expected Realm's error: \(expected)")
      } catch {
        #expect("\(error)".hasPrefix(expected), "\(error)")
      }
      try expectEqual(Data(contentsOf: URL(fileURLWithPath: path)), original, "a failed migration must leave the file untouched")
      return
    }
    let result = try Migrator.migrate(path: path, plan: plan)
    expectEqual(result.toVersion, plan.schemaVersion)
    let diff = try DumpComparison.compareRealm(at: path, withFixture: "\(c.dir)/\(c.expected)")
    #expect(diff.isEmpty, "\(diff.prefix(10))")
    let problems = try RealmFile.open(path: path).group.check()
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }

  static var openErrorVariants: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.url("open-errors").path)) ?? []
    return names.filter { $0.hasSuffix(".plan.json") }.map { String($0.dropLast(".plan.json".count)) }.sorted()
  }

  /// Realm's answers when an app opens the file with another schema and no migration block.
  @Test(arguments: openErrorVariants)
  func versionRulesMatchRealm(_ variant: String) throws {
    let path = try copyToTemp("open-errors/before.realm")
    let plan = try PlanDecoder.decode(try Fixtures.bytes("open-errors/\(variant).plan.json"))
    let expected = String(decoding: try Fixtures.bytes("open-errors/\(variant).out.txt"), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    do {
      _ = try Migrator.migrate(path: path, plan: plan)
      expectEqual(expected, "ok")
    } catch {
      expectEqual("\(error)", expected)
    }
  }
}
