import RealmModel

extension IndexAgreement.Plan {
  /// `SORT(p ASC)` and comparisons with sampled instants of a date property: Realm compares
  /// the stored (seconds, nanoseconds) pairs, which order as the instants only when every
  /// pair is in Realm's form (nanoseconds of the sign of the seconds). The instants are those
  /// of Realm's dump, whose text gives the instant whatever the pair.
  mutating func dates(_ cls: String, _ p: Property, _ column: [(Int64, RealmValue)]) {
    let name = Self.name(p.name)
    let instants: [(Int64, Timestamp?)] = column.map { k, v in
      if case .date(let t) = v { return (k, t) }
      return (k, nil)
    }
    func before(_ a: Timestamp?, _ b: Timestamp?) -> Bool {
      guard let b else { return false }
      guard let a else { return true }
      return (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }
    // Nulls first, then by instant; equal instants in key order (Realm's sort is stable).
    let sorted = instants.enumerated().sorted { x, y in
      if before(x.element.1, y.element.1) { return true }
      if before(y.element.1, x.element.1) { return false }
      return x.offset < y.offset
    }.map(\.element.0)
    add(cls, "TRUEPREDICATE SORT(\(name) ASC)", Expectation(label: "\(cls) SORT(\(p.name) ASC)", keys: sorted, ordered: true))
    // Pivots: instants before 1970 with a fraction first (where a pair in the wrong form
    // shows), then a spread of the others: 2 and 3 of them from 4 samples on, else 1 and 2
    // (the earliest and the latest).
    var distinct: [Timestamp] = []
    for case (_, let t?) in instants where !distinct.contains(t) { distinct.append(t) }
    distinct.sort { before($0, $1) }
    let fractionalPast = distinct.filter { $0.seconds < 0 || $0.nanoseconds < 0 }.filter { $0.nanoseconds != 0 }
    var pivots = Array(fractionalPast.prefix(samples >= 4 ? 2 : 1))
    for t in Self.spread(distinct, samples >= 4 ? 3 : 2) where !pivots.contains(t) { pivots.append(t) }
    // `==` at every pivot (an indexed date is looked up in its index); `<` and `>` at every
    // pivot from 4 samples on, else at the first only (an instant before 1970 with a fraction
    // when there is one, where a pair in the wrong form compares wrongly; the SORT covers
    // every object).
    for (n, t) in pivots.enumerated() {
      let literal = "T\(t.seconds):\(t.nanoseconds)"
      let comparisons: [(String, (Timestamp) -> Bool)] = [("==", { $0 == t }), ("<", { before($0, t) }), (">", { before(t, $0) })]
      for (op, holds) in comparisons.prefix(n == 0 || samples >= 4 ? 3 : 1) {
        let keys = instants.compactMap { k, x in x.map(holds) == true ? k : nil }
        add(cls, "\(name) \(op) \(literal)", Expectation(label: "\(cls).\(p.name) \(op) \(literal)", keys: keys))
      }
    }
    checked.append("\(cls).\(p.name) (date): SORT and \(pivots.count) instants")
  }
}
