import RealmFormat
import RealmModel

/// Binds a parsed query to a class of a schema: resolves key paths, converts literals, checks
/// types, and picks for every comparison the evaluation Realm's query builder picks (a column
/// condition for a property of the object compared with a literal, an expression comparison
/// otherwise), since the two treat null, NaN and strings differently.
struct QueryBinder {
  typealias Located = QueryError.Located

  let schema: QuerySchema
  let lookup: QueryConstants.Lookup?
  /// The properties the query reads (shared with the binders of subqueries).
  let reads = PropertyReads()
  let source: [UInt8]
  /// The class a predicate is evaluated on (changes inside SUBQUERY).
  var base: Int
  /// SUBQUERY variables: (class, variable).
  var variables: [(Int, String)] = []
  var depth = 0

  init(schema: QuerySchema, base: Int, source: String, lookup: QueryConstants.Lookup?) {
    self.schema = schema
    self.base = base
    self.source = Array(source.utf8)
    self.lookup = lookup
  }

  func text(_ start: Int, _ end: Int) -> String {
    let lo = min(max(0, start), source.count)
    return String(decoding: source[lo..<min(max(lo, end), source.count)], as: UTF8.self)
  }

  static func queryType(_ t: PropertyType) -> QueryType {
    switch t {
    case .bool: return .bool
    case .int: return .int
    case .float: return .float
    case .double: return .double
    case .decimal128: return .decimal
    case .objectId: return .objectId
    case .uuid: return .uuid
    case .string: return .string
    case .data: return .binary
    case .date: return .timestamp
    case .mixed: return .mixed
    case .object: return .link
    }
  }

  // MARK: - Predicates

  mutating func bind(_ p: QuerySyntax.Predicate) throws(Located) -> any QueryPredicate {
    depth += 1
    defer { depth -= 1 }
    if depth > QueryParser.maxDepth { throw .init(0, "the query is nested more than \(QueryParser.maxDepth) levels deep") }
    switch p {
    case .constant(let b, _): return ConstantPredicate(b)
    case .and(let items):
      var out: [any QueryPredicate] = []
      for i in items { out.append(try bind(i)) }
      return AndPredicate(out)
    case .or(let items):
      var out: [any QueryPredicate] = []
      for i in items { out.append(try bind(i)) }
      return OrPredicate(out)
    case .not(let inner, _): return NotPredicate(try bind(inner))
    case .comparison(let c): return try bindComparison(c)
    }
  }

  private mutating func bindComparison(_ c: QuerySyntax.Comparison) throws(Located) -> any QueryPredicate {
    switch c.kind {
    case .equality(let op): return try bindEquality(op, c)
    case .relational(let op): return try bindRelational(op, c.left, c.right, offset: c.operatorOffset)
    case .string(let op): return try bindStringOperator(op, c)
    case .between: return try bindBetween(c)
    case .text: throw .init(c.operatorOffset, "TEXT (full-text search) needs a full-text index, which realmctl does not support")
    case .geoWithin: throw .init(c.operatorOffset, "GEOWITHIN queries are not supported by realmctl")
    }
  }

  /// Binds both sides as Realm does: a literal side is converted for the other side's type.
  private mutating func bindSides(
    _ left: QuerySyntax.Expression, _ right: QuerySyntax.Expression, offset: Int
  ) throws(Located) -> (any QueryExpression, any QueryExpression) {
    let leftConstant = left.isConstant
    let rightConstant = right.isConstant
    if leftConstant && rightConstant {
      throw .init(left.offset, "Cannot compare two constants ('\(describe(left))' and '\(describe(right))'); one side must be a property")
    }
    let l: any QueryExpression
    let r: any QueryExpression
    if rightConstant {
      l = try bindExpression(left, hint: .int)
      r = try bindExpression(right, hint: l.type)
      try verify(l, r, offset)
    } else {
      r = try bindExpression(right, hint: .int)
      l = leftConstant ? try bindExpression(left, hint: r.type) : try bindExpression(left, hint: .int)
      try verify(r, l, offset)
    }
    return (l, r)
  }

  private func describe(_ e: QuerySyntax.Expression) -> String {
    text(e.offset, end(of: e))
  }

  private func end(of e: QuerySyntax.Expression) -> Int {
    switch e {
    case .constant(let c): return c.offset + c.text.utf8.count
    case .property(let p): return p.path.offset + p.path.text.utf8.count
    default: return e.offset + 1
    }
  }

  /// Realm's checks on the two sides of a comparison.
  private func verify(_ a: any QueryExpression, _ b: any QueryExpression, _ offset: Int) throws(Located) {
    if a is CollectionExpression && b is CollectionExpression {
      throw .init(offset, "Ordered comparison between two primitive lists is not implemented yet ('\(a.text)' and '\(b.text)')")
    }
    if let x = a as? ConstantExpression, x.type == .typeOfValue, let y = b as? ConstantExpression, y.type == .typeOfValue {
      throw .init(offset, "Comparison between two constants is not supported ('\(a.text)' and '\(b.text)'): '@type' of a property that is not mixed is known in advance")
    }
    if let link = a as? LinkExpression, link.hasMultipleValues, let c = b as? ConstantExpression, c.hasSingleValue, c.values[0].isNull {
      throw .init(offset, "Cannot compare linklist ('\(a.text)') with NULL; use '\(a.text).@count == 0'")
    }
  }

  private func typeName(_ t: QueryType) -> String { t.description }

  private mutating func bindEquality(_ op: QuerySyntax.EqualityOperator, _ c: QuerySyntax.Comparison) throws(Located) -> any QueryPredicate {
    var (l, r) = try bindSides(c.left, c.right, offset: c.operatorOffset)
    var lt = l.type
    var rt = r.type
    if lt == .link, let constant = r as? ConstantExpression, let link = l as? LinkExpression {
      r = try linkKeys(constant, link, c.operatorOffset)
      rt = .link
    }
    if rt == .link, let constant = l as? ConstantExpression, let link = r as? LinkExpression {
      l = try linkKeys(constant, link, c.operatorOffset)
      lt = .link
    }
    if lt != .null && rt != .null && !QueryType.areComparable(lt, rt) {
      throw .init(c.operatorOffset, "Unsupported comparison between type '\(typeName(lt))' and type '\(typeName(rt))' (\(l.text) and \(r.text))")
    }
    if (lt == .typeOfValue || rt == .typeOfValue) && lt != rt {
      throw .init(c.operatorOffset, "Unsupported comparison between @type and raw value: '\(typeName(lt))' and '\(typeName(rt))'; compare '@type' with a type name such as 'int'")
    }
    if op == .isIn && !r.hasMultipleValues {
      throw .init(c.operatorOffset, "The keypath following 'IN' must contain a list. Found '\(r.text)'")
    }
    if op == .isIn || op == .equal, let list = r as? ConstantExpression, list.fromList, list.type == .mixed, !list.values.isEmpty,
      list.quantifier ?? .any == .any, let property = l as? PropertyExpression, property.isPlainColumn, property.type != .mixed,
      let kind = ValueKind(property.type)
    {
      return InListPredicate(
        property: property.property, kind: kind, isOptional: property.declaration.isOptional, list: list.values)
    }
    if lt == .link && rt == .link, let constant = r as? ConstantExpression {
      if let link = l as? LinkExpression, link.chain.steps.count == 1, link.quantifier ?? .any == .any,
        case .forward(let p, _, let collection, nil) = link.chain.steps[0], op != .isIn
      {
        let keys = constant.values.map { v -> Int64? in if case .objectKey(let k) = v { return k.key } else { return nil } }
        if op == .equal { return LinksToPredicate(property: p, collection: collection, keys: keys, equal: true) }
        if keys.count == 1 { return LinksToPredicate(property: p, collection: collection, keys: keys, equal: false) }
      }
    } else if let constant = r as? ConstantExpression, constant.hasSingleValue, lt == rt || lt == .mixed,
      let property = l as? PropertyExpression, property.isPlainColumn, let kind = ValueKind(lt)
    {
      let value = constant.values[0]
      if value.isNull { return NullPredicate(property: property.property, isNull: op != .notEqual) }
      let stringLike = kind == .string || kind == .binary || kind == .mixed
      let condition: QueryCondition
      switch (op, c.caseInsensitive && stringLike) {
      case (.notEqual, false): condition = .notEqual
      case (.notEqual, true): condition = .notEqualIns
      case (_, false): condition = .equal
      case (_, true): condition = .equalIns
      }
      return ColumnPredicate(
        property: property.property, kind: kind, condition: condition, constant: value, indexed: property.declaration.isIndexed)
    }
    if !c.caseInsensitive { return ComparePredicate(op == .notEqual ? .notEqual : .equal, l, r) }
    try requireStringType(rt, op == .notEqual ? "!=[c]" : (op == .isIn ? "in[c]" : "=[c]"), c.operatorOffset)
    return ComparePredicate(op == .notEqual ? .notEqualIns : .equalIns, l, r)
  }

  /// Link literals compared with a link property become keys of its target class.
  private func linkKeys(_ constant: ConstantExpression, _ link: LinkExpression, _ offset: Int) throws(Located) -> ConstantExpression {
    let target = schema.classes[link.targetClass].name
    var keys: [QueryValue] = []
    for v in constant.values {
      switch v {
      case .null: keys.append(.null)
      case .objectKey(let k): keys.append(.objectKey(ObjectLink(className: target, key: k.key)))
      case .typedLink(let l):
        guard l.className == target else {
          throw .init(offset, "The relationship '\(link.text)' which links to type '\(target)' cannot be compared to an object of type '\(l.className)'")
        }
        keys.append(.objectKey(ObjectLink(className: target, key: l.key)))
      default:
        throw .init(offset, "Unsupported comparison between '\(link.text)' and type '\(typeName(v.dataType))'; compare a link with null, another link or obj('\(target)', primaryKey)")
      }
    }
    return ConstantExpression(keys, fromList: constant.fromList, type: .link, quantifier: constant.quantifier, text: constant.text)
  }

  private func requireStringType(_ t: QueryType, _ op: String, _ offset: Int) throws(Located) {
    guard t == .string || t == .binary || t == .mixed else {
      throw .init(offset, "Unsupported comparison operator '\(op)' against type '\(typeName(t))', right side must be a string or binary type")
    }
  }

  private mutating func bindRelational(
    _ op: QuerySyntax.RelationalOperator, _ left: QuerySyntax.Expression, _ right: QuerySyntax.Expression, offset: Int
  ) throws(Located) -> any QueryPredicate {
    let (l, r) = try bindSides(left, right, offset: offset)
    let lt = l.type
    let rt = r.type
    if lt == .link || lt == .typeOfValue {
      throw .init(offset, "Unsupported operator \(op.rawValue) in query. Only equal (==) and not equal (!=) are supported for this type.")
    }
    let rightNull = (r as? ConstantExpression).map { $0.hasSingleValue && $0.values[0].isNull } ?? false
    let leftNull = (l as? ConstantExpression).map { $0.hasSingleValue && $0.values[0].isNull } ?? false
    if !(leftNull || rightNull) && (lt == .null || rt == .null || !QueryType.areComparable(lt, rt)) {
      throw .init(offset, "Unsupported comparison between type '\(typeName(lt))' and type '\(typeName(rt))' (\(l.text) and \(r.text))")
    }
    let condition: QueryCondition
    switch op {
    case .less: condition = .less
    case .lessEqual: condition = .lessEqual
    case .greater: condition = .greater
    case .greaterEqual: condition = .greaterEqual
    }
    if let property = l as? PropertyExpression, property.isPlainColumn, let constant = r as? ConstantExpression,
      constant.hasSingleValue, lt == rt || lt == .mixed, let kind = ValueKind(lt), kind != .bool, kind != .binary
    {
      return ColumnPredicate(property: property.property, kind: kind, condition: condition, constant: constant.values[0])
    }
    return ComparePredicate(condition, l, r)
  }

  private mutating func bindStringOperator(_ op: QuerySyntax.StringOperator, _ c: QuerySyntax.Comparison) throws(Located) -> any QueryPredicate {
    let (l, r) = try bindSides(c.left, c.right, offset: c.operatorOffset)
    let name = op.rawValue.lowercased()
    try requireStringType(r.type, name, c.operatorOffset)
    let condition: QueryCondition
    switch (op, c.caseInsensitive) {
    case (.beginsWith, false): condition = .beginsWith
    case (.beginsWith, true): condition = .beginsWithIns
    case (.endsWith, false): condition = .endsWith
    case (.endsWith, true): condition = .endsWithIns
    case (.contains, false): condition = .contains
    case (.contains, true): condition = .containsIns
    case (.like, false): condition = .like
    case (.like, true): condition = .likeIns
    }
    if let property = l as? PropertyExpression, property.isPlainColumn, let constant = r as? ConstantExpression,
      constant.hasSingleValue, l.type == r.type || l.type == .mixed, r.type == .string || r.type == .binary,
      let kind = ValueKind(l.type)
    {
      return ColumnPredicate(property: property.property, kind: kind, condition: condition, constant: constant.values[0])
    }
    return ComparePredicate(condition, r, l)
  }

  private mutating func bindBetween(_ c: QuerySyntax.Comparison) throws(Located) -> any QueryPredicate {
    guard case .list(let limits) = c.right, limits.elements.count == 2 else {
      throw .init(c.operatorOffset, "Operator 'BETWEEN' requires list with 2 elements.")
    }
    let prop = try bindExpression(c.left, hint: .int)
    if prop is CollectionExpression, prop.quantifier != .all {
      throw .init(c.operatorOffset, "Only 'ALL' supported for operator 'BETWEEN' when applied to lists.")
    }
    if let property = prop as? PropertyExpression, property.chain.isEmpty, property.type == .int || property.type == .timestamp {
      let low = try constantValue(limits.elements[0], hint: property.type)
      let high = try constantValue(limits.elements[1], hint: property.type)
      if low.isNull || high.isNull { throw .init(c.operatorOffset, "'from' or 'to' of BETWEEN must not be null") }
      guard low.dataType == property.type, high.dataType == property.type else {
        throw .init(c.operatorOffset, "BETWEEN on '\(property.text)' needs two \(property.type == .int ? "whole numbers" : "dates")")
      }
      return BetweenPredicate(property: property.property, low: low, high: high)
    }
    let low = QuerySyntax.Expression.constant(limits.elements[0])
    let high = QuerySyntax.Expression.constant(limits.elements[1])
    return AndPredicate([
      try bindRelational(.greaterEqual, c.left, low, offset: c.operatorOffset),
      try bindRelational(.lessEqual, c.left, high, offset: c.operatorOffset),
    ])
  }

  // MARK: - Expressions

  mutating func bindExpression(_ e: QuerySyntax.Expression, hint: QueryType) throws(Located) -> any QueryExpression {
    switch e {
    case .constant(let c):
      let v = try constantValue(c, hint: hint)
      return try constantExpression(v, hint: hint, c)
    case .list(let list): return try bindList(list, hint: hint)
    case .property(let p): return try bindProperty(p)
    case .aggregate(let a): return try bindAggregate(a)
    case .subquery(let s): return try bindSubquery(s)
    case .parenthesized(let inner, _): return try bindExpression(inner, hint: hint)
    case .arithmetic(let op, let l, let r, let offset): return try bindArithmetic(op, l, r, hint: hint, offset: offset)
    }
  }

  private func constantValue(_ c: QuerySyntax.Constant, hint: QueryType) throws(Located) -> QueryValue {
    let raw = try QueryConstants.value(of: c, schema: schema, lookup: lookup)
    if raw.isNull { return .null }
    return try QueryConstants.convert(raw, hint: hint, constant: c)
  }

  private func constantExpression(_ v: QueryValue, hint: QueryType, _ c: QuerySyntax.Constant) throws(Located) -> ConstantExpression {
    let text = c.objectClass.map { "obj('\($0)', \(c.text))" } ?? c.text
    if v.isNull {
      let type: QueryType = hint == .string ? .string : (hint == .binary ? .binary : .null)
      return ConstantExpression([.null], fromList: false, type: type, text: text)
    }
    if hint == .typeOfValue, case .string(let s) = v {
      guard let t = TypeOfValue.parse(s) else {
        throw .init(c.offset, "Unable to parse the type attribute string '\(s)', supported case insensitive values are: [\(TypeOfValue.names.map(\.0).joined(separator: ", "))]")
      }
      return ConstantExpression([.typeOf(t)], fromList: false, type: .typeOfValue, text: text)
    }
    return ConstantExpression([v], fromList: false, type: v.dataType, text: text)
  }

  private func bindList(_ list: QuerySyntax.ConstantList, hint: QueryType) throws(Located) -> ConstantExpression {
    var values: [QueryValue] = []
    let text = self.text(list.offset, list.elements.last.map { $0.offset + $0.text.utf8.count + 1 } ?? list.offset + 2)
    for c in list.elements {
      let v = try constantValue(c, hint: hint)
      if hint == .typeOfValue {
        let e = try constantExpression(v, hint: hint, c)
        guard e.type == .typeOfValue else {
          throw .init(c.offset, "Invalid constant inside constant list: \(c.text) (a list compared with '@type' holds type names such as 'int')")
        }
        values.append(e.values[0])
      } else {
        values.append(v)
      }
    }
    return ConstantExpression(values, fromList: true, type: hint == .typeOfValue ? .typeOfValue : .mixed, quantifier: list.quantifier, text: text)
  }

  private mutating func bindArithmetic(
    _ op: Character, _ left: QuerySyntax.Expression, _ right: QuerySyntax.Expression, hint: QueryType, offset: Int
  ) throws(Located) -> any QueryExpression {
    let text = self.text(offset, end(of: right))
    if left.isConstant && right.isConstant && !(left.isList || right.isList) {
      let r = try bindExpression(right, hint: hint)
      let l = try bindExpression(left, hint: hint)
      guard let lc = l as? ConstantExpression, let rc = r as? ConstantExpression else {
        throw .init(offset, "cannot compute '\(text)'")
      }
      let v = ArithmeticExpression.apply(op, lc.values.first ?? .null, rc.values.first ?? .null)
      return ConstantExpression([v], fromList: false, type: .mixed, text: text)
    }
    let l: any QueryExpression
    let r: any QueryExpression
    if right.isConstant {
      l = try bindExpression(left, hint: .int)
      r = try bindExpression(right, hint: l.type)
    } else {
      r = try bindExpression(right, hint: .int)
      l = left.isConstant ? try bindExpression(left, hint: r.type) : try bindExpression(left, hint: .int)
    }
    guard l.type.isNumeric && r.type.isNumeric else {
      throw .init(offset, "Cannot perform '\(op)' operation on '\(l.text)' and '\(r.text)': both sides must be numbers")
    }
    if l.hasMultipleValues && r.hasMultipleValues {
      throw .init(offset, "Operations involving two lists are not supported ('\(text)')")
    }
    return ArithmeticExpression(op, l, r, text: text)
  }
}
