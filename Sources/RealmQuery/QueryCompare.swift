/// The values one side of a comparison produces for one object: one value, or the values of
/// a collection (`fromList`), which a comparison takes as "any of them" unless `ALL`/`NONE`
/// says otherwise.
struct ValueGroup {
  var values: [QueryValue]
  var fromList: Bool

  init(_ values: [QueryValue], fromList: Bool) {
    self.values = values
    self.fromList = fromList
  }

  static func single(_ v: QueryValue) -> ValueGroup { ValueGroup([v], fromList: false) }
  static let emptyList = ValueGroup([], fromList: true)
}

/// A comparison between two values (Realm's query conditions on `Mixed` values).
enum QueryCondition: Sendable, Equatable {
  case equal, notEqual, less, lessEqual, greater, greaterEqual
  case equalIns, notEqualIns
  /// String operators: the first value is the pattern, the second the text.
  case beginsWith, endsWith, contains, like
  case beginsWithIns, endsWithIns, containsIns, likeIns

  var isStringOperator: Bool {
    switch self {
    case .beginsWith, .endsWith, .contains, .like, .beginsWithIns, .endsWithIns, .containsIns, .likeIns: return true
    default: return false
    }
  }

  var isRelational: Bool {
    switch self {
    case .less, .lessEqual, .greater, .greaterEqual: return true
    default: return false
    }
  }

  /// True when `a op b` (for string operators: `b op a`, pattern first).
  func holds(_ a: QueryValue, _ b: QueryValue) -> Bool {
    switch self {
    case .equal: return Self.equal(a, b)
    case .notEqual: return !Self.equal(a, b)
    case .less: return ValueOrder.comparable(a, b) && ValueOrder.compare(a, b) < 0
    case .greater: return ValueOrder.comparable(a, b) && ValueOrder.compare(a, b) > 0
    case .lessEqual: return (a.isNull && b.isNull) || (ValueOrder.comparable(a, b) && ValueOrder.compare(a, b) <= 0)
    case .greaterEqual: return (a.isNull && b.isNull) || (ValueOrder.comparable(a, b) && ValueOrder.compare(a, b) >= 0)
    case .equalIns: return Self.equalIns(a, b)
    case .notEqualIns: return !Self.equalIns(a, b)
    case .beginsWith, .endsWith, .beginsWithIns, .endsWithIns, .contains, .containsIns, .like, .likeIns:
      if a.isNull && (self == .contains || self == .containsIns) { return !b.isNull }
      if a.isNull && b.isNull && (self == .like || self == .likeIns) { return true }
      let (op, caseInsensitive) = stringOperator
      return Self.withBytes(a, b) { p, t in RealmStrings.match(t, op, p, caseInsensitive: caseInsensitive) } ?? false
    }
  }

  /// The string operator of a string condition, and whether it is `[c]`.
  private var stringOperator: (RealmStrings.Operator, Bool) {
    switch self {
    case .beginsWith: return (.beginsWith, false)
    case .beginsWithIns: return (.beginsWith, true)
    case .endsWith: return (.endsWith, false)
    case .endsWithIns: return (.endsWith, true)
    case .contains: return (.contains, false)
    case .containsIns: return (.contains, true)
    case .likeIns: return (.like, true)
    default: return (.like, false)
    }
  }

  static func equal(_ a: QueryValue, _ b: QueryValue) -> Bool {
    if a.isNull && b.isNull { return true }
    return ValueOrder.comparable(a, b) && ValueOrder.compare(a, b) == 0
  }

  static func equalIns(_ a: QueryValue, _ b: QueryValue) -> Bool {
    if a.isNull && b.isNull { return true }
    guard ValueOrder.comparable(a, b) else { return false }
    if let r = withBytes(a, b, { p, t in RealmStrings.equalIns(t, RealmStrings.Folded(p)) }) { return r }
    return ValueOrder.compare(a, b) == 0
  }

  /// Calls `body(pattern, text)` with the bytes of two strings or two binaries; nil otherwise.
  static func withBytes(
    _ a: QueryValue, _ b: QueryValue, _ body: ([UInt8], UnsafeBufferPointer<UInt8>) -> Bool
  ) -> Bool? {
    switch (a, b) {
    case (.string(let p), .string(var t)):
      return t.withUTF8 { body(Array(p.utf8), $0) }
    case (.binary(let p), .binary(let t)):
      return t.withUnsafeBufferPointer { body(p, $0) }
    default:
      return nil
    }
  }

  /// Realm's comparison of two groups of values with their quantifiers: lists on both sides
  /// without a quantifier compare element by element; otherwise each side is ANY unless
  /// ALL or NONE says otherwise. Mirrors Realm's shortcuts for longer lists (sorted merging
  /// for `==`, the extremes for `<`, `>`), which decide some mixed-type cases.
  func compare(
    _ left: inout ValueGroup, _ right: inout ValueGroup,
    _ leftQuantifier: QuerySyntax.Quantifier?, _ rightQuantifier: QuerySyntax.Quantifier?
  ) -> Bool {
    if !left.fromList && !right.fromList {
      for m in 0..<min(left.values.count, right.values.count) where holds(left.values[m], right.values[m]) {
        return true
      }
      return false
    }
    if left.fromList && right.fromList && leftQuantifier == nil && rightQuantifier == nil {
      if left.values.count != right.values.count { return self == .notEqual }
      for i in left.values.indices where !holds(left.values[i], right.values[i]) { return false }
      return true
    }
    let cl = leftQuantifier ?? .any
    let cr = rightQuantifier ?? .any
    guard !left.values.isEmpty || left.fromList, !right.values.isEmpty || right.fromList else { return false }
    var ls = left.fromList ? left.values.count : 1
    var rs = right.fromList ? right.values.count : 1
    if ls > 2 && rs > 2 {
      let order: (QueryValue, QueryValue) -> Bool = { ValueOrder.compare($0, $1) < 0 }
      left.values.sort(by: order)
      right.values.sort(by: order)
      if self == .equal {
        if cl != .noneOf && cr == .any {
          let any = cl == .any
          var li = 0
          var ri = 0
          while ri < rs {
            if holds(left.values[li], right.values[ri]) {
              li += 1
              ri += 1
              if any || li == ls { return true }
            } else if ValueOrder.compare(left.values[li], right.values[ri]) < 0 {
              if any && li < ls - 1 { li += 1 } else { return false }
            } else {
              ri += 1
            }
          }
          return false
        }
      } else if isRelational {
        left.values[1] = left.values[ls - 1]
        ls = 2
        right.values[1] = right.values[rs - 1]
        rs = 2
      } else {
        ls = Self.unique(&left.values, ls)
        rs = Self.unique(&right.values, rs)
      }
    }
    if isStringOperator {
      // The pattern is on the left: iterate the text side (right) on the outside.
      return cr.isSatisfied(count: rs) { r in cl.isSatisfied(count: ls) { l in holds(left.values[l], right.values[r]) } }
    }
    return cl.isSatisfied(count: ls) { l in cr.isSatisfied(count: rs) { r in holds(left.values[l], right.values[r]) } }
  }

  /// `std::unique` over the first `count` values (equal by Realm's ordering); the new count.
  private static func unique(_ v: inout [QueryValue], _ count: Int) -> Int {
    guard count > 1 else { return count }
    var kept = 1
    for i in 1..<count where ValueOrder.compare(v[kept - 1], v[i]) != 0 {
      v[kept] = v[i]
      kept += 1
    }
    return kept
  }
}

extension QuerySyntax.Quantifier {
  /// Whether the elements `0..<count` satisfy the quantifier (ANY: one matches, ALL: every one
  /// does, NONE: none does), stopping at the first element that decides.
  fileprivate func isSatisfied(count: Int, _ matches: (Int) -> Bool) -> Bool {
    for i in 0..<count {
      if matches(i) {
        if self == .any { return true }
        if self == .noneOf { return false }
      } else if self == .all {
        return false
      }
    }
    return self == .noneOf || self == .all
  }
}
