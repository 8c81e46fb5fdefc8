import RealmFormat
import RealmModel

/// A bound condition of a query.
protocol QueryPredicate: AnyObject, Sendable {
  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool
}

final class ConstantPredicate: QueryPredicate {
  let value: Bool
  init(_ value: Bool) { self.value = value }
  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool { value }
}

final class AndPredicate: QueryPredicate {
  let children: [any QueryPredicate]
  init(_ children: [any QueryPredicate]) { self.children = children }
  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool {
    for c in children where !(try c.matches(object, &ctx)) { return false }
    return true
  }
}

final class OrPredicate: QueryPredicate {
  let children: [any QueryPredicate]
  init(_ children: [any QueryPredicate]) { self.children = children }
  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool {
    for c in children where try c.matches(object, &ctx) { return true }
    return false
  }
}

final class NotPredicate: QueryPredicate {
  let child: any QueryPredicate
  init(_ child: any QueryPredicate) { self.child = child }
  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool { !(try child.matches(object, &ctx)) }
}

/// A comparison of two expressions (Realm's `Compare`): matches when some group of the left
/// side and some group of the right side compare true. For string operators `left` is the
/// pattern.
final class ComparePredicate: QueryPredicate {
  let condition: QueryCondition
  let left: any QueryExpression
  let right: any QueryExpression
  private let leftConstant: ValueGroup?
  private let rightConstant: ValueGroup?

  init(_ condition: QueryCondition, _ left: any QueryExpression, _ right: any QueryExpression) {
    self.condition = condition
    self.left = left
    self.right = right
    leftConstant = (left as? ConstantExpression)?.group
    rightConstant = (right as? ConstantExpression)?.group
  }

  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool {
    let rights = try rightConstant.map { [$0] } ?? right.evaluate(object, &ctx)
    let lefts = try leftConstant.map { [$0] } ?? left.evaluate(object, &ctx)
    return matches(lefts: lefts, rights: rights)
  }

  /// The keys compared when the left side is `dict.@keys` of the queried object's own
  /// dictionary and the right side a constant; nil for any other comparison.
  var ownDictionaryKeys: (property: Int, constant: ValueGroup)? {
    guard let keys = left as? DictionaryKeysExpression, keys.collection.chain.isEmpty, let rightConstant else { return nil }
    return (keys.collection.property, rightConstant)
  }

  /// The comparison of the value groups of both sides.
  func matches(lefts: [ValueGroup], rights: [ValueGroup]) -> Bool {
    for r in rights {
      for l in lefts {
        var a = l
        var b = r
        if condition.compare(&a, &b, left.quantifier, right.quantifier) { return true }
      }
    }
    return false
  }
}

extension ValueKind {
  /// The kind of leaf a property of this query type is stored in (the kind of the same name),
  /// nil for the types Realm's column conditions do not handle (links, collections, ...).
  init?(_ type: QueryType) {
    guard type.isStoredScalar else { return nil }
    self.init(rawValue: type.rawValue)
  }
}

/// A property of the queried object compared with a constant: Realm's column conditions
/// (its query engine's nodes), which differ from comparisons of expressions in how they
/// treat null, NaN and strings. `constant` is never null except for string operators.
final class ColumnPredicate: QueryPredicate {
  let property: Int
  let kind: ValueKind
  let condition: QueryCondition
  let constant: QueryValue
  private let pattern: [UInt8]?
  private let folded: RealmStrings.Folded?
  /// The constant of an int, float or double, date condition (nil: the constant is of
  /// another type, nothing matches).
  private let intConstant: Int64?
  private let doubleConstant: Double?
  private let timestampConstant: Timestamp?
  /// The condition on a string leaf's stored bytes, where it allows (``StringLeafScan``).
  let leafScan: StringLeafScan?
  /// `==` on an indexed `mixed` property: Realm looks the constant's index data up in the
  /// index and keeps the objects whose value equals it, so a value whose data differ is not
  /// found even when it compares equal (`m == 0.5` finds the double 0.5, not the float 0.5;
  /// `m == 3000000000` not the double 3e9). ``indexedMixedData`` is then the constant's data
  /// (nil for a link, whose data are equal whenever the links are).
  private let indexedMixedEquality: Bool
  private let indexedMixedData: [UInt8]?

  init(property: Int, kind: ValueKind, condition: QueryCondition, constant: QueryValue, indexed: Bool = false) {
    self.property = property
    self.kind = kind
    self.condition = condition
    self.constant = constant
    indexedMixedEquality = indexed && kind == .mixed && condition == .equal
    indexedMixedData = indexedMixedEquality ? Self.indexData(constant) : nil
    if case .int(let c) = constant { intConstant = c } else { intConstant = nil }
    switch constant {
    case .float(let f): doubleConstant = Double(f)
    case .double(let d): doubleConstant = d
    default: doubleConstant = nil
    }
    if case .timestamp(let c) = constant { timestampConstant = c } else { timestampConstant = nil }
    switch constant {
    case .string(let s): pattern = Array(s.utf8)
    case .binary(let b): pattern = b
    default: pattern = nil
    }
    folded = pattern.map { RealmStrings.Folded($0) }
    leafScan = kind == .string ? StringLeafScan(condition: condition, pattern: pattern) : nil
  }

  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool {
    let v = property < object.values.count ? object.values[property] : .null
    return matches(v)
  }

  /// The condition for one stored value.
  func matches(_ v: RealmValue) -> Bool {
    switch kind {
    case .int:
      guard case .int(let x) = v else { return matchesInt(nil) }
      return matchesInt(x)
    case .bool:
      guard case .bool(let c) = constant else { return false }
      guard case .bool(let x) = v else { return condition == .notEqual || condition == .notEqualIns }
      return condition == .equal || condition == .equalIns ? x == c : x != c
    case .timestamp:
      guard case .date(let x) = v else { return matchesTimestamp(nil) }
      return matchesTimestamp(x)
    case .float, .double:
      switch v {
      case .float(let f): return matchesDouble(Double(f))
      case .double(let d): return matchesDouble(d)
      default: return matchesDouble(nil)
      }
    case .decimal:
      guard case .decimal(let c) = constant else { return false }
      guard case .decimal128(let x) = v, !x.isRealmNull else { return condition == .notEqual }
      return order(x.compareNumerically(to: c))
    case .objectId:
      guard case .objectId(let c) = constant else { return false }
      guard case .objectId(let x) = v else { return condition == .notEqual }
      return order(x == c ? 0 : (x < c ? -1 : 1))
    case .uuid:
      guard case .uuid(let c) = constant else { return false }
      guard case .uuid(let x) = v else { return condition == .notEqual }
      return order(x == c ? 0 : (x < c ? -1 : 1))
    case .string:
      switch v {
      case .string(var s): return s.withUTF8 { stringMatches($0) }
      default: return stringMatches(nil)
      }
    case .binary:
      switch v {
      case .data(let d): return d.withUnsafeBufferPointer { stringMatches($0) }
      default: return stringMatches(nil)
      }
    case .mixed:
      let x = QueryValue.mixed(v)
      if condition.isStringOperator || condition == .notEqualIns { return condition.holds(constant, x) }
      if condition == .equalIns, case .string = constant {
        return ValueOrder.comparable(constant, x) && condition.holds(constant, x)
      }
      guard condition.holds(x, constant) else { return false }
      if indexedMixedEquality, let data = indexedMixedData { return SearchIndex.indexData(v) == data }
      return true
    case .link, .typedLink, .backlink:
      return false
    }
  }

  /// The index data of a constant (``SearchIndex/indexData(_:)``); nil for a link or a
  /// collection.
  static func indexData(_ constant: QueryValue) -> [UInt8]? {
    switch constant {
    case .bool(let b): return SearchIndex.indexData(.bool(b))
    case .int(let i): return SearchIndex.indexData(.int(i))
    case .float(let f): return SearchIndex.indexData(.float(f))
    case .double(let d): return SearchIndex.indexData(.double(d))
    case .decimal(let d): return SearchIndex.indexData(.decimal128(d))
    case .string(let s): return SearchIndex.indexData(.string(s))
    case .binary(let b): return SearchIndex.indexData(.data(b))
    case .timestamp(let t): return SearchIndex.indexData(.date(t))
    case .objectId(let o): return SearchIndex.indexData(.objectId(o))
    case .uuid(let u): return SearchIndex.indexData(.uuid(u))
    default: return nil
    }
  }

  /// The condition of an int property for one stored value (nil: null).
  func matchesInt(_ x: Int64?) -> Bool {
    guard let c = intConstant else { return false }
    guard let x else { return condition == .notEqual }
    return order(x == c ? 0 : (x < c ? -1 : 1))
  }

  /// The condition of a float or double property for one stored value, widened (nil: null).
  func matchesDouble(_ x: Double?) -> Bool {
    guard let c = doubleConstant else { return false }
    guard let x else { return condition == .notEqual }
    switch condition {
    case .equal: return x == c
    case .notEqual: return x != c
    case .less: return x < c
    case .lessEqual: return x <= c
    case .greater: return x > c
    case .greaterEqual: return x >= c
    default: return false
    }
  }

  /// The condition of a date property for one stored value (nil: null).
  func matchesTimestamp(_ x: Timestamp?) -> Bool {
    guard let c = timestampConstant else { return false }
    guard let x else { return condition == .notEqual }
    return order(ValueOrder.timestamps(x, c))
  }

  private func order(_ c: Int) -> Bool { Self.orderMatches(condition, c) }

  private static func orderMatches(_ condition: QueryCondition, _ c: Int) -> Bool {
    switch condition {
    case .equal, .equalIns: return c == 0
    case .notEqual, .notEqualIns: return c != 0
    case .less: return c < 0
    case .lessEqual: return c <= 0
    case .greater: return c > 0
    case .greaterEqual: return c >= 0
    default: return false
    }
  }

  /// Strings and data: `text` nil is null; the pattern may be null (`pattern` nil).
  func stringMatches(_ text: UnsafeBufferPointer<UInt8>?) -> Bool {
    guard let p = pattern, let f = folded else {
      // A null pattern (Realm keeps it as a null string).
      switch condition {
      case .like, .likeIns: return text == nil
      case .beginsWith, .endsWith, .contains, .beginsWithIns, .endsWithIns, .containsIns: return true
      case .equal, .equalIns: return text == nil
      case .notEqual, .notEqualIns: return text != nil
      case .less: return false
      case .greater: return text != nil
      case .lessEqual: return text == nil
      case .greaterEqual: return true
      }
    }
    guard let t = text else {
      switch condition {
      case .notEqual, .notEqualIns: return true
      case .less, .lessEqual: return kind == .string
      default: return false
      }
    }
    switch condition {
    case .equal: return t.elementsEqual(p)
    case .notEqual: return !t.elementsEqual(p)
    case .equalIns: return RealmStrings.equalIns(t, f)
    case .notEqualIns: return !RealmStrings.equalIns(t, f)
    case .less: return ByteOrder.compare(t, p) < 0
    case .lessEqual: return ByteOrder.compare(t, p) <= 0
    case .greater: return ByteOrder.compare(t, p) > 0
    case .greaterEqual: return ByteOrder.compare(t, p) >= 0
    case .beginsWith: return RealmStrings.beginsWith(t, p)
    case .endsWith: return RealmStrings.endsWith(t, p)
    case .contains: return RealmStrings.contains(t, p)
    case .like: return RealmStrings.like(t, p, p)
    case .beginsWithIns: return RealmStrings.beginsWithIns(t, f)
    case .endsWithIns: return RealmStrings.endsWithIns(t, f)
    case .containsIns: return RealmStrings.containsIns(t, f)
    case .likeIns: return RealmStrings.like(t, f.lower, f.upper)
    }
  }
}

/// `property == null` / `!= null` of a string, data or `mixed` property of the queried object.
final class NullPredicate: QueryPredicate {
  let property: Int
  let isNull: Bool
  init(property: Int, isNull: Bool) {
    self.property = property
    self.isNull = isNull
  }
  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool {
    let v = property < object.values.count ? object.values[property] : .null
    return v.isNull == isNull
  }
}

/// `property IN {a, b, ...}` of a property of the queried object (Realm's `Query::in`): an
/// int property matches ints (and doubles holding whole numbers) and null when optional;
/// string, ObjectId and UUID properties their own type and null; other properties only
/// values of exactly their type, and null when optional.
final class InListPredicate: QueryPredicate {
  let property: Int
  let kind: ValueKind
  let needles: [QueryValue]
  let matchesNull: Bool

  init(property: Int, kind: ValueKind, isOptional: Bool, list: [QueryValue]) {
    self.property = property
    self.kind = kind
    var accepted: [QueryValue] = []
    var null = false
    for v in list {
      switch (kind, v) {
      case (_, .null): null = kind == .string || kind == .objectId || kind == .uuid || isOptional
      case (.int, .int): accepted.append(v)
      case (.int, .double(let d)):
        // Only a double holding a whole number counts (JavaScript passes numbers as doubles).
        if let i = Int64(exactly: d) { accepted.append(.int(i)) }
      case (.string, .string), (.objectId, .objectId), (.uuid, .uuid), (.bool, .bool), (.binary, .binary),
        (.timestamp, .timestamp), (.float, .float), (.double, .double), (.decimal, .decimal):
        accepted.append(v)
      default: continue
      }
    }
    needles = accepted
    matchesNull = null
  }

  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool {
    matches(property < object.values.count ? object.values[property] : .null)
  }

  /// The condition for one stored value.
  func matches(_ v: RealmValue) -> Bool {
    let q = QueryValue.scalar(v)
    if q.isNull { return matchesNull }
    switch kind {
    case .float, .double:
      // Realm's float and double equality (IEEE: NaN equals nothing).
      return needles.contains { ColumnPredicate(property: 0, kind: kind, condition: .equal, constant: $0).matches(v) }
    case .decimal:
      guard case .decimal128(let x) = v else { return false }
      return needles.contains { if case .decimal(let c) = $0 { return x.compareNumerically(to: c) == 0 } else { return false } }
    default:
      return needles.contains { QueryCondition.equal(q, $0) }
    }
  }
}

/// `link == O5` / `link != O5` on a link property of the queried object (Realm's `links_to`).
final class LinksToPredicate: QueryPredicate {
  let property: Int
  let collection: CollectionKind
  let keys: [Int64?]
  let equal: Bool

  init(property: Int, collection: CollectionKind, keys: [Int64?], equal: Bool) {
    self.property = property
    self.collection = collection
    self.keys = keys
    self.equal = equal
  }

  private static func key(_ v: RealmValue) -> Int64? {
    switch v {
    case .link(let l): return l.key
    case .embedded(let e): return e.key
    default: return nil
    }
  }

  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool {
    let v = property < object.values.count ? object.values[property] : .null
    switch collection {
    case .single:
      let k = Self.key(v)
      return equal ? keys.contains { $0 == k } : keys.first.map { $0 != k } ?? false
    case .list, .set:
      let items: [RealmValue]
      switch v {
      case .list(let l), .set(let l): items = l
      default: items = []
      }
      let present = items.compactMap(Self.key)
      if equal { return keys.contains { k in k.map { present.contains($0) } ?? false } }
      let k = keys.first ?? nil
      return present.contains { $0 != k }
    case .dictionary:
      guard case .dictionary(let entries) = v else { return false }
      let present = entries.map { Self.key($0.value) }
      if equal { return keys.contains { k in k != nil && present.contains(k) } }
      let k = keys.first ?? nil
      return present.contains { $0 != k }
    }
  }
}

/// `property BETWEEN {a, b}` on an int or date property of the queried object: nulls never
/// match.
final class BetweenPredicate: QueryPredicate {
  let property: Int
  let low: QueryValue
  let high: QueryValue

  init(property: Int, low: QueryValue, high: QueryValue) {
    self.property = property
    self.low = low
    self.high = high
  }

  func matches(_ object: QueryObject, _ ctx: inout QueryContext) throws -> Bool {
    let v = property < object.values.count ? object.values[property] : .null
    switch (v, low, high) {
    case (.int(let x), .int(let a), .int(let b)): return x >= a && x <= b
    case (.date(let t), .timestamp(let a), .timestamp(let b)):
      return ValueOrder.timestamps(t, a) >= 0 && ValueOrder.timestamps(t, b) <= 0
    default: return false
    }
  }
}
