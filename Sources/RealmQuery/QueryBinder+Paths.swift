import RealmModel

/// Key paths: links, backlinks, collections, dictionary keys, paths into `mixed` values,
/// `@size`/`@type`, aggregates and subqueries.
extension QueryBinder {
  /// A name as seen from `classIndex`: a SUBQUERY variable there stands for the object itself.
  func translate(_ name: String, _ classIndex: Int) -> String {
    variables.contains { $0.0 == classIndex && $0.1 == name } ? "" : name
  }

  private func noProperty(_ cls: QueryClass, _ name: String, _ offset: Int) -> Located {
    var hint = Suggestion.hint(for: name, among: cls.properties.map(\.name))
    if hint.isEmpty && (name == "old" || name == "new") {
      hint = " (a query names properties without '\(name).', as in 'age > 18')"
    }
    return .init(offset, "'\(cls.name)' has no property '\(name)'\(hint)")
  }

  /// Follows the links of a path as far as they go (Realm's `PathNode::visit`): returns the
  /// chain and the position of the first element it did not consume.
  func visitPath(_ path: QuerySyntax.Path) throws(Located) -> (LinkChain, Int) {
    if let arg = path.keyPathArgument { throw QueryConstants.argumentError(arg, path.offset) }
    var chain = LinkChain(base: base)
    var i = 0
    let elements = path.elements
    loop: while i < elements.count {
      let offset = path.offsets[i]
      let element = elements[i]
      switch element {
      case .key(let raw), .quotedKey(let raw):
        let name = translate(raw, chain.current)
        if name.hasPrefix("@links.") {
          try backlink(&chain, name, offset)
          i += 1
          continue loop
        }
        if name == "@values" {
          guard case .forward(_, _, .dictionary, _)? = chain.steps.last else {
            throw .init(offset, "@values only allowed on dictionaries")
          }
          i += 1
          continue loop
        }
        if name.isEmpty {
          i += 1
          continue loop
        }
        let cls = schema.classes[chain.current]
        if let pi = cls.propertyIndex(name) {
          let p = cls.properties[pi]
          if p.type == .object {
            guard let target = p.objectType.flatMap(schema.classIndex) else {
              throw .init(offset, "'\(cls.name).\(name)' links to class '\(p.objectType ?? "")', which is not in the schema")
            }
            reads.add(chain.current, pi)
            chain.append(.forward(property: pi, target: target, collection: p.collection, index: nil), arrivingAt: target)
            i += 1
            continue loop
          }
          break loop
        }
      case .argument(let a):
        throw QueryConstants.argumentError(a, offset)
      default:
        break
      }
      guard applyIndex(&chain, element) else { break loop }
      i += 1
    }
    return (chain, i)
  }

  /// `links.@keys` on a dictionary of links that ends the chain: the keys of that dictionary
  /// (the chain stops at the object that holds it), nil for any other path.
  private func linkDictionaryKeys(
    _ chain: inout LinkChain, _ position: Int, _ p: QuerySyntax.PropertyPath
  ) throws(Located) -> (any QueryExpression)? {
    let elements = p.path.elements
    guard position == elements.count, position >= 1, p.postOperator == nil,
      case .forward(let pi, _, .dictionary, .key("@keys"))? = chain.steps.last
    else { return nil }
    chain.removeLast()
    let declaration = schema.classes[chain.current].properties[pi]
    let collection = CollectionExpression(
      chain: chain, property: pi, declaration: declaration, quantifier: p.quantifier, index: nil,
      path: CollectionPath(elements: [.all], onlyUnaryKeys: false), text: p.path.text)
    return DictionaryKeysExpression(collection)
  }

  /// `[n]`, `[LAST]`, `[*]`, `['key']` (or `.key`) on the last link collection of the chain.
  private func applyIndex(_ chain: inout LinkChain, _ element: QuerySyntax.PathElement) -> Bool {
    guard case .forward(let p, let t, let collection, nil)? = chain.steps.last else { return false }
    let index: LinkIndex
    switch (element, collection) {
    case (.all, _): return true
    case (.index(let n), .list): index = .position(n)
    case (.last, .list): index = .position(-1)
    case (.key(let k), .dictionary), (.quotedKey(let k), .dictionary): index = .key(k)
    default: return false
    }
    let target = chain.current
    chain.removeLast()
    chain.append(.forward(property: p, target: t, collection: collection, index: index), arrivingAt: target)
    return true
  }

  /// `@links.Class.property`: the objects of `Class` whose `property` links to the current one.
  private func backlink(_ chain: inout LinkChain, _ name: String, _ offset: Int) throws(Located) {
    let rest = name.dropFirst(7)
    let className: String
    let columnName: String
    if let dot = rest.firstIndex(of: ".") {
      className = String(rest[..<dot])
      columnName = String(rest[rest.index(after: dot)...])
    } else {
      className = String(rest)
      columnName = String(rest)
    }
    let current = schema.classes[chain.current]
    guard let origin = schema.classIndex(className),
      let pi = schema.classes[origin].propertyIndex(translate(columnName, origin))
    else {
      throw .init(offset, "No property '\(columnName)' found in type '\(className)' which links to type '\(current.name)'")
    }
    let p = schema.classes[origin].properties[pi]
    guard p.type == .object, p.objectType == current.name else {
      throw .init(offset, "'\(className).\(columnName)' does not link to '\(current.name)', so '@links.\(className).\(columnName)' has no objects")
    }
    chain.append(.backward(origin: origin, property: pi), arrivingAt: origin)
  }

  // MARK: - Properties

  mutating func bindProperty(_ p: QuerySyntax.PropertyPath) throws(Located) -> any QueryExpression {
    let elements = p.path.elements
    let pathText = p.path.text
    if case .key("@links")? = elements.last {
      var rest = p.path
      rest.elements.removeLast()
      rest.offsets.removeLast()
      let (chain, _) = try visitPath(rest)
      return BacklinkCountExpression(chain: chain, text: pathText)
    }
    var (chain, position) = try visitPath(p.path)
    if let keys = try linkDictionaryKeys(&chain, position, p) { return keys }
    var expression: any QueryExpression
    var rest: ArraySlice<QuerySyntax.PathElement>
    var identifier = ""
    if position == elements.count {
      guard let last = chain.steps.last else {
        throw .init(p.path.offset, "'\(pathText)' is not a property")
      }
      switch last {
      case .forward(let pi, _, let collection, let index):
        let owner = schema.classes[chain.classes[chain.classes.count - 2]]
        if let index {
          let name = owner.properties[pi].name
          switch index {
          case .position(let n):
            throw .init(p.path.offset, "Property '\(owner.name).\(name)' does not support index '\(n < 0 ? "LAST" : String(n))': compare a property of the linked object, as in '\(name)[\(n < 0 ? "LAST" : String(n))].name'")
          case .key(let k):
            throw .init(p.path.offset, "Property '\(owner.name).\(name)' has no property '\(k)'")
          }
        }
        expression = LinkExpression(chain: chain, quantifier: p.quantifier, isList: collection == .list, text: pathText)
      case .backward:
        expression = LinkExpression(chain: chain, quantifier: p.quantifier, isList: false, text: pathText)
      }
      rest = []
    } else {
      let offset = p.path.offsets[position]
      guard case .key(let raw) = elements[position] else {
        throw .init(offset, "[\(elements[position])] not expected here: '\(pathText)'")
      }
      identifier = translate(raw, chain.current)
      position += 1
      let cls = schema.classes[chain.current]
      guard let pi = cls.propertyIndex(identifier) else { throw noProperty(cls, identifier, offset) }
      let prop = cls.properties[pi]
      reads.add(chain.current, pi)
      rest = elements[position...]
      switch prop.collection {
      case .list, .set, .dictionary:
        let path: CollectionPath? = prop.collection == .dictionary ? CollectionPath(elements: [.all], onlyUnaryKeys: false) : nil
        expression = CollectionExpression(
          chain: chain, property: pi, declaration: prop, quantifier: p.quantifier, index: nil, path: path, text: pathText)
      case .single:
        if let q = p.quantifier, rest.isEmpty {
          let hasList = chain.steps.contains { step in
            if case .forward(_, _, .single, _) = step { return false }
            return true
          }
          guard hasList else {
            throw .init(p.path.offset, "The keypath following '\(q.rawValue)' must contain a list ('\(pathText)' has one value per object)")
          }
        }
        expression = PropertyExpression(
          chain: chain, property: pi, declaration: prop, type: Self.queryType(prop.type), quantifier: p.quantifier,
          path: nil, text: pathText)
      }
    }
    if !rest.isEmpty {
      expression = try applyIndexes(expression, Array(rest), p, identifier)
    }
    guard let post = p.postOperator else { return expression }
    switch post {
    case .size(let name):
      if let l = expression as? LinkExpression { return SizeExpression(.links(l), text: pathText + ".@count") }
      if let c = expression as? CollectionExpression { return SizeExpression(.collection(c), text: pathText + ".@count") }
      if let pe = expression as? PropertyExpression, [.string, .binary, .mixed].contains(pe.type) {
        return SizeExpression(.values(pe), text: pathText + ".@size")
      }
      throw .init(p.path.offset, "Operation '\(name)' is not supported on property of type '\(expression.type)' ('\(pathText)')")
    case .type:
      if let pe = expression as? PropertyExpression {
        if pe.type == .mixed { return TypeOfExpression(pe) }
        return ConstantExpression(
          [.typeOf(TypeOfValue.of(pe.type) ?? TypeOfValue.null)], fromList: false, type: .typeOfValue, text: pathText + ".@type",
          isTypeOfValue: true)
      }
      if let c = expression as? CollectionExpression, c.declaration.type == .mixed || c.isDictionary {
        return TypeOfExpression(c)
      }
      if expression is LinkExpression {
        return ConstantExpression(
          [.typeOf(TypeOfValue.objectLink)], fromList: false, type: .typeOfValue, text: pathText + ".@type", isTypeOfValue: true)
      }
      throw .init(p.path.offset, "Operation '@type' is not supported on property of type '\(expression.type)' ('\(pathText)')")
    }
  }

  /// Elements after a collection or `mixed` property: `[n]`, `['key']`, `.key`, `[*]`,
  /// `@keys`, `@values`, `.length`.
  private func applyIndexes(
    _ expression: any QueryExpression, _ rest: [QuerySyntax.PathElement], _ p: QuerySyntax.PropertyPath, _ identifier: String
  ) throws(Located) -> any QueryExpression {
    let first = rest[0]
    let owner = schema.classes[(expression as? PropertyExpression)?.chain.current ?? (expression as? CollectionExpression)?.chain.current ?? base].name
    if rest.count > 1 && expression.type != .mixed {
      throw .init(p.path.offset, "Only Property of type 'any' can have nested collections ('\(p.path.text)')")
    }
    func collectionPath(_ elements: [QuerySyntax.PathElement], unary: Bool) throws(Located) -> CollectionPath {
      for case .key(let k) in elements { reads.addAnywhere(k, schema) }
      var out: [CollectionPathElement] = []
      var unaryKeys = unary
      for e in elements {
        switch e {
        case .key(let k), .quotedKey(let k): out.append(.key(k))
        case .index(let n): out.append(.index(n))
        case .last: out.append(.index(-1))
        case .all:
          out.append(.all)
          unaryKeys = false
        case .argument(let a): throw QueryConstants.argumentError(a, p.path.offset)
        }
      }
      return CollectionPath(elements: out, onlyUnaryKeys: unaryKeys)
    }
    if let pe = expression as? PropertyExpression, pe.type == .mixed {
      return PropertyExpression(
        chain: pe.chain, property: pe.property, declaration: pe.declaration, type: pe.type, quantifier: pe.quantifier,
        path: try collectionPath(rest, unary: false), text: pe.text)
    }
    if let c = expression as? CollectionExpression {
      if c.isDictionary {
        switch first {
        case .key("@values"): return c
        case .key("@keys"): return DictionaryKeysExpression(c)
        case .key, .quotedKey:
          return CollectionExpression(
            chain: c.chain, property: c.property, declaration: c.declaration, quantifier: c.quantifier, index: nil,
            path: try collectionPath(rest, unary: true), text: c.text)
        case .all:
          return CollectionExpression(
            chain: c.chain, property: c.property, declaration: c.declaration, quantifier: c.quantifier, index: nil,
            path: try collectionPath(rest, unary: false), text: c.text)
        default: break
        }
      } else if !c.isSet {
        var index: Int?
        switch first {
        case .index(let n): index = n
        case .last: index = -1
        case .all: index = nil
        default:
          return try lengthOrError(c, first, p, owner, identifier)
        }
        if c.declaration.type == .mixed {
          let path = rest.count > 1 ? try collectionPath(rest, unary: false) : nil
          return CollectionExpression(
            chain: c.chain, property: c.property, declaration: c.declaration, quantifier: c.quantifier, index: index,
            path: path, text: c.text)
        }
        if rest.count == 1 {
          return CollectionExpression(
            chain: c.chain, property: c.property, declaration: c.declaration, quantifier: c.quantifier, index: index,
            path: nil, text: c.text)
        }
      } else {
        return try lengthOrError(c, first, p, owner, identifier)
      }
    }
    return try lengthOrError(expression, first, p, owner, identifier)
  }

  private func lengthOrError(
    _ expression: any QueryExpression, _ first: QuerySyntax.PathElement, _ p: QuerySyntax.PropertyPath, _ owner: String,
    _ identifier: String
  ) throws(Located) -> any QueryExpression {
    switch first {
    case .key(let k), .quotedKey(let k):
      if p.postOperator == nil, k.lowercased() == "length", let c = expression as? CollectionExpression,
        [.string, .data, .mixed].contains(c.declaration.type), !c.isDictionary
      {
        return ElementLengthExpression(c)
      }
      throw .init(p.path.offset, "Property '\(owner).\(identifier)' has no property '\(k)'")
    default:
      throw .init(p.path.offset, "Property '\(owner).\(identifier)' does not support index '\(first)'")
    }
  }

  // MARK: - Aggregates and subqueries

  mutating func bindAggregate(_ a: QuerySyntax.Aggregate) throws(Located) -> any QueryExpression {
    let op: AggregateOperation
    switch a.op {
    case .max: op = .max
    case .min: op = .min
    case .sum: op = .sum
    case .avg: op = .avg
    }
    let text = a.path.text + "." + a.op.rawValue + (a.member.map { "." + $0 } ?? "")
    let inner = try bindProperty(QuerySyntax.PropertyPath(path: a.path, quantifier: nil, postOperator: nil))
    guard let member = a.member else {
      if let c = inner as? CollectionExpression {
        if c.isDictionary || [.int, .float, .double, .decimal128, .mixed].contains(c.declaration.type) {
          return CollectionAggregateExpression(c, op, text: text)
        }
      }
      throw .init(a.path.offset, "Cannot use aggregate '.\(a.op.rawValue)' for this type of property ('\(a.path.text)'); aggregates apply to lists, sets and dictionaries of numbers")
    }
    guard let link = inner as? LinkExpression else {
      throw .init(a.path.offset, "Operation '.\(a.op.rawValue)' cannot apply to property '\(a.path.text)' because it is not a list")
    }
    let target = schema.classes[link.targetClass]
    let name = translate(member, link.targetClass)
    guard let pi = target.propertyIndex(name) else { throw noProperty(target, name, a.memberOffset) }
    let prop = target.properties[pi]
    guard prop.collection == .single, let kind = Aggregation.Kind(prop.type) else {
      throw .init(a.memberOffset, "collection aggregate not supported for type '\(prop.collection == .single ? Self.queryType(prop.type).description : "list")' ('\(target.name).\(name)')")
    }
    if kind == .timestamp && (op == .sum || op == .avg) {
      throw .init(a.path.offset, "Cannot use aggregate '.\(a.op.rawValue)' for this type of property ('\(target.name).\(name)' is a date)")
    }
    reads.add(link.targetClass, pi)
    return LinkAggregateExpression(chain: link.chain, property: pi, kind: kind, op: op, text: text)
  }

  mutating func bindSubquery(_ s: QuerySyntax.Subquery) throws(Located) -> any QueryExpression {
    guard s.variable.count >= 2, s.variable.hasPrefix("$") else {
      throw .init(s.variableOffset, "The subquery variable '\(s.variable)' is invalid. The variable must start with '$' and cannot be empty; for example '$x'.")
    }
    let (chain, position) = try visitPath(s.path)
    if position < s.path.elements.count {
      let cls = schema.classes[chain.current]
      guard case .key(let raw) = s.path.elements[position] else {
        throw .init(s.path.offset, "A subquery must operate on a list property ('\(s.path.text)')")
      }
      let name = translate(raw, chain.current)
      guard let p = cls.properties.first(where: { $0.name == name }) else {
        throw noProperty(cls, name, s.path.offsets[position])
      }
      if p.collection == .list {
        throw .init(s.path.offset, "A subquery can not operate on a list of primitive values (property '\(name)')")
      }
      throw .init(s.path.offset, "A subquery must operate on a list property, but '\(name)' is type '\(Self.queryType(p.type))'")
    }
    switch chain.steps.last {
    case .forward(let pi, _, let collection, _)?:
      if collection != .list {
        let owner = schema.classes[chain.classes[chain.classes.count - 2]]
        throw .init(s.path.offset, "A subquery must operate on a list property, but '\(owner.properties[pi].name)' is type 'link'")
      }
    case .backward?: break
    case nil: throw .init(s.path.offset, "A subquery must operate on a list property ('\(s.path.text)')")
    }
    let target = chain.current
    if variables.contains(where: { $0.0 == target && $0.1 == s.variable }) {
      throw .init(s.variableOffset, "Unable to create a subquery expression with variable '\(s.variable)' since an identical variable already exists in this context")
    }
    var inner = self
    inner.base = target
    inner.variables.append((target, s.variable))
    let predicate = try inner.bind(s.predicate)
    return SubqueryCountExpression(chain: chain, predicate: predicate, text: "SUBQUERY(\(s.path.text), \(s.variable), ...).@count")
  }
}
