import RealmFormat
import RealmModel
import RealmQuery

/// Paths: `old.x`, `new.x`, bare names in filters, member access through links and embedded
/// objects, `.@count`/`.@size` and `[index]`.
extension Compiler {
  /// A property of `cls` read from the `old` values.
  private func ownProperty(_ name: String, _ node: Syntax) throws(ExpressionError.Located) -> Compiled {
    guard let index = objectSchema.properties.firstIndex(where: { $0.name == name }) else {
      throw noProperty(objectSchema, name, node)
    }
    let type = ExpressionType(objectSchema.properties[index], in: schema)
    reads.indices.insert(index)
    let count = objectSchema.properties.count
    let className = objectSchema.name
    let col = column(node)
    return Compiled(
      type: type,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        guard index < ctx.old.count else {
          throw EvaluationError(
            column: col, message: "the object has \(ctx.old.count) values but \(className) has \(count) properties")
        }
        return ctx.old[index]
      },
      kernel: { (input: KernelInput) throws(KernelFallback) -> ColumnValues in
        guard index < input.old.count else { throw KernelFallback() }
        return input.old[index] ?? .nulls(input.count)
      })
  }

  func noProperty(_ cls: ObjectSchema, _ name: String, _ node: Syntax) -> ExpressionError.Located {
    let hint = Suggestion.hint(for: name, among: cls.properties.map(\.name))
    return fail(node, "'\(text(node))': \(cls.name) has no property '\(name)'\(hint)")
  }

  func compileBare(_ name: String, _ node: Syntax) throws(ExpressionError.Located) -> Compiled {
    if name.hasPrefix("$"), name.dropFirst().allSatisfy(\.isNumber), name.count > 1 {
      throw fail(node, "argument placeholders such as '\(name)' are not supported; write the value itself")
    }
    if objectSchema.property(named: name) != nil {
      throw fail(node, "'\(name)' is not a value; write 'old.\(name)' for the property")
    }
    if FunctionTable.names.contains(name) {
      throw fail(node, "'\(name)' is a function; call it as '\(name)(...)'")
    }
    let closest = Suggestion.closest(to: name, among: objectSchema.properties.map(\.name))
    let hint = closest.map { " (did you mean 'old.\($0)'?)" } ?? ""
    throw fail(node, "unknown name '\(name)'; properties are written 'old.name' or 'new.name'\(hint)")
  }

  func compileMember(
    _ base: Syntax, _ name: String, _ nameStart: Int, _ node: Syntax
  ) throws(ExpressionError.Located) -> Compiled {
    switch base.kind {
    case .root(.old): return try ownProperty(name, node)
    case .root(.new):
      guard let index = newValues.firstIndex(where: { $0.name == name }) else {
        let hint = Suggestion.hint(for: name, among: newValues.map(\.name))
        let why =
          objectSchema.property(named: name) != nil
          ? "; 'new.' sees only values set earlier in the same step, use 'old.\(name)'" : ""
        throw fail(node, "'\(text(node))': '\(name)' is not set earlier in this step\(why)\(hint)")
      }
      let col = column(node)
      return Compiled(
        type: newValues[index].type,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          guard index < ctx.new.count else {
            throw EvaluationError(column: col, message: "'new.\(name)' has no value in the evaluation context")
          }
          return ctx.new[index]
        },
        kernel: { (input: KernelInput) throws(KernelFallback) -> ColumnValues in
          guard index < input.new.count else { throw KernelFallback() }
          return input.new[index]
        })
    default: break
    }
    let inner = try compile(base)
    let target: String
    var isCollection = false
    switch inner.type.kind {
    case .link(let c), .embedded(let c): target = c
    case .list(let e), .set(let e):
      switch e.kind {
      case .link(let c), .embedded(let c):
        target = c
        isCollection = true
      default:
        throw fail(node, "'\(text(node))': '\(text(base))' is a list of \(e), which has no properties")
      }
    case .mixed:
      throw fail(node, "'\(text(node))': '\(text(base))' is mixed; '.' needs a link or an embedded object")
    default:
      throw fail(node, "'\(text(node))': '\(text(base))' is \(inner.type), which has no properties")
    }
    guard let cls = schema.objectSchema(named: target) else {
      throw fail(node, "'\(text(node))': class '\(target)' is not in the schema")
    }
    guard let index = cls.properties.firstIndex(where: { $0.name == name }) else { throw noProperty(cls, name, node) }
    let memberType = ExpressionType(cls.properties[index], in: schema)
    if isCollection && memberType.isCollection {
      throw fail(node, "'\(text(node))': a collection inside each element of a collection cannot be read")
    }
    let type = isCollection ? ExpressionType(.list(memberType), isOptional: inner.type.isOptional) : memberType.optional
    let eb = inner.evaluate
    let col = column(node)
    return Compiled(
      type: type,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        let value = try eb(&ctx)
        return try PathAccess.member(of: value, index: index, name: name, column: col, &ctx)
      })
  }

  func compileAggregate(_ base: Syntax, _ name: String, _ node: Syntax) throws(ExpressionError.Located) -> Compiled {
    let lower = name.lowercased()
    guard lower == "count" || lower == "size" else {
      return try compileCollectionAggregate(base, lower, node)
    }
    let inner = try compile(base)
    switch inner.type.kind {
    case .list, .set, .dictionary, .string, .data, .mixed, .null: break
    default: throw fail(node, "'\(text(node))': '@\(name)' needs a collection, string or data, but '\(text(base))' is \(inner.type)")
    }
    let eb = inner.evaluate
    let col = column(node)
    return Compiled(
      type: ExpressionType(.int, isOptional: inner.type.isOptional),
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        try PathAccess.length(try eb(&ctx), "@\(name)", column: col)
      })
  }

  /// `@min @max @sum @avg` of numbers (and `@min @max` of dates), `@keys @values` of a
  /// dictionary. Null elements are skipped; `@min`, `@max`, `@avg` of nothing are null.
  private func compileCollectionAggregate(
    _ base: Syntax, _ name: String, _ node: Syntax
  ) throws(ExpressionError.Located) -> Compiled {
    guard let aggregate = Aggregate(rawValue: name) else {
      throw fail(node, "unknown '@\(name)'; use @count, @size, @min, @max, @sum, @avg, @keys or @values")
    }
    let inner = try compile(base)
    guard let element = inner.type.elementType else {
      throw fail(node, "'\(text(node))': '@\(name)' needs a collection, but '\(text(base))' is \(inner.type)")
    }
    let type: ExpressionType
    switch aggregate {
    case .keys, .values:
      guard case .dictionary = inner.type.kind else {
        throw fail(node, "'\(text(node))': '@\(name)' needs a dictionary, but '\(text(base))' is \(inner.type)")
      }
      type = ExpressionType(.list(aggregate == .keys ? .string : element), isOptional: inner.type.isOptional)
    case .min, .max:
      guard element.isNumeric || element.kind == .date || element.isMixed else {
        throw fail(node, "'\(text(node))': '@\(name)' needs numbers or dates, but '\(text(base))' holds \(element)")
      }
      type = element.optional
    case .sum, .avg:
      guard (element.isNumeric && element.kind != .decimal128) || element.isMixed else {
        throw fail(node, "'\(text(node))': '@\(name)' needs int, float or double values, but '\(text(base))' holds \(element)")
      }
      if aggregate == .avg {
        type = ExpressionType(.double, isOptional: true)
      } else {
        type = ExpressionType(element.isMixed ? .mixed : element.kind, isOptional: inner.type.isOptional)
      }
    }
    let eb = inner.evaluate
    let col = column(node)
    let zero: RealmValue = element.kind == .double ? .double(0) : element.kind == .float ? .float(0) : .int(0)
    return Compiled(
      type: type,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        try aggregate.apply(try eb(&ctx), zero: zero, column: col)
      })
  }

  func compileIndex(_ base: Syntax, _ subscriptNode: Syntax, _ node: Syntax) throws(ExpressionError.Located) -> Compiled {
    let inner = try compile(base)
    let key = try compile(subscriptNode)
    let element: ExpressionType
    switch inner.type.kind {
    case .list(let e):
      guard key.type.kind == .int || key.type.isMixed || key.type.isNull else {
        throw fail(subscriptNode, "a list index must be an int, but '\(text(subscriptNode))' is \(key.type)")
      }
      element = e
    case .dictionary(let e):
      guard key.type.isString || key.type.isMixed || key.type.isNull else {
        throw fail(subscriptNode, "a dictionary key must be a string, but '\(text(subscriptNode))' is \(key.type)")
      }
      element = e
    case .mixed: element = .mixed
    case .set: throw fail(node, "'\(text(node))': sets have no order and cannot be indexed")
    default: throw fail(node, "'\(text(node))': '\(text(base))' is \(inner.type), which cannot be indexed")
    }
    let eb = inner.evaluate
    let ek = key.evaluate
    let col = column(node)
    return Compiled(
      type: element.optional,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        let collection = try eb(&ctx)
        return try PathAccess.element(of: collection, at: try ek(&ctx), column: col)
      })
  }
}

/// The runtime side of paths.
enum PathAccess {
  /// `value.name` where `index` is the property's position in its class.
  static func member(
    of value: RealmValue, index: Int, name: String, column: Int, _ ctx: inout EvaluationContext
  ) throws(EvaluationError) -> RealmValue {
    switch value {
    case .null: return .null
    case .link(let link):
      guard let resolver = ctx.resolver else {
        throw EvaluationError(column: column, message: "cannot follow the link to \(link.className) \(link.key): no resolver")
      }
      let values: [RealmValue]?
      do {
        values = try resolver.values(of: link)
      } catch {
        throw EvaluationError(
          column: column, message: "following the link to \(link.className) \(link.key) failed: \(error)",
          underlying: error)
      }
      guard let values else { return .null }
      guard index < values.count else {
        throw EvaluationError(column: column, message: "\(link.className) \(link.key) has no value for '\(name)'")
      }
      return values[index]
    case .embedded(let object):
      if index < object.properties.count, object.properties[index].name == name {
        return object.properties[index].value
      }
      return object.properties.first { $0.name == name }?.value ?? .null
    case .list(let items), .set(let items):
      var out: [RealmValue] = []
      out.reserveCapacity(items.count)
      for item in items { out.append(try member(of: item, index: index, name: name, column: column, &ctx)) }
      return .list(out)
    default:
      throw EvaluationError(
        column: column, message: "cannot read '.\(name)' of \(ValueText.typeName(value)) \(ValueText.describe(value))")
    }
  }

  /// Count of a collection, characters of a string, bytes of data; null stays null.
  static func length(_ value: RealmValue, _ what: String, column: Int) throws(EvaluationError) -> RealmValue {
    switch value {
    case .null: return .null
    case .string(let s): return .int(Int64(s.count))
    case .data(let d): return .int(Int64(d.count))
    case .list(let l), .set(let l): return .int(Int64(l.count))
    case .dictionary(let d): return .int(Int64(d.count))
    default:
      throw EvaluationError(
        column: column, message: "'\(what)' needs a collection, string or data, found \(ValueText.typeName(value)) \(ValueText.describe(value))")
    }
  }

  /// `collection[key]`: null when out of range, negative or missing.
  static func element(of collection: RealmValue, at key: RealmValue, column: Int) throws(EvaluationError) -> RealmValue {
    switch (collection, key) {
    case (.null, _), (_, .null): return .null
    case (.list(let items), .int(let i)):
      guard i >= 0, i < Int64(items.count) else { return .null }
      return items[Int(i)]
    case (.dictionary(let entries), .string(let k)):
      return entries.first { $0.key.utf8.elementsEqual(k.utf8) }?.value ?? .null
    default:
      throw EvaluationError(
        column: column,
        message: "cannot index \(ValueText.typeName(collection)) with \(ValueText.typeName(key)) \(ValueText.describe(key))")
    }
  }
}

/// The collection aggregates after `@`.
enum Aggregate: String, Sendable {
  case min, max, sum, avg, keys, values

  /// The aggregate of `collection`; sums start at `zero` (typed as the elements).
  func apply(_ collection: RealmValue, zero: RealmValue, column: Int) throws(EvaluationError) -> RealmValue {
    if collection.isNull { return .null }
    switch self {
    case .keys:
      guard case .dictionary(let entries) = collection else { return .null }
      return .list(entries.map { .string($0.key) })
    case .values:
      guard case .dictionary(let entries) = collection else { return .null }
      return .list(entries.map(\.value))
    case .min, .max:
      var best: RealmValue = .null
      for item in Logic.elements(collection) where !item.isNull {
        if best.isNull {
          best = item
        } else if let o = ValueComparison.order(item, best), self == .min ? o < 0 : o > 0 {
          best = item
        }
      }
      return best
    case .sum, .avg:
      var total = zero
      var count = 0
      for item in Logic.elements(collection) where !item.isNull {
        total = try Arithmetic.apply(.add, total, item, column: column)
        count += 1
      }
      if self == .sum { return total }
      guard count > 0, let t = ValueComparison.asDouble(total) else { return .null }
      return .double(t / Double(count))
    }
  }
}
