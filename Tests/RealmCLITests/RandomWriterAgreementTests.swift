import Foundation
import RealmTestSupport
import Testing

/// Random edits through every writer, checked by Realm after each one (the differential test
/// of issue 27): from Realm's own file of a random ``IndexedSample`` (values of every type,
/// a `mixed` whose type alternates by key, dates before 1970 with fractions, accented and
/// mixed-case words), a seeded sequence of commands (insert, upsert, update of indexed
/// properties with random values, delete, convert, compact, rename-property, a migration).
/// After each, Realm verifies the file, its queries agree with its data (`IndexAgreement`),
/// and its indexes are those of the file before.
///
/// `make test` runs two seeds of eight steps; `REALMCTL_RANDOM_WRITER_SEEDS=N` runs N seeds
/// (`REALMCTL_RANDOM_WRITER_STEPS` steps each) for a longer campaign.
@Suite struct RandomWriterAgreementTests {
  typealias T = CommandTestSupport
  typealias W = WriterIndexAgreementTests

  static let seeds: [UInt64] = {
    let n = ProcessInfo.processInfo.environment["REALMCTL_RANDOM_WRITER_SEEDS"].flatMap(Int.init) ?? 2
    return (0..<UInt64(max(1, n))).map { 0x27_0000 + $0 }
  }()
  static let steps = ProcessInfo.processInfo.environment["REALMCTL_RANDOM_WRITER_STEPS"].flatMap(Int.init) ?? 8

  /// One random command on `work` (a class `Item` of `ids` items).
  static func command(_ sample: inout IndexedSample, _ work: String, _ dir: URL, step: Int, nextId: inout Int, format: inout Int) throws -> [String] {
    func write(_ lines: [String]) throws -> String {
      try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "step\(step).jsonl")
    }
    let cut = sample.int(nextId + 1)
    switch sample.int(9) {
    case 0:
      let n = 1 + sample.int(40)
      defer { nextId += n }
      return ["insert", work, try write((nextId..<(nextId + n)).map { sample.item($0, persons: 15) })]
    case 1:
      // Without keys: merged into the table by key.
      let n = 1 + sample.int(20)
      defer { nextId += n }
      return ["insert", work, try write((nextId..<(nextId + n)).map { id in
        sample.item(id, persons: 15).replacingOccurrences(of: "\"$key\":\(id),", with: "")
      })]
    case 2:
      let ids = (0..<(1 + sample.int(30))).map { _ in sample.int(nextId) }
      return ["insert", work, try write(Array(Set(ids)).sorted().map { sample.item($0, persons: 15) }), "--upsert"]
    case 3, 4:
      let sets = [
        "m = old.count", "m = old.name", "m = old.when", "m = old.flag", "m = old.oid", "m = old.uid", "m = old.m",
        "m = \(sample.mixedExpression())", "name = \(IndexedSample.quoted(sample.word()))", "name = upper(old.name)",
        "when = date('\(sample.dateText())')", "when = date(\(Double(sample.int(4000)) / 1000 - 2))", "when = old.plain",
        "code = \(IndexedSample.quoted(String(repeating: "p", count: 201) + sample.word()))", "count = \(sample.int(7) - 3)",
        "flag = NOT old.flag", "uid = null", "oid = old.oid",
      ]
      let chosen = (0..<(1 + sample.int(3))).map { _ in sets[sample.int(sets.count)] }
      var seen = Set<String>()
      let distinct = chosen.filter { seen.insert(String($0.prefix { $0 != " " })).inserted }
      return ["update", work, "--class", "Item"] + distinct.flatMap { ["--set", $0] } + ["--where", "id < \(cut)"]
    case 5:
      // A filter on properties the class has: Person has `name` only of these, Code `n`.
      let cls = ["Item", "Item", "Person", "Code"][sample.int(4)]
      let which = sample.int(3)
      let filter = switch cls {
      case "Item": ["id > \(cut)", "m == 0", "name BEGINSWITH[c] 'a'"][which]
      case "Person": "name BEGINSWITH[c] 'a'"
      default: "n == \(which)"
      }
      return ["delete", work, "--class", cls, "--where", filter]
    case 6:
      let others = [24, 23, 22].filter { $0 != format }
      format = others[sample.int(others.count)]
      return ["convert", work, "--file-format", "\(format)", "-q"]
    case 7:
      return ["compact", work]
    default:
      return ["update", work, "--class", "Person", "--set", "name = lower(old.name)", "--set", "born = date('\(sample.dateText())')"]
    }
  }

  @Test(IndexAgreement.enabled, arguments: seeds)
  func randomEditsKeepRealmsAnswers(_ seed: UInt64) throws {
    try T.inScratchDirectory { dir in
      var format = [24, 23][Int(seed % 2)]
      var (_, work, sample) = try W.setUp(dir, format: format, seed: seed)
      var nextId = 120
      let before = dir.appendingPathComponent("before.realm").path
      for step in 0..<Self.steps {
        try? FileManager.default.removeItem(atPath: before)
        try FileManager.default.copyItem(atPath: work, toPath: before)
        let words = try Self.command(&sample, work, dir, step: step, nextId: &nextId, format: &format)
        let r = T.run(words)
        // A delete of a class's every object, a where matching nothing: all fine; a refusal
        // is a failure to show.
        try #require(r.status == 0, "seed \(seed) step \(step) \(words.dropFirst(2)): \(r.stderr)")
        try W.expectRealmAgrees(work, original: before, context: "seed \(seed) step \(step): \(words[0]) \(words.dropFirst(2).joined(separator: " "))")
      }
    }
  }
}

extension IndexedSample {
  static func quoted(_ s: String) -> String {
    "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'").replacingOccurrences(of: "\u{0}", with: "\\0") + "'"
  }

  /// An expression giving a value of a random type, some sharing index data with others.
  mutating func mixedExpression() -> String {
    [
      "0", "false", "true", "1", "'a'", "2", "0.5", "double(3)", "date(0)", "date(-0.75)",
      "date('1969-12-31T23:59:59.25Z')", "null", "old.tags[0]", "old.plain", "old.code", "-1",
      "'\(Self.words[int(Self.words.count)].replacingOccurrences(of: "'", with: ""))'",
    ][int(17)]
  }

  /// A date's text: often before 1970 with a fraction.
  mutating func dateText() -> String {
    [
      "1969-12-31T23:59:59.25Z", "1969-12-31T23:59:59.999999999Z", "1960-02-29T12:00:00.5Z", "1970-01-01T00:00:00Z",
      "1969-12-31T23:59:59.1+01:00", "2024-05-01T10:00:00.125Z", "1901-01-01",
    ][int(7)]
  }
}
