import Foundation
import RealmTestSupport
import Testing

/// realmctl's query engine on the indexes Realm built: every query `IndexAgreement` asks Realm
/// about a file (`==` on every indexed property, `mixed` values of every type among them, date
/// comparisons and `SORT`, backlink counts), asked of `dump --where` too, must give Realm's
/// objects (in Realm's order under `SORT`). The planner looks values up in those indexes, so
/// this reads Realm's nodes, lists and sub-indexes as Realm does.
@Suite struct QueryReadingAgreementTests {
  typealias T = CommandTestSupport

  static func expectSameAnswers(_ path: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    // Realm Core 14's answers, the query semantics realmctl follows, for files of every format.
    let report = try IndexAgreement.check(path, oracle: .core14)
    var asked = 0
    for (query, answer) in report.answered where !query.predicate.contains(" TEXT ") {
      guard case .keys(let realms) = answer else { continue }
      let r = T.run(["dump", path, "--class", query.className, "--where", query.predicate, "--keys-only"])
      guard r.status == 0 else {
        Issue.record("\(context): \(query.className) \(query.predicate): realmctl refuses: \(r.stderr)", sourceLocation: sourceLocation)
        continue
      }
      let ours = r.stdout.split(separator: "\n").compactMap { Int64($0) }
      let sorted = query.predicate.contains("SORT(")
      if sorted ? ours != realms : ours.sorted() != realms.sorted() {
        Issue.record("\(context): \(query.className) \(query.predicate): realmctl \(ours.prefix(20)), Realm \(realms.prefix(20))", sourceLocation: sourceLocation)
      }
      asked += 1
    }
    #expect(asked > 0 || report.answered.isEmpty, "\(context)", sourceLocation: sourceLocation)
  }

  @Test(IndexAgreement.enabled, arguments: [24, 23, 22])
  func realmsSampleFileAnswersAsRealm(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let (original, _, _) = try WriterIndexAgreementTests.setUp(dir, format: format, seed: 41)
      try Self.expectSameAnswers(original, "sample, format \(format)")
    }
  }

  @Test(.enabled(if: SharedFixtures.isAvailable && RealmOracle.core14.isAvailable, SharedFixtures.absentNote),
        arguments: (try? IndexAgreementTests.wildFiles()) ?? [])
  func wildFilesAnswerAsRealm(_ file: String) throws {
    try Self.expectSameAnswers(file, URL(fileURLWithPath: file).lastPathComponent)
  }
}
