import RealmModel

/// `@size`/`@count` (and `[SIZE]`): of strings and data (bytes), of `mixed` values, of
/// collections, of link properties.
final class SizeExpression: QueryExpression {
  enum Source: Sendable {
    /// Byte length of strings and data, element count of collections in `mixed` values.
    case values(any QueryExpression)
    /// Element count of each collection reached.
    case collection(CollectionExpression)
    /// Number of links.
    case links(LinkExpression)
  }
  let source: Source
  let text: String
  var type: QueryType { .int }

  init(_ source: Source, text: String) {
    self.source = source
    self.text = text
  }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    switch source {
    case .values(let inner):
      return try inner.evaluate(object, &ctx).map { g in
        ValueGroup(g.values.map(Self.size), fromList: g.fromList)
      }
    case .collection(let c):
      let (lists, fromList) = try c.collections(object, &ctx)
      return [ValueGroup(lists.map { .int(Int64(CollectionExpression.elements($0).count)) }, fromList: fromList)]
    case .links(let l):
      let chain = l.chain
      if chain.steps.count > 1 {
        var prefix = chain
        let last = prefix.steps[prefix.steps.count - 1]
        prefix.removeLast()
        var counts: [QueryValue] = []
        for t in try prefix.targets(from: object, &ctx) {
          switch last {
          case .forward(let p, _, let collection, _):
            let v = p < t.values.count ? t.values[p] : .null
            switch (collection, v) {
            case (.single, .null): counts.append(.int(0))
            case (.single, _): counts.append(.int(1))
            case (_, .list(let items)), (_, .set(let items)): counts.append(.int(Int64(items.count)))
            case (_, .dictionary(let entries)): counts.append(.int(Int64(entries.count)))
            default: counts.append(.int(0))
            }
          case .backward(let origin, let property):
            let keys = try ctx.backlinks(from: origin, property: property, to: t.classIndex, key: t.key)
            counts.append(.int(Int64(keys.count)))
          }
        }
        return [ValueGroup(counts, fromList: true)]
      }
      return [.single(.int(Int64(try chain.targets(from: object, &ctx).count)))]
    }
  }

  /// Realm's size of one value (null for values without a size).
  static func size(_ v: QueryValue) -> QueryValue {
    switch v {
    case .string(let s): return .int(Int64(s.utf8.count))
    case .binary(let b): return .int(Int64(b.count))
    case .collection(let c):
      switch c {
      case .list(let l), .set(let l): return .int(Int64(l.count))
      case .dictionary(let d): return .int(Int64(d.count))
      default: return .null
      }
    default: return .null
    }
  }
}

/// `@type` of `mixed` values.
final class TypeOfExpression: QueryExpression {
  let inner: any QueryExpression
  var type: QueryType { .typeOfValue }
  var quantifier: QuerySyntax.Quantifier? { inner.quantifier }
  var text: String { inner.text + ".@type" }

  init(_ inner: any QueryExpression) { self.inner = inner }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    try inner.evaluate(object, &ctx).map { g in
      ValueGroup(g.values.map { .typeOf(TypeOfValue.of($0)) }, fromList: g.fromList)
    }
  }
}

/// `@min`, `@max`, `@sum`, `@avg`.
enum AggregateOperation: Sendable {
  case min, max, sum, avg
}

/// How a kind of value is aggregated, as Realm's aggregate operations do it.
enum Aggregation {
  /// The kinds Realm aggregates differently.
  enum Kind: Sendable {
    case int, float, double, decimal, timestamp, mixed

    init?(_ type: PropertyType) {
      switch type {
      case .int: self = .int
      case .float: self = .float
      case .double: self = .double
      case .decimal128: self = .decimal
      case .date: self = .timestamp
      case .mixed: self = .mixed
      default: return nil
      }
    }
  }

  /// Realm's type of an aggregate's result over links.
  static func resultType(_ op: AggregateOperation, _ kind: Kind) -> QueryType {
    switch (op, kind) {
    case (.min, .int), (.max, .int), (.sum, .int): return .int
    case (.min, .float), (.max, .float): return .float
    case (.sum, .float), (.avg, .float), (.avg, .int), (_, .double): return .double
    case (_, .decimal), (.sum, .mixed), (.avg, .mixed): return .decimal
    case (_, .timestamp): return .timestamp
    case (_, .mixed): return .mixed
    }
  }

  /// The aggregate of `values` (nulls and NaNs skipped as Realm skips them); null when there
  /// is nothing to take the minimum, maximum or average of; the sum of nothing is zero.
  static func apply(_ op: AggregateOperation, _ kind: Kind, _ values: [RealmValue]) -> QueryValue {
    switch kind {
    case .int:
      var count = 0
      var sum: Int64 = 0
      var dsum = 0.0
      var best: Int64?
      for case .int(let x) in values {
        count += 1
        sum = sum &+ x
        dsum += Double(x)
        if let b = best {
          if op == .min ? x < b : x > b { best = x }
        } else {
          best = x
        }
      }
      switch op {
      case .sum: return .int(sum)
      case .avg: return count == 0 ? .null : .double(dsum / Double(count))
      default: return best.map { .int($0) } ?? .null
      }
    case .float, .double:
      var count = 0
      var sum = 0.0
      var best: QueryValue?
      for v in values {
        let d: Double
        let q: QueryValue
        switch v {
        case .float(let f):
          d = Double(f)
          q = .float(f)
        case .double(let x):
          d = x
          q = .double(x)
        default: continue
        }
        if d.isNaN { continue }
        count += 1
        sum += d
        if let b = best {
          if op == .min ? ValueOrder.compare(q, b) < 0 : ValueOrder.compare(q, b) > 0 { best = q }
        } else {
          best = q
        }
      }
      switch op {
      case .sum: return .double(sum)
      case .avg: return count == 0 ? .null : .double(sum / Double(count))
      default: return best ?? .null
      }
    case .decimal:
      var count = 0
      var sum = Decimal128.zero
      var best: Decimal128?
      for case .decimal128(let x) in values where !x.isNaN {
        count += 1
        sum = DecimalMath.add(sum, x)
        if let b = best {
          let c = x.compareNumerically(to: b)
          if op == .min ? c < 0 : c > 0 { best = x }
        } else {
          best = x
        }
      }
      switch op {
      case .sum: return .decimal(sum)
      case .avg: return count == 0 ? .null : .decimal(DecimalMath.divide(sum, byCount: count))
      default: return best.map { .decimal($0) } ?? .null
      }
    case .timestamp:
      var best: Timestamp?
      for case .date(let t) in values {
        if let b = best {
          let c = ValueOrder.timestamps(t, b)
          if op == .min ? c < 0 : c > 0 { best = t }
        } else {
          best = t
        }
      }
      return best.map { .timestamp($0) } ?? .null
    case .mixed:
      switch op {
      case .min, .max:
        var best: QueryValue?
        for v in values {
          let q = QueryValue.mixed(v)
          if q.isNull { continue }
          if case .decimal(let d) = q, d.isNaN { continue }
          if let b = best {
            if op == .min ? ValueOrder.compare(q, b) < 0 : ValueOrder.compare(q, b) > 0 { best = q }
          } else {
            best = q
          }
        }
        return best ?? .null
      case .sum, .avg:
        var sum = Decimal128.zero
        var count = 0
        for v in values {
          let d: Decimal128
          switch v {
          case .int(let i): d = DecimalMath.from(i)
          case .double(let x): d = DecimalMath.from(x)
          case .float(let f): d = DecimalMath.from(f)
          case .decimal128(let x) where !x.isNaN: d = x
          default: continue
          }
          sum = DecimalMath.add(sum, d)
          count += 1
        }
        if op == .sum { return .decimal(sum) }
        return count == 0 ? .null : .decimal(DecimalMath.divide(sum, byCount: count))
      }
    }
  }
}

/// `list.@max` etc. of a collection of numbers (Realm's `CollectionColumnAggregate`).
final class CollectionAggregateExpression: QueryExpression {
  let collection: CollectionExpression
  let op: AggregateOperation
  let text: String

  init(_ collection: CollectionExpression, _ op: AggregateOperation, text: String) {
    self.collection = collection
    self.op = op
    self.text = text
  }

  /// Realm's type: the collection's element type.
  var type: QueryType { collection.elementType }

  private var kind: Aggregation.Kind {
    let t = collection.declaration.type
    if collection.isDictionary {
      // Realm sums and averages int, double and float dictionaries as such, every other
      // dictionary (and every minimum and maximum) as mixed values.
      switch (op, t) {
      case (.sum, .int), (.avg, .int): return .int
      case (.sum, .double), (.avg, .double): return .double
      case (.sum, .float), (.avg, .float): return .float
      default: return .mixed
      }
    }
    return Aggregation.Kind(t) ?? .mixed
  }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    let (lists, fromList) = try collection.collections(object, &ctx)
    let results = lists.map { Aggregation.apply(op, kind, CollectionExpression.elements($0)) }
    if collection.isDictionary, !collection.chain.isEmpty, collection.chain.onlyUnary {
      return [.single(results.first ?? Aggregation.apply(op, kind, []))]
    }
    if !fromList { return [.single(results.first ?? .null)] }
    return [ValueGroup(results, fromList: true)]
  }
}

/// `links.@max.property`: an aggregate of a property of the objects reached through links
/// (Realm's `SubColumnAggregate`).
final class LinkAggregateExpression: QueryExpression {
  let chain: LinkChain
  let property: Int
  let kind: Aggregation.Kind
  let op: AggregateOperation
  let text: String

  init(chain: LinkChain, property: Int, kind: Aggregation.Kind, op: AggregateOperation, text: String) {
    self.chain = chain
    self.property = property
    self.kind = kind
    self.op = op
    self.text = text
  }

  var type: QueryType { Aggregation.resultType(op, kind) }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    var targets = try chain.targets(from: object, &ctx)
    targets.sort { $0.key < $1.key }
    let values = targets.map { property < $0.values.count ? $0.values[property] : RealmValue.null }
    return [.single(Aggregation.apply(op, kind, values))]
  }
}

/// `@links.@count`: the number of links to the object (or to the objects a path reaches)
/// from every property of every class.
final class BacklinkCountExpression: QueryExpression {
  let chain: LinkChain
  let text: String
  var type: QueryType { .int }

  init(chain: LinkChain, text: String) {
    self.chain = chain
    self.text = text
  }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    if chain.isEmpty { return [.single(.int(Int64(try ctx.backlinkCount(classIndex: object.classIndex, key: object.key))))] }
    var total = 0
    for t in try chain.targets(from: object, &ctx) { total += try ctx.backlinkCount(classIndex: t.classIndex, key: t.key) }
    return [.single(.int(Int64(total)))]
  }
}

/// `SUBQUERY(list, $x, predicate).@count`.
final class SubqueryCountExpression: QueryExpression {
  let chain: LinkChain
  let predicate: any QueryPredicate
  let text: String
  var type: QueryType { .int }

  init(chain: LinkChain, predicate: any QueryPredicate, text: String) {
    self.chain = chain
    self.predicate = predicate
    self.text = text
  }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    var count: Int64 = 0
    for t in try chain.targets(from: object, &ctx) where try predicate.matches(t, &ctx) { count += 1 }
    return [.single(.int(count))]
  }
}

/// `a + b`, `a - b`, `a * b`, `a / b` on numbers (Realm's `Operator`): per value, in the
/// widest type of the two (int, float, double, decimal128); null when a side is null.
final class ArithmeticExpression: QueryExpression {
  let op: Character
  let left: any QueryExpression
  let right: any QueryExpression
  let text: String

  init(_ op: Character, _ left: any QueryExpression, _ right: any QueryExpression, text: String) {
    self.op = op
    self.left = left
    self.right = right
    self.text = text
  }

  var type: QueryType { left.type }
  var quantifier: QuerySyntax.Quantifier? {
    if !(left is ConstantExpression) { return left.quantifier }
    if !(right is ConstantExpression) { return right.quantifier }
    return nil
  }
  var hasMultipleValues: Bool { false }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    if let c = left as? ConstantExpression, c.hasSingleValue {
      let k = c.values[0]
      return try right.evaluate(object, &ctx).map { g in
        ValueGroup(g.values.map { Self.apply(op, k, $0) }, fromList: g.fromList)
      }
    }
    if let c = right as? ConstantExpression, c.hasSingleValue {
      let k = c.values[0]
      return try left.evaluate(object, &ctx).map { g in
        ValueGroup(g.values.map { Self.apply(op, $0, k) }, fromList: g.fromList)
      }
    }
    let ls = try left.evaluate(object, &ctx)
    let rs = try right.evaluate(object, &ctx)
    let n = max(ls.count, rs.count)
    var out: [ValueGroup] = []
    for i in 0..<n {
      let l = ls[i % ls.count]
      let r = rs[i % rs.count]
      switch (l.fromList, r.fromList) {
      case (false, false):
        let m = min(l.values.count, r.values.count)
        out.append(ValueGroup((0..<m).map { Self.apply(op, l.values[$0], r.values[$0]) }, fromList: false))
      case (true, true):
        throw QueryEvaluationError.twoLists(text)
      case (true, false):
        let k = r.values.first ?? .null
        out.append(ValueGroup(l.values.map { Self.apply(op, $0, k) }, fromList: true))
      case (false, true):
        let k = l.values.first ?? .null
        out.append(ValueGroup(r.values.map { Self.apply(op, k, $0) }, fromList: true))
      }
    }
    return out
  }

  /// Realm's rank of types for arithmetic: the result is computed in the higher one.
  private static func rank(_ v: QueryValue) -> Int {
    switch v {
    case .int: return 0
    case .bool: return 1
    case .string: return 2
    case .binary: return 4
    case .timestamp: return 8
    case .float: return 9
    case .double: return 10
    case .decimal: return 11
    default: return 12
    }
  }

  static func apply(_ op: Character, _ a: QueryValue, _ b: QueryValue) -> QueryValue {
    if a.isNull || b.isNull { return .null }
    switch max(rank(a), rank(b)) {
    case 0:
      guard case .int(let x) = a, case .int(let y) = b else { return .null }
      switch op {
      case "+": return .int(x &+ y)
      case "-": return .int(x &- y)
      case "*": return .int(x &* y)
      default:
        if y == 0 { return .int(x < 0 ? .min : .max) }
        return .int(x.dividedReportingOverflow(by: y).partialValue)
      }
    case 9:
      guard let x = floatValue(a), let y = floatValue(b) else { return .null }
      return .float(floatingPoint(op, x, y))
    case 10:
      guard let x = doubleValue(a), let y = doubleValue(b) else { return .null }
      return .double(floatingPoint(op, x, y))
    case 11:
      guard let x = decimalValue(a), let y = decimalValue(b) else { return .null }
      switch op {
      case "+": return .decimal(DecimalMath.add(x, y))
      case "-": return .decimal(DecimalMath.subtract(x, y))
      case "*": return .decimal(DecimalMath.multiply(x, y))
      default: return .decimal(DecimalMath.divide(x, y))
      }
    default:
      return .null
    }
  }

  /// `x op y` for `+`, `-`, `*`, and `/` for any other operator.
  private static func floatingPoint<F: BinaryFloatingPoint>(_ op: Character, _ x: F, _ y: F) -> F {
    switch op {
    case "+": return x + y
    case "-": return x - y
    case "*": return x * y
    default: return x / y
    }
  }

  private static func floatValue(_ v: QueryValue) -> Float? {
    switch v {
    case .int(let i): return Float(i)
    case .float(let f): return f
    default: return nil
    }
  }

  private static func doubleValue(_ v: QueryValue) -> Double? {
    switch v {
    case .int(let i): return Double(i)
    case .float(let f): return Double(f)
    case .double(let d): return d
    default: return nil
    }
  }

  private static func decimalValue(_ v: QueryValue) -> Decimal128? {
    switch v {
    case .int(let i): return DecimalMath.from(i)
    case .float(let f): return DecimalMath.from(f)
    case .double(let d): return DecimalMath.from(d)
    case .decimal(let d): return d
    default: return nil
    }
  }
}

extension QueryEvaluationError {
  /// Arithmetic between two collections.
  static func twoLists(_ text: String) -> QueryEvaluationError {
    .unsupported("'\(text)': arithmetic between two lists is not supported")
  }
}
