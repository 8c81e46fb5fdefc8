import Foundation
import RealmFormat
import RealmJSON
import RealmModel

extension IndexAgreement {
  /// The queries of one check and what each must answer.
  struct Plan {
    /// The file format Realm's schema reports (≤ 23: Realm Core 13's order of values).
    let format: Int
    let samples: Int
    var queries: [RealmOracle.Query] = []
    var expectations: [Expectation] = []
    var checked: [String] = []

    init(format: Int, samples: Int) {
      self.format = format
      self.samples = samples
    }

    /// What one query must answer.
    struct Expectation {
      var label: String
      /// The keys expected; in this order when `ordered`, else as a set.
      var keys: [Int64]
      var ordered = false
      /// A `TEXT` query: judged only when the query at this position (the property's probe)
      /// shows a full-text index.
      var probe: Int?
      /// The probe itself: it only says whether the property has a full-text index.
      var isProbe = false
      /// "Class.p" of a probe.
      var property = ""
    }

    mutating func add(_ cls: String, _ predicate: String, _ e: Expectation) {
      queries.append(RealmOracle.Query(cls, predicate))
      expectations.append(e)
    }

    // MARK: - Equality through the index

    /// `p == v` for a sample of the stored values of an indexed property.
    mutating func equalities(_ cls: String, _ p: Property, _ column: [(Int64, RealmValue)]) {
      let name = Self.name(p.name)
      var tried = 0
      // Before format 24 (Realm Core 12 and 13) a string and a binary of the same bytes are
      // equal and share their entry's list in key order; Core 14, which reads such files,
      // then finds the run of the looked-up type that its scan of that list reaches first,
      // on Realm's own files too: such strings are not tried.
      let binaries = format < 24 && p.type == .mixed
        ? Set(column.compactMap { if case .data(let d) = $0.1 { return d } else { return nil } }) : Set<[UInt8]>()
      for v in sample(column, mixed: p.type == .mixed) {
        if case .string(let s) = v, binaries.contains(Array(s.utf8)) { continue }
        guard let (literal, constant) = Literal.rql(v, type: p.type, format: format) else { continue }
        let keys = column.filter { Literal.realmEquals($0.1, constant, type: p.type, format: format) }.map(\.0)
        add(cls, "\(name) == \(literal)", Expectation(label: "\(cls).\(p.name) == \(literal)", keys: keys))
        tried += 1
      }
      checked.append("\(cls).\(p.name) (\(p.type.rawValue) index): \(tried) values")
    }

    /// Distinct stored values in order of first appearance, then a spread of at most
    /// `samples` of them (for `mixed`, of each type in turn, so that every type present is
    /// tried with the values that share its index data).
    func sample(_ column: [(Int64, RealmValue)], mixed: Bool) -> [RealmValue] {
      var seen = Set<String>()
      var groups: [String: [RealmValue]] = [:]
      var groupOrder: [String] = []
      for (_, v) in column {
        let id = "\(v)"
        guard seen.insert(id).inserted else { continue }
        let group = mixed ? Literal.typeName(v) : ""
        if groups[group] == nil { groupOrder.append(group) }
        groups[group, default: []].append(v)
      }
      let perGroup = max(2, samples / max(1, groupOrder.count))
      return groupOrder.flatMap { Self.spread(groups[$0]!, perGroup) }
    }

    /// At most `n` elements of `all`: the first, the last and evenly spaced ones between.
    static func spread<T>(_ all: [T], _ n: Int) -> [T] {
      guard all.count > n, n >= 2 else { return Array(all.prefix(n)) }
      return (0..<n).map { all[$0 * (all.count - 1) / (n - 1)] }
    }

    /// A property name as the query language reads it (spaces escaped).
    static func name(_ name: String) -> String { name.replacingOccurrences(of: " ", with: "\\ ") }

    // MARK: - Judging

    /// Judges Realm's answers (nil: not asked, a search of a property without a full-text
    /// index).
    func judge(_ answers: [RealmOracle.Answer?], into report: inout Report) {
      report.checked += checked
      for (i, e) in expectations.enumerated() {
        if e.isProbe { continue }
        if let probe = e.probe, !(answers[probe].map(Self.hasFullText) ?? false) { continue }
        guard let answer = answers[i] else {
          report.problems.append("\(e.label): not asked of Realm")
          continue
        }
        guard case .keys(let found) = answer else {
          report.problems.append("\(e.label): Realm refuses the query: \(answer)")
          continue
        }
        let same = e.ordered ? found == e.keys : found.sorted() == e.keys.sorted()
        if !same {
          report.problems.append(
            "\(e.label): Realm answers \(Self.show(found))\(e.ordered ? "" : " (\(found.count))"), the data say \(Self.show(e.ordered ? e.keys : e.keys.sorted()))\(e.ordered ? "" : " (\(e.keys.count))")")
        }
      }
    }

    /// The index kind of every property of `schema` ("Class.p" → "none", "general" or
    /// "full-text"), from its flags and this plan's probes' answers.
    func indexKinds(_ schema: Schema, _ answers: [RealmOracle.Answer?]) -> [String: String] {
      var probed: [String: Bool] = [:]
      for (i, e) in expectations.enumerated() where e.isProbe { probed[e.property] = answers[i].map(Self.hasFullText) ?? false }
      var out: [String: String] = [:]
      for cls in schema.classes where !cls.isEmbedded {
        for p in cls.properties {
          let name = "\(cls.name).\(p.name)"
          out[name] = !(p.isIndexed || cls.primaryKey == p.name) ? "none" : probed[name] == true ? "full-text" : "general"
        }
      }
      return out
    }

    /// True unless Realm says the column has no full-text index.
    static func hasFullText(_ answer: RealmOracle.Answer) -> Bool {
      if case .refused(let message) = answer, message.contains("no fulltext index") { return false }
      return true
    }

    static func show(_ keys: [Int64]) -> String {
      keys.count <= 12 ? "\(keys)" : "[\(keys.prefix(12).map(String.init).joined(separator: ", ")), …]"
    }
  }
}
