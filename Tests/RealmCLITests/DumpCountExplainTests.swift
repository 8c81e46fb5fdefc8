import Foundation
import RealmJSON
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmCLI

/// `dump --count`, `--keys-only` and `--explain`, and the shell's `.count` and `.explain`:
/// the numbers and keys are Realm's own answers (`oracle query`), the plan names the index.
@Suite struct DumpCountExplainTests {
  static let alltypes = fixturePath("alltypes/before.realm")

  static let queries = [
    "_id == 1993", "_id IN {1, 1993, 9, 9223372036854775807}", "int_opt == 2", "string_req BEGINSWITH 'a'", "int_opt == nil",
    "TRUEPREDICATE", "bool_req == true SORT(int_req DESC) LIMIT(3)", "double_req > 0 DISTINCT(bool_req)",
  ]

  @Test(RealmOracle.enabled, arguments: queries)
  func countAndKeysAreRealms(_ query: String) throws {
    let realm = try #require(try RealmOracle.core14.queryKeys(Self.alltypes, className: "AllTypes", where: query))
    let keys = CommandRun(["dump", Self.alltypes, "--class", "AllTypes", "--where", query, "--keys-only"])
    expectEqual(keys.status, 0)
    let ours = keys.text.split(separator: "\n").map { Int64($0)! }
    if query.contains("SORT") { expectEqual(ours, realm) } else { #expect(Set(ours) == Set(realm) && ours.count == realm.count) }
    let count = CommandRun(["dump", Self.alltypes, "--class", "AllTypes", "--where", query, "--count"])
    expectEqual(count.status, 0)
    expectEqual(count.text, "\(realm.count)\n")
  }

  /// --offset and --limit count as they do for printed objects.
  @Test func keysAndCountFollowOffsetAndLimit() throws {
    let base = ["dump", Self.alltypes, "--class", "AllTypes", "--where", "double_req > -1e9", "--offset", "1", "--limit", "3"]
    let printed = CommandRun(base + ["--format", "jsonl"]).text.split(separator: "\n").map { line -> Int64 in
      let json = try! JSONParser.parse(Array(line.utf8))
      guard case .int(let k)? = json["$key"] else { return -1 }
      return k
    }
    expectEqual(printed.count, 3)
    expectEqual(CommandRun(base + ["--keys-only"]).text, printed.map { "\($0)\n" }.joined())
    expectEqual(CommandRun(base + ["--count"]).text, "3\n")
  }

  /// Without --class, one line per class with its number of objects.
  @Test func countWithoutAClassCountsEveryClass() throws {
    let run = CommandRun(["dump", Self.alltypes, "--count"])
    expectEqual(run.status, 0)
    let dump = CommandRun(["dump", Self.alltypes, "--format", "jsonl"]).text
    var expected: [String: Int] = [:]
    for line in dump.split(separator: "\n") {
      guard case .string(let c)? = try JSONParser.parse(Array(line.utf8))["$class"] else { continue }
      expected[c, default: 0] += 1
    }
    let lines = run.text.split(separator: "\n").map { $0.split(separator: " ") }
    expectEqual(lines.count, expected.count)
    for line in lines { expectEqual(expected[String(line[0])], Int(line[1])) }
  }

  @Test func explainNamesTheIndex() throws {
    let run = CommandRun(["dump", Self.alltypes, "--class", "AllTypes", "--where", "_id == 1993 AND double_req > -1e300", "--explain"])
    expectEqual(run.status, 0)
    #expect(run.text.contains("access:  primary key on '_id' (==): 1 candidate\n"))
    #expect(run.text.contains("read:    1 object tested"))
    let scan = CommandRun(["dump", Self.alltypes, "--class", "AllTypes", "--where", "double_req > 0 SORT(_id DESC)", "--explain"])
    #expect(scan.text.contains("access:  scan of every object\n"))
    #expect(scan.text.contains("order:   SORT(_id DESC)\n"))
  }

  /// A file of format 9 (tables without clusters): the same selection through --where,
  /// --count and --keys-only as a filter over the plain dump.
  @Test func legacyFilesAreFilteredToo() throws {
    let path = Snapshot.packageRoot.appendingPathComponent("Examples/seed/person-format9.realm").path
    let people = CommandRun(["dump", path, "--class", "Person", "--format", "jsonl"]).text.split(separator: "\n").map {
      try! JSONParser.parse(Array($0.utf8))
    }
    func int(_ v: JSONValue, _ k: String) -> Int64 { if case .int(let i)? = v[k] { return i } else { return -1 } }
    func string(_ v: JSONValue, _ k: String) -> String { if case .string(let s)? = v[k] { return s } else { return "" } }
    expectEqual(people.count, 20)
    let cases: [(String, [Int64])] = [
      ("age > 30", people.filter { int($0, "age") > 30 }.map { int($0, "$key") }),
      ("id == 3 OR firstName BEGINSWITH 'A'", people.filter { int($0, "id") == 3 || string($0, "firstName").hasPrefix("A") }.map { int($0, "$key") }),
    ]
    for (query, expected) in cases {
      #expect(!expected.isEmpty)
      let keys = CommandRun(["dump", path, "--class", "Person", "--where", query, "--keys-only"])
      #expect(keys.status == 0 && keys.text == expected.map { "\($0)\n" }.joined(), "\(query)")
      expectEqual(CommandRun(["dump", path, "--class", "Person", "--where", query, "--count"]).text, "\(expected.count)\n")
      let printed = CommandRun(["dump", path, "--class", "Person", "--where", query, "--format", "jsonl"]).text
      expectEqual(printed.split(separator: "\n").map { int(try! JSONParser.parse(Array($0.utf8)), "$key") }, expected)
    }
  }

  @Test func conflictingOrIncompleteOptionsAreUsageErrors() {
    let both = CommandRun(["dump", Self.alltypes, "--class", "AllTypes", "--count", "--keys-only"])
    expectEqual(both.status, 64)
    #expect(both.errors.contains("--count, --keys-only and --explain"))
    let noClass = CommandRun(["dump", Self.alltypes, "--explain"])
    expectEqual(noClass.status, 64)
    #expect(noClass.errors.contains("--class"))
  }

  @Test func theShellExplainsAndSaysWhichIndexItUsed() throws {
    let out = TextOutput.memory()
    let err = TextOutput.memory()
    let terminal = Terminal(isStandardOutputTerminal: true, width: 80)
    let context = CommandContext(standardOutput: out, standardError: err, terminal: terminal, environment: [:])
    let session = try ShellSession(path: Self.alltypes, file: try RealmInput.open(Self.alltypes), context: context, mode: .jsonl, limit: nil)
    _ = try session.execute(".explain AllTypes WHERE _id IN {1993, 9223372036854775807}")
    #expect(out.text.contains("access:  primary key on '_id' (IN): 2 candidates"))
    _ = try session.execute("AllTypes WHERE _id == 1993")
    #expect(err.text.contains("(used primary key '_id' (==): 1 of"))
    _ = try session.execute(".count AllTypes WHERE _id IN {1993, 9223372036854775807}")
    #expect(out.text.hasSuffix("2\n"))
  }
}
