import RealmModel

/// A bound value expression of a query: what one side of a comparison computes per object.
///
/// Evaluation returns one or more ``ValueGroup``s: paths through dictionaries or `mixed`
/// values can reach several collections, and a comparison matches when it matches for any of
/// them, as in Realm.
protocol QueryExpression: AnyObject, Sendable {
  /// Realm's type of the values, as the parser checks it.
  var type: QueryType { get }
  /// `ANY`/`ALL`/`NONE` written before the path.
  var quantifier: QuerySyntax.Quantifier? { get }
  /// True when the values come from a collection (Realm's `has_multiple_values`).
  var hasMultipleValues: Bool { get }
  /// The source text, for messages.
  var text: String { get }
  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup]
}

extension QueryExpression {
  var quantifier: QuerySyntax.Quantifier? { nil }
  var hasMultipleValues: Bool { false }
}

/// A constant or a list of constants (`{1, 2}`).
final class ConstantExpression: QueryExpression {
  let values: [QueryValue]
  let fromList: Bool
  let type: QueryType
  let quantifier: QuerySyntax.Quantifier?
  let text: String
  /// True for the constant `@type` set of a typed property (`int_req.@type`).
  let isTypeOfValue: Bool

  init(_ values: [QueryValue], fromList: Bool, type: QueryType, quantifier: QuerySyntax.Quantifier? = nil, text: String, isTypeOfValue: Bool = false) {
    self.values = values
    self.fromList = fromList
    self.type = type
    self.quantifier = quantifier
    self.text = text
    self.isTypeOfValue = isTypeOfValue
  }

  var hasMultipleValues: Bool { fromList }
  var hasSingleValue: Bool { values.count == 1 }
  var group: ValueGroup { ValueGroup(values, fromList: fromList) }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] { [group] }
}

/// A path element inside a `mixed` value or a dictionary (`dict['a'].b[0]`, `[*]`, `@keys`).
enum CollectionPathElement: Sendable, Equatable {
  case key(String)
  case index(Int)  // -1: LAST
  case all
}

/// Walks a path into nested collections of `mixed` values, as Realm's `Collection::get_any`:
/// every value reaching the last element starts a group of the values it yields.
struct CollectionPath: Sendable {
  var elements: [CollectionPathElement]
  /// False once a `[*]` or `@keys` can yield several values per group.
  var onlyUnaryKeys: Bool

  func walk(_ value: RealmValue, from index: Int, typed: TypedValueReader?, _ ctx: inout QueryContext, into matches: inout [[QueryValue]]) throws {
    let element = elements[index]
    let atEnd = index == elements.count - 1
    if atEnd { matches.append([]) }
    func emit(_ v: RealmValue, _ reader: TypedValueReader?, _ ctx: inout QueryContext) throws {
      if atEnd {
        matches[matches.count - 1].append(reader?.convert(v) ?? .mixed(v))
      } else {
        try walk(v, from: index + 1, typed: nil, &ctx, into: &matches)
      }
    }
    switch (value, element) {
    case (.dictionary(let entries), .key(let k)):
      guard !entries.isEmpty else { return }
      if let e = entries.first(where: { $0.key == k }) {
        try emit(e.value, nil, &ctx)
      } else if k == "@keys" {
        for e in entries { matches[matches.count - 1].append(.string(e.key)) }
      } else if atEnd {
        matches[matches.count - 1].append(.null)
      }
    case (.dictionary(let entries), .all):
      for e in entries { try emit(e.value, nil, &ctx) }
    case (.list(let items), .index(let i)):
      guard !items.isEmpty else { return }
      let start = i < 0 ? items.count - 1 : i
      if start < items.count { try emit(items[start], nil, &ctx) }
    case (.list(let items), .all):
      for item in items { try emit(item, nil, &ctx) }
    case (.link(let l), .key(let name)):
      guard let ci = ctx.schema.classIndex(l.className), let pi = ctx.schema.classes[ci].propertyIndex(name),
        let object = try ctx.object(classIndex: ci, key: l.key)
      else { return }
      let property = ctx.schema.classes[ci].properties[pi]
      let v = pi < object.values.count ? object.values[pi] : .null
      let reader = TypedValueReader(property)
      if atEnd {
        matches[matches.count - 1].append(reader.convert(v))
      } else {
        try walk(v, from: index + 1, typed: reader, &ctx, into: &matches)
      }
    default:
      return
    }
  }

  /// The groups a value yields: at least one (empty when nothing matched).
  func groups(of values: [RealmValue], _ ctx: inout QueryContext) throws -> [ValueGroup] {
    var matches: [[QueryValue]] = []
    for v in values { try walk(v, from: 0, typed: nil, &ctx, into: &matches) }
    if matches.isEmpty { return [.emptyList] }
    return matches.map { ValueGroup($0, fromList: !onlyUnaryKeys || $0.isEmpty) }
  }
}

/// Converts the stored values of one property to query values (links of link properties are
/// object keys, values of `mixed` keep their links typed).
struct TypedValueReader: Sendable {
  let isMixed: Bool
  init(_ property: Property) { isMixed = property.type == .mixed }
  init(isMixed: Bool) { self.isMixed = isMixed }
  func convert(_ v: RealmValue) -> QueryValue { isMixed ? .mixed(v) : .scalar(v) }
}

/// A property read through a chain of links (Realm's `Columns<T>`): one value per object, or
/// one per object reached when the chain goes through collections or backlinks. A `mixed`
/// property may continue with a path into its nested collections.
final class PropertyExpression: QueryExpression {
  let chain: LinkChain
  let property: Int
  let type: QueryType
  let quantifier: QuerySyntax.Quantifier?
  let reader: TypedValueReader
  let path: CollectionPath?
  let text: String
  /// The property's declaration.
  let declaration: Property

  init(chain: LinkChain, property: Int, declaration: Property, type: QueryType, quantifier: QuerySyntax.Quantifier?, path: CollectionPath?, text: String) {
    self.chain = chain
    self.property = property
    self.declaration = declaration
    self.type = type
    self.quantifier = quantifier
    self.reader = TypedValueReader(declaration)
    self.path = path
    self.text = text
  }

  var hasMultipleValues: Bool { !chain.isEmpty && !chain.onlyUnary }
  /// True for a property of the queried object itself (no links, no path): Realm then uses
  /// its column conditions.
  var isPlainColumn: Bool { chain.isEmpty && path == nil }

  /// The stored values: one (possibly null), or one per object reached (`fromList`).
  func rawValues(_ object: QueryObject, _ ctx: inout QueryContext) throws -> (values: [RealmValue], fromList: Bool) {
    if chain.isEmpty { return ([property < object.values.count ? object.values[property] : .null], false) }
    if chain.onlyUnary {
      guard let t = try chain.firstTarget(from: object, &ctx) else { return ([.null], false) }
      return ([property < t.values.count ? t.values[property] : .null], false)
    }
    let targets = try chain.targets(from: object, &ctx)
    return (targets.map { property < $0.values.count ? $0.values[property] : .null }, true)
  }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    let (raw, fromList) = try rawValues(object, &ctx)
    if let path { return try path.groups(of: raw, &ctx) }
    return [ValueGroup(raw.map(reader.convert), fromList: fromList)]
  }
}

/// A link property as a value (Realm's `Columns<Link>`): the keys of the objects it reaches.
final class LinkExpression: QueryExpression {
  /// The chain including the link property itself as its last step.
  let chain: LinkChain
  let quantifier: QuerySyntax.Quantifier?
  let text: String
  let isList: Bool
  var type: QueryType { .link }

  init(chain: LinkChain, quantifier: QuerySyntax.Quantifier?, isList: Bool, text: String) {
    self.chain = chain
    self.quantifier = quantifier
    self.isList = isList
    self.text = text
  }

  var hasMultipleValues: Bool { isList || !chain.onlyUnary }
  var targetClass: Int { chain.current }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    let targets = try chain.targets(from: object, &ctx)
    let name = ctx.schema.classes[chain.current].name
    let keys = targets.map { QueryValue.objectKey(ObjectLink(className: name, key: $0.key)) }
    if chain.onlyUnary { return [ValueGroup([keys.first ?? .null], fromList: false)] }
    return [ValueGroup(keys, fromList: true)]
  }
}

/// A collection property of primitives or `mixed` (list, set or dictionary; Realm's
/// `ColumnsCollection`), through a chain of links: one group per collection reached.
final class CollectionExpression: QueryExpression {
  let chain: LinkChain
  let property: Int
  let declaration: Property
  let quantifier: QuerySyntax.Quantifier?
  let text: String
  /// `[n]`/`[LAST]` of a list.
  let index: Int?
  /// A path into nested `mixed` values (lists of `mixed` with more than one element, and
  /// every dictionary: `[*]` by default).
  let path: CollectionPath?
  let reader: TypedValueReader

  init(chain: LinkChain, property: Int, declaration: Property, quantifier: QuerySyntax.Quantifier?, index: Int?, path: CollectionPath?, text: String) {
    self.chain = chain
    self.property = property
    self.declaration = declaration
    self.quantifier = quantifier
    self.index = index
    self.path = path
    self.text = text
    reader = TypedValueReader(declaration)
  }

  var isDictionary: Bool { declaration.collection == .dictionary }
  var isSet: Bool { declaration.collection == .set }
  var hasMultipleValues: Bool { true }
  /// Realm's type: the element type (`mixed` for dictionaries).
  var type: QueryType { isDictionary ? .mixed : QueryBinder.queryType(declaration.type) }
  /// The type of the elements.
  var elementType: QueryType { QueryBinder.queryType(declaration.type) }

  /// The collections reached (nil for a missing one) and whether they come from several
  /// objects (Realm's `get_lists`).
  func collections(_ object: QueryObject, _ ctx: inout QueryContext) throws -> (values: [RealmValue?], fromList: Bool) {
    func value(_ o: QueryObject) -> RealmValue? { property < o.values.count ? o.values[property] : nil }
    if chain.isEmpty { return ([value(object)], false) }
    if chain.onlyUnary {
      guard let t = try chain.firstTarget(from: object, &ctx) else { return ([nil], false) }
      return ([value(t)], false)
    }
    return (try chain.targets(from: object, &ctx).map(value), true)
  }

  static func elements(_ v: RealmValue?) -> [RealmValue] {
    switch v {
    case .list(let l)?, .set(let l)?: return l
    case .dictionary(let d)?: return d.map(\.value)
    default: return []
    }
  }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    let (lists, _) = try collections(object, &ctx)
    if isDictionary {
      var matches: [[QueryValue]] = []
      var unary = path?.onlyUnaryKeys ?? false
      if !chain.onlyUnary { unary = false }
      let p = path ?? CollectionPath(elements: [.all], onlyUnaryKeys: false)
      for case let d? in lists {
        if case .dictionary = d { try p.walk(d, from: 0, typed: nil, &ctx, into: &matches) }
      }
      if matches.isEmpty { return [.emptyList] }
      return matches.map { ValueGroup($0, fromList: !unary || $0.isEmpty) }
    }
    if let path, path.elements.count > 1 {
      // A list of mixed with a path: the selected elements continue along the path.
      var matches: [[QueryValue]] = []
      let rest = CollectionPath(elements: path.elements, onlyUnaryKeys: path.onlyUnaryKeys)
      for list in lists {
        for item in selected(Self.elements(list)) {
          try rest.walk(item, from: 1, typed: nil, &ctx, into: &matches)
        }
      }
      if matches.isEmpty { return [.emptyList] }
      return matches.map { ValueGroup($0, fromList: !path.onlyUnaryKeys || $0.isEmpty) }
    }
    if lists.isEmpty { return [.emptyList] }
    return lists.map { list in
      let items = Self.elements(list)
      if let index {
        if items.isEmpty { return .emptyList }
        let i = index < 0 ? items.count - 1 : index
        return ValueGroup([i < items.count ? reader.convert(items[i]) : .null], fromList: true)
      }
      return ValueGroup(items.map(reader.convert), fromList: true)
    }
  }

  private func selected(_ items: [RealmValue]) -> [RealmValue] {
    guard let index else { return items }
    if items.isEmpty { return [] }
    let i = index < 0 ? items.count - 1 : index
    return i < items.count ? [items[i]] : []
  }
}

/// `dictionary.@keys`.
final class DictionaryKeysExpression: QueryExpression {
  let collection: CollectionExpression
  var type: QueryType { .string }
  var quantifier: QuerySyntax.Quantifier? { collection.quantifier }
  var text: String { collection.text }

  init(_ collection: CollectionExpression) { self.collection = collection }

  var hasMultipleValues: Bool { false }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    let (dicts, _) = try collection.collections(object, &ctx)
    if dicts.isEmpty { return [.emptyList] }
    return dicts.map { d in
      guard case .dictionary(let entries)? = d else { return .emptyList }
      return ValueGroup(entries.map { .string($0.key) }, fromList: true)
    }
  }
}

/// The byte length of each string, binary or string in a list (`list.length`).
final class ElementLengthExpression: QueryExpression {
  let collection: CollectionExpression
  var type: QueryType { .int }
  var quantifier: QuerySyntax.Quantifier? { collection.quantifier }
  var text: String { collection.text + ".length" }
  var hasMultipleValues: Bool { true }

  init(_ collection: CollectionExpression) { self.collection = collection }

  func evaluate(_ object: QueryObject, _ ctx: inout QueryContext) throws -> [ValueGroup] {
    let (lists, _) = try collection.collections(object, &ctx)
    var sizes: [QueryValue] = []
    for list in lists {
      for item in CollectionExpression.elements(list) {
        switch item {
        case .string(let s): sizes.append(.int(Int64(s.utf8.count)))
        case .data(let d): sizes.append(.int(Int64(d.count)))
        case .null where !collection.reader.isMixed: sizes.append(.int(0))
        default: continue
        }
      }
    }
    return [ValueGroup(sizes, fromList: true)]
  }
}
