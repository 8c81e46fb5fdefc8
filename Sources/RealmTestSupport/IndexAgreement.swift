import Foundation
import RealmJSON
import RealmModel
import Testing

/// Checks a written file through Realm Core's own query engine (`RealmOracle`): what Realm
/// derives from the data and uses to answer queries must agree with the data Realm reads.
///
/// Realm's `verify()` does not look at search indexes, and a stale or misbuilt index only
/// shows when Realm's query engine uses it. So, from Realm's own dump of the file (`oracle
/// dump`), for each class:
/// - every indexed property (primary keys, general indexes, indexed `mixed`): for a sample of
///   its stored values (every type a `mixed` holds, null), Realm's `p == v` must return
///   exactly the objects holding a value equal to `v` (for `mixed`, as Realm's indexed lookup
///   compares: the same index data and `Mixed::compare` equal);
/// - every full-text index: for words sampled from the stored strings, `p TEXT "w"` (and one
///   `"prefix*"`) must return exactly the objects whose text has such a word;
/// - every date property: `SORT(p ASC)` must give the objects in the order of their stored
///   instants, and `p == T…`, `p < T…`, `p > T…` around sampled instants the objects they hold;
/// - every class that links can reach: `@links.C.p.@count == n` and `@links.@count == n`
///   (Realm's backlink columns) must give the objects with that many forward links.
///
/// All queries of a file run in one batch on one copy (``RealmOracle/query(_:_:key:)``).
///
/// ```swift
/// @Test(IndexAgreement.enabled) func createKeepsIndexesRealmsWay() throws {
///   ...
///   try IndexAgreement.expectAgreement(path)
/// }
/// ```
public enum IndexAgreement {
  /// The values (and words) tried per indexed property when a check does not say: 2 by default
  /// (the first and the last; for `mixed`, two of each type it holds), 8 with
  /// `REALMCTL_FULL_FIXTURES=1` (``FixtureSample/isFull``; CI sets it). The instants of a date
  /// and the backlink counts scale with it (``Plan``). Each value is one run of Realm's query
  /// engine, and those runs are most of what the index checks cost.
  public static var defaultSamples: Int { FixtureSample.isFull ? 8 : 2 }

  /// The trait of tests that check files with Realm's query engine: skipped, with the
  /// reason, when `../shared/tools/realm-oracle` is absent.
  public static var enabled: ConditionTrait { RealmOracle.enabled }

  /// What one check found.
  public struct Report: Sendable, CustomStringConvertible {
    /// Disagreements between Realm's answers and the stored data (empty: none).
    public var problems: [String] = []
    /// What was checked, one line a property: `Class.p (mixed index): 9 values`.
    public var checked: [String] = []
    /// The number of queries Realm answered.
    public var queries = 0
    /// Every query asked (the full-text probes aside) and Realm's answer: what a test can
    /// ask realmctl's own query engine too.
    public var answered: [(query: RealmOracle.Query, answer: RealmOracle.Answer)] = []

    public var description: String {
      (problems.isEmpty ? "agreement" : problems.joined(separator: "\n")) + "\nchecked: " + checked.joined(separator: "; ")
    }
  }

  /// Checks the file at `path` (see the type's description) with `oracle`, by default the
  /// Realm Core that opens the file as it is (``RealmOracle/openingAsIs(_:encrypted:)``: Realm
  /// Core 13 for format 23, 12 for format 22, else 14); `key` is the hex key of an encrypted
  /// file. `samples` bounds the values (and words, and instants) tried per
  /// property. Throws when the oracle cannot read the file at all.
  ///
  /// `indexesOf`: a file the written one comes from (the input of the command, kept aside):
  /// every property it indexes that the written file still has must keep its index and its
  /// kind (general or full-text, told apart by Realm refusing `TEXT` without a full-text
  /// index), and no other property may gain one. Without it, a dropped index goes unseen.
  /// `renamed` maps a written file's "Class.p" to the original's name for it.
  public static func check(
    _ path: String, oracle: RealmOracle? = nil, key: String? = nil, samples: Int = defaultSamples,
    indexesOf reference: String? = nil, referenceKey: String? = nil, renamed: [String: String] = [:]
  ) throws -> Report {
    let oracle = oracle ?? .openingAsIs(path, encrypted: key != nil)
    let schemaText = try oracle.schema(path, key: key)
    let schema = try SchemaJSON.decode(Array(schemaText.utf8))
    let objects = try decodeDump(try oracle.dump(path, key: key), schema: schema)
    var plan = Plan(format: schema.fileFormat, samples: samples)
    for cls in schema.classes where !cls.isEmbedded {
      let stored = objects[cls.name] ?? []
      for (i, p) in cls.properties.enumerated() where p.collection == .single {
        let column = stored.map { ($0.key, $0.values[i]) }
        let indexed = p.isIndexed || cls.primaryKey == p.name
        if indexed && [.int, .bool, .string, .date, .objectId, .uuid, .mixed].contains(p.type) {
          plan.equalities(cls.name, p, column)
          // Full-text indexes exist from format 23 on (Realm Core 12 cannot parse `TEXT`).
          if p.type == .string && schema.fileFormat >= 23 { plan.words(cls.name, p, column) }
        }
        if p.type == .date { plan.dates(cls.name, p, column) }
      }
    }
    plan.backlinks(schema, objects)
    let answers = try ask(plan, oracle: oracle, path: path, key: key)
    var report = Report()
    report.queries = answers.compactMap { $0 }.count
    report.answered = plan.queries.indices.compactMap { i in
      guard let answer = answers[i], !plan.expectations[i].isProbe else { return nil }
      return (plan.queries[i], answer)
    }
    plan.judge(answers, into: &report)
    if let reference {
      let kinds = try indexKinds(reference, key: referenceKey ?? key)
      report.problems += compare(indexes: plan.indexKinds(schema, answers), with: kinds, renamed: renamed)
    }
    return report
  }

  /// Realm's answers to the queries of `plan`, in two batches: first every query but the
  /// full-text searches, then the searches of the properties whose probe shows a full-text
  /// index (nil for the others: most indexed strings have a general index, on which Realm
  /// refuses every `TEXT` query alike).
  static func ask(_ plan: Plan, oracle: RealmOracle, path: String, key: String?) throws -> [RealmOracle.Answer?] {
    var answers = [RealmOracle.Answer?](repeating: nil, count: plan.queries.count)
    let first = plan.queries.indices.filter { plan.expectations[$0].probe == nil }
    for (i, answer) in zip(first, try oracle.query(path, first.map { plan.queries[$0] }, key: key)) { answers[i] = answer }
    let searches = plan.queries.indices.filter { i in
      guard let probe = plan.expectations[i].probe, let shown = answers[probe] else { return false }
      return Plan.hasFullText(shown)
    }
    for (i, answer) in zip(searches, try oracle.query(path, searches.map { plan.queries[$0] }, key: key)) { answers[i] = answer }
    return answers
  }

  /// The index kind of each indexed property of the file at `path` ("Class.p" → "general"
  /// or "full-text"; the others are absent), from Realm's schema and `TEXT` probes, asked of
  /// `oracle` (by default the Realm Core that opens the file as it is). (A check's original
  /// file is asked once for all the checks that compare with it: the oracle remembers its
  /// answers by the file's bytes.)
  public static func indexKinds(_ path: String, oracle: RealmOracle? = nil, key: String? = nil) throws -> [String: String] {
    let oracle = oracle ?? .openingAsIs(path, encrypted: key != nil)
    let schema = try SchemaJSON.decode(Array(try oracle.schema(path, key: key).utf8))
    var probes: [RealmOracle.Query] = []
    var names: [String] = []
    var kinds: [String: String] = [:]
    for cls in schema.classes where !cls.isEmbedded {
      for p in cls.properties where p.isIndexed || cls.primaryKey == p.name {
        kinds["\(cls.name).\(p.name)"] = "general"
        if p.type == .string && p.collection == .single && cls.primaryKey != p.name && schema.fileFormat >= 23 {
          probes.append(RealmOracle.Query(cls.name, "\(Plan.name(p.name)) TEXT \"realmctlprobe\""))
          names.append("\(cls.name).\(p.name)")
        }
      }
    }
    for (name, answer) in zip(names, try oracle.query(path, probes, key: key)) where Plan.hasFullText(answer) {
      kinds[name] = "full-text"
    }
    return kinds
  }

  /// The differences between the index kinds of the written file ("none", "general",
  /// "full-text" for each property) and of its original (for the properties both have).
  static func compare(indexes found: [String: String], with expected: [String: String], renamed: [String: String]) -> [String] {
    var problems: [String] = []
    for (name, kind) in found.sorted(by: { $0.key < $1.key }) {
      let want = expected[renamed[name] ?? name] ?? "none"
      if want != kind {
        problems.append("\(name): \(kind == "none" ? "no" : "a \(kind)") index, where the original file has \(want == "none" ? "none" : "a \(want) index")")
      }
    }
    return problems
  }

  /// Records an issue for every disagreement ``check(_:oracle:key:samples:)`` finds; does
  /// nothing when the oracle is absent (declare the test with ``enabled`` to report it
  /// skipped). Returns the report.
  @discardableResult
  public static func expectAgreement(
    _ path: String, oracle: RealmOracle? = nil, key: String? = nil, samples: Int = defaultSamples,
    indexesOf reference: String? = nil, referenceKey: String? = nil, renamed: [String: String] = [:], _ context: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Report? {
    let oracle = oracle ?? .openingAsIs(path, encrypted: key != nil)
    guard oracle.isAvailable else { return nil }
    let report = try check(
      path, oracle: oracle, key: key, samples: samples, indexesOf: reference, referenceKey: referenceKey, renamed: renamed)
    for problem in report.problems {
      Issue.record("\(context.isEmpty ? "" : context + ": ")Realm \(oracle.core): \(problem)", sourceLocation: sourceLocation)
    }
    return report
  }

  /// Realm's dump, objects by class in key order.
  static func decodeDump(_ dump: String, schema: Schema) throws -> [String: [(key: Int64, values: [RealmValue])]] {
    let decoder = CanonicalDecoder(schema: schema)
    var out: [String: [(key: Int64, values: [RealmValue])]] = [:]
    for (n, line) in dump.split(separator: "\n").enumerated() {
      let object = try decoder.decodeLine(Array(line.utf8), line: n + 1)
      out[object.className, default: []].append((object.key ?? -1, object.values))
    }
    return out
  }
}
