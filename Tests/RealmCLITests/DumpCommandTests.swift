import Foundation
import RealmCLI
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// `realmctl dump`: selection (`--class`, `--offset`, `--limit`, `--where`) and the four
/// formats. Expected objects are Realm's own dump lines, selected in the test.
@Suite struct DumpCommandTests {
  static let tutorial = fixturePath("user-tutorial/before.realm")
  static let people = fixturePath("to-embedded-ok/before.realm")

  @Test func offsetAndLimitCountObjectsOfTheClass() throws {
    let answers = try RealmAnswers("user-tutorial")
    let run = CommandRun(["dump", Self.tutorial, "--class", "User", "--offset", "10", "--limit", "5"])
    expectEqual(run.status, 0)
    let problems = answers.compare(run.output, with: Array(answers.lines(of: "User")[10..<15]))
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func offsetAndLimitApplyToEachClass() throws {
    let answers = try RealmAnswers("to-embedded-ok")
    let run = CommandRun(["dump", Self.people, "--offset", "1", "--limit", "2"])
    expectEqual(run.status, 0)
    let expected = Array(answers.lines(of: "Address")[1..<3]) + Array(answers.lines(of: "Person")[1..<3])
    let problems = answers.compare(run.output, with: expected)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func limitZeroAndOffsetPastTheEndPrintNothing() {
    for extra in [["--limit", "0"], ["--offset", "1000"]] {
      let run = CommandRun(["dump", Self.tutorial] + extra)
      expectEqual(run.status, 0)
      #expect(run.output.isEmpty)
    }
  }

  @Test func whereFiltersBeforeOffsetAndLimit() throws {
    let answers = try RealmAnswers("user-tutorial")
    let adults = answers.lines(of: "User").filter {
      guard case .int(let age)? = $0["age"] else { return false }
      return age >= 30
    }
    #expect(adults.count > 10)
    let all = CommandRun(["dump", Self.tutorial, "--class", "User", "--where", "age >= 30"])
    expectEqual(all.status, 0)
    #expect(answers.compare(all.output, with: adults).isEmpty)
    let page = CommandRun(["dump", Self.tutorial, "--class", "User", "--where", "age >= 30", "--offset", "3", "--limit", "4"])
    #expect(answers.compare(page.output, with: Array(adults[3..<7])).isEmpty)
  }

  /// `address` links to the top-level class Address: the filter follows the link in the file.
  @Test func whereFollowsLinks() throws {
    let answers = try RealmAnswers("to-embedded-ok")
    let cityOf = Dictionary(uniqueKeysWithValues: answers.lines(of: "Address").compactMap { line -> (Int64, JSONValue)? in
      guard case .int(let key)? = line["$key"], let city = line["city"] else { return nil }
      return (key, city)
    })
    let expected = answers.lines(of: "Person").filter { person in
      guard case .int(let key)? = person["address"]?["$key"] else { return false }
      return cityOf[key] == .string("City 2")
    }
    #expect(!expected.isEmpty)
    let run = CommandRun(["dump", Self.people, "--class", "Person", "--where", "address.city == 'City 2'"])
    expectEqual(run.status, 0, "\(run.errors)")
    #expect(answers.compare(run.output, with: expected).isEmpty)
  }

  @Test func whereWithoutClassFiltersTheOneClassThatHasItsProperties() throws {
    let answers = try RealmAnswers("user-tutorial")
    let run = CommandRun(["dump", Self.tutorial, "--where", "age > 90"])
    expectEqual(run.status, 0, "\(run.errors)")
    #expect(run.errors.isEmpty, "\(run.errors)")
    let expected = answers.lines(of: "User").filter { if case .int(let age)? = $0["age"] { return age > 90 } else { return false } }
    #expect(!expected.isEmpty)
    #expect(answers.compare(run.output, with: expected).isEmpty)
  }

  /// A query is checked against the file like a plan: a data error (65) on one line, no usage.
  @Test func invalidWhereIsADataErrorWithTheColumn() {
    let run = CommandRun(["dump", Self.tutorial, "--class", "User", "--where", "agee > 3"])
    expectEqual(run.status, 65)
    expectEqual(run.errors, "Error: --where: column 1: 'User' has no property 'agee' (did you mean 'age'?)\n", "\(run.errors)")
    let notACondition = CommandRun(["dump", Self.tutorial, "--class", "User", "--where", "age + 1"])
    expectEqual(notACondition.status, 65)
    #expect(!notACondition.errors.contains("Usage:"), "\(notACondition.errors)")
  }

  @Test func unknownClassesAreDataErrors() {
    let path = fixturePath("embedded/before.realm")
    let unknown = CommandRun(["dump", path, "--class", "Contacts"])
    expectEqual(unknown.status, 65)
    expectEqual(unknown.errors, "Error: class 'Contacts' not found in '\(path)' (did you mean 'Contact'?)\n")
  }

  /// `--class` of an embedded class lists its objects on their own, with their keys in the
  /// class's table: the keys Realm's own query on that class returns (queries.jsonl).
  @Test func embeddedClassesAreListedWithTheirKeys() throws {
    let path = fixturePath("embedded/before.realm")
    let all = CommandRun(["dump", path, "--class", "Address", "--format", "jsonl"])
    expectEqual(all.status, 0, "\(all.errors)")
    expectEqual(Self.keys(all.output).count, 185)
    let oslo = CommandRun(["dump", path, "--class", "Address", "--where", "city == 'Oslo'"])
    expectEqual(oslo.status, 0, "\(oslo.errors)")
    let expected = try #require(QueryAnswers.keys(class: "Address", query: "city == 'Oslo'"))
    expectEqual(Set(Self.keys(oslo.output)), Set(expected))
    #expect(!expected.isEmpty)
  }

  /// SORT, DISTINCT and LIMIT decide which objects come out and in which order (Realm's
  /// order, from queries.jsonl); --offset and --limit then page through them.
  @Test func sortDistinctAndLimitOrderTheOutput() throws {
    let path = fixturePath("alltypes/before.realm")
    for query in ["TRUEPREDICATE SORT(int_req DESC)", "TRUEPREDICATE DISTINCT(int_opt) SORT(_id DESC)", "TRUEPREDICATE LIMIT(10) SORT(_id DESC)"] {
      let expected = try #require(QueryAnswers.keys(class: "AllTypes", query: query))
      let run = CommandRun(["dump", path, "--class", "AllTypes", "--where", query, "--format", "jsonl"])
      expectEqual(run.status, 0, "\(run.errors)")
      expectEqual(Self.keys(run.output), expected, "\(query)")
      let page = CommandRun(["dump", path, "--class", "AllTypes", "--where", query, "--offset", "2", "--limit", "3"])
      expectEqual(Self.keys(page.output), Array(expected.dropFirst(2).prefix(3)), "\(query)")
    }
  }

  /// The `$key` of every JSON line.
  static func keys(_ output: [UInt8]) -> [Int64] {
    output.split(separator: 0x0A).compactMap { line in
      guard case .int(let k)? = (try? JSONParser.parse(Array(line)))?["$key"] else { return nil }
      return k
    }
  }

  @Test func jsonGroupsRealmsObjectsByClass() throws {
    let answers = try RealmAnswers("embedded")
    let run = CommandRun(["dump", fixturePath("embedded/before.realm"), "--format", "json"])
    expectEqual(run.status, 0)
    guard case .object(let groups) = try JSONParser.parse(run.output) else {
      Issue.record("not an object")
      return
    }
    expectEqual(groups.map(\.key), ["Contact"])
    guard case .array(let objects)? = groups.first?.value else {
      Issue.record("no array")
      return
    }
    let problems = DumpComparison.compareDumps(expected: answers.lines, actual: objects, schema: answers.schema)
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }

  @Test func csvHasAHeaderAndOneRowPerObject() throws {
    let answers = try RealmAnswers("user-tutorial")
    let run = CommandRun(["dump", Self.tutorial, "--format", "csv", "--class", "User"])
    expectEqual(run.status, 0)
    let rows = run.text.components(separatedBy: "\r\n").dropLast()
    expectEqual(rows.first, "$key,name,age")
    expectEqual(rows.count, answers.lines(of: "User").count + 1)
    let first = try #require(answers.lines.first)
    guard case .string(let name)? = first["name"], case .int(let age)? = first["age"] else {
      Issue.record("unexpected first line")
      return
    }
    expectEqual(rows.dropFirst().first, "0,\(name),\(age)")
    let noClass = CommandRun(["dump", Self.tutorial, "--format", "csv"])
    expectEqual(noClass.status, 64)
  }

  @Test func tableIsTheDefaultOnATerminalAndFitsItsWidth() throws {
    let terminal = Terminal(isStandardOutputTerminal: true, width: 50)
    let run = CommandRun(["dump", fixturePath("embedded/before.realm"), "--limit", "3"], terminal: terminal)
    expectEqual(run.status, 0)
    let lines = run.text.split(separator: "\n").map(String.init)
    expectEqual(lines.first?.hasPrefix("Contact"), true)
    expectEqual(lines.count, 1 + 2 + 3 + 1)
    for line in lines { #expect(line.count <= 50, "\(line)") }
    // Not a terminal: JSON Lines.
    let piped = CommandRun(["dump", fixturePath("embedded/before.realm"), "--limit", "3"])
    #expect(piped.text.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"$class\":\"Contact\"") })
  }

  /// Large dumps reach standard output in buffer-sized chunks, not one write per line.
  @Test func jsonlIsWrittenInChunks() throws {
    final class CountingDestination: OutputDestination {
      var writes = 0
      var bytes = 0
      func writeAll(_ chunk: UnsafeRawBufferPointer) throws(RealmCtlError) {
        writes += 1
        bytes += chunk.count
      }
    }
    let destination = CountingDestination()
    let status = RealmCtl.run(
      arguments: ["dump", fixturePath("embedded/before.realm"), "--format", "jsonl"],
      standardOutput: TextOutput(destination, capacity: 4096), standardError: .memory())
    expectEqual(status, 0)
    let lines = try RealmAnswers("embedded").lines.count
    #expect(destination.bytes > 4096 * 4)
    #expect(destination.writes < lines / 4)
    #expect(destination.writes <= destination.bytes / 4096 + 2)
  }
}
