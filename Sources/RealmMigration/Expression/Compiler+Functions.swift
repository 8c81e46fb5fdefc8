import RealmFormat
import RealmModel
import RealmQuery

/// The functions: conversions, string functions, `length`, `contains`, `matches`,
/// `coalesce`, `now`, `uuid`, `objectId`.
enum FunctionTable {
  /// Every function name with its accepted argument counts.
  static let arity: [String: ClosedRange<Int>] = [
    "string": 1...2, "int": 1...2, "double": 1...2, "bool": 1...2, "date": 1...2,
    "lower": 1...1, "upper": 1...1, "trim": 1...1, "split": 2...2, "join": 2...2,
    "replace": 3...3, "substring": 2...3, "length": 1...1, "contains": 2...2,
    "beginsWith": 2...2, "endsWith": 2...2, "matches": 2...2, "coalesce": 1...ExpressionLimits.maxArguments,
    "now": 0...0, "uuid": 0...0, "objectId": 0...0,
  ]
  static let names: [String] = arity.keys.sorted()
}

extension Compiler {
  func compileCall(_ name: String, _ arguments: [Syntax], _ node: Syntax) throws(ExpressionError.Located) -> Compiled {
    guard let arity = FunctionTable.arity[name] else {
      let hint = Suggestion.hint(for: name, among: FunctionTable.names)
      throw fail(node, "unknown function '\(name)'\(hint)")
    }
    guard arity.contains(arguments.count) else {
      let expected =
        arity.lowerBound == arity.upperBound
        ? "\(arity.lowerBound) argument\(arity.lowerBound == 1 ? "" : "s")"
        : arity.upperBound == ExpressionLimits.maxArguments
          ? "at least \(arity.lowerBound) argument\(arity.lowerBound == 1 ? "" : "s")"
          : "\(arity.lowerBound) or \(arity.upperBound) arguments"
      throw fail(node, "'\(name)' takes \(expected), but \(arguments.count) \(arguments.count == 1 ? "is" : "are") given")
    }
    var args: [Compiled] = []
    for a in arguments { args.append(try compile(a)) }
    let col = column(node)
    let call = FunctionCall(name: name, column: col)
    switch name {
    case "string", "int", "double", "bool", "date":
      return try compileConversion(call, args, arguments, node)
    case "lower", "upper", "trim":
      try expect(.string, args[0], arguments[0], call, 1)
      let f: @Sendable (String) -> String
      switch name {
      case "lower": f = { @Sendable s in s.lowercased() }
      case "upper": f = { @Sendable s in s.uppercased() }
      default: f = { @Sendable s in String(Conversion.trimmed(s)) }
      }
      return call.strict(args, type: ExpressionType(.string, isOptional: args[0].type.isOptional)) {
        (v: [RealmValue]) throws(EvaluationError) -> RealmValue in
        .string(f(try call.string(v[0], 1)))
      }
    case "split":
      try expect(.string, args[0], arguments[0], call, 1)
      try expect(.string, args[1], arguments[1], call, 2)
      let type = ExpressionType(.list(.string), isOptional: args[0].type.isOptional || args[1].type.isOptional)
      return call.strict(args, type: type) { (v: [RealmValue]) throws(EvaluationError) -> RealmValue in
        .list(StringMatching.split(try call.string(v[0], 1), try call.string(v[1], 2)))
      }
    case "join":
      guard args[0].type.elementType != nil || args[0].type.isMixed || args[0].type.isNull else {
        throw fail(arguments[0], "argument 1 of 'join' must be a list, but '\(text(arguments[0]))' is \(args[0].type)")
      }
      try expect(.string, args[1], arguments[1], call, 2)
      return call.strict(args, type: ExpressionType(.string, isOptional: args[0].type.isOptional || args[1].type.isOptional)) {
        (v: [RealmValue]) throws(EvaluationError) -> RealmValue in
        let separator = try call.string(v[1], 2)
        var parts: [String] = []
        for item in Logic.elements(v[0]) where !item.isNull {
          guard let s = ValueText.string(item) else { throw call.wrongType(item, "a list of text values", 1) }
          parts.append(s)
        }
        return .string(parts.joined(separator: separator))
      }
    case "replace":
      for i in 0..<3 { try expect(.string, args[i], arguments[i], call, i + 1) }
      return call.strict(args, type: ExpressionType(.string, isOptional: args.contains { $0.type.isOptional })) {
        (v: [RealmValue]) throws(EvaluationError) -> RealmValue in
        .string(StringMatching.replace(try call.string(v[0], 1), try call.string(v[1], 2), try call.string(v[2], 3)))
      }
    case "substring":
      try expect(.string, args[0], arguments[0], call, 1)
      for i in 1..<args.count { try expect(.int, args[i], arguments[i], call, i + 1) }
      return call.strict(args, type: ExpressionType(.string, isOptional: args.contains { $0.type.isOptional })) {
        (v: [RealmValue]) throws(EvaluationError) -> RealmValue in
        let s = try call.string(v[0], 1)
        let start = try call.int(v[1], 2)
        let length = v.count > 2 ? try call.int(v[2], 3) : Int64.max
        return .string(Self.substring(s, start: start, length: length))
      }
    case "length":
      switch args[0].type.kind {
      case .string, .data, .list, .set, .dictionary, .mixed, .null: break
      default:
        throw fail(arguments[0], "argument 1 of 'length' must be a string, data or a collection, but '\(text(arguments[0]))' is \(args[0].type)")
      }
      return call.strict(args, type: ExpressionType(.int, isOptional: args[0].type.isOptional)) {
        (v: [RealmValue]) throws(EvaluationError) -> RealmValue in
        try PathAccess.length(v[0], "length", column: col)
      }
    case "contains", "beginsWith", "endsWith":
      return try compileMatchFunction(name, args, arguments, node)
    case "matches":
      return try compileMatches(args, arguments, call)
    case "coalesce":
      var type = ExpressionType.null
      for (a, s) in zip(args, arguments) { type = try unify(type.isNull ? type : type.required, a.type, s, "the arguments of 'coalesce'") }
      let target = type
      let evaluators = args.map { coerce($0, to: target).evaluate }
      let lastIsOptional = args.last?.type.isOptional ?? true
      return Compiled(
        type: lastIsOptional ? type.optional : type.required,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          for e in evaluators {
            let v = try e(&ctx)
            if !v.isNull { return v }
          }
          return .null
        })
    case "now":
      return Compiled(type: .date, evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in .date(ctx.environment.now) })
    case "uuid":
      reads.drawsFromEnvironment = true
      return Compiled(type: ExpressionType(.uuid), evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in .uuid(ctx.environment.uuid()) })
    default:  // objectId
      reads.drawsFromEnvironment = true
      return Compiled(type: ExpressionType(.objectId), evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in .objectId(ctx.environment.objectId()) })
    }
  }

  /// Requires argument `position` to be of `kind` (or mixed, or null).
  private func expect(
    _ kind: ExpressionType.Kind, _ arg: Compiled, _ node: Syntax, _ call: FunctionCall, _ position: Int
  ) throws(ExpressionError.Located) {
    guard arg.type.kind != kind, !arg.type.isMixed, !arg.type.isNull else { return }
    throw fail(node, "argument \(position) of '\(call.name)' must be \(ExpressionType(kind)), but '\(text(node))' is \(arg.type)")
  }

  /// Characters from `start` (0-based), at most `length` of them; both clamp to the string.
  static func substring(_ s: String, start: Int64, length: Int64) -> String {
    let count = Int64(s.count)
    let from = min(max(0, start), count)
    let take = min(max(0, length), count - from)
    let a = s.index(s.startIndex, offsetBy: Int(from))
    let b = s.index(a, offsetBy: Int(take))
    return String(s[a..<b])
  }

  private func compileConversion(
    _ call: FunctionCall, _ args: [Compiled], _ arguments: [Syntax], _ node: Syntax
  ) throws(ExpressionError.Located) -> Compiled {
    let name = call.name
    let kind: ExpressionType.Kind
    let convert: @Sendable (RealmValue) -> RealmValue?
    switch name {
    case "string": (kind, convert) = (.string, Conversion.toString)
    case "int": (kind, convert) = (.int, Conversion.toInt)
    case "double": (kind, convert) = (.double, Conversion.toDouble)
    case "bool": (kind, convert) = (.bool, Conversion.toBool)
    default: (kind, convert) = (.date, Conversion.toDate)
    }
    let source = args[0].type
    let accepted: Bool
    switch source.kind {
    case .null, .mixed: accepted = true
    case .link, .embedded, .list, .set, .dictionary: accepted = false
    case .bool: accepted = kind != .date
    case .date: accepted = kind != .bool
    case .objectId, .uuid, .data: accepted = kind == .string
    case .int, .float, .double, .decimal128, .string: accepted = true
    }
    guard accepted else {
      throw fail(arguments[0], "'\(name)' cannot convert \(source) ('\(text(arguments[0]))') to \(ExpressionType(kind))")
    }
    let target = ExpressionType(kind)
    if args.count == 2 {
      let fallback = args[1]
      let type = try unify(target, fallback.type, arguments[1], "the value and the default of '\(name)'")
      guard type.kind == kind else {
        throw fail(arguments[1], "the default of '\(name)' must be \(target), but '\(text(arguments[1]))' is \(fallback.type)")
      }
      let ev = args[0].evaluate
      let coercedFallback = coerce(fallback, to: type)
      let ed = coercedFallback.evaluate
      return Compiled(
        type: fallback.type.isOptional || fallback.type.isNull ? type.optional : type.required,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          let v = try ev(&ctx)
          if !v.isNull, let converted = convert(v) { return converted }
          return try ed(&ctx)
        },
        kernel: Kernels.all([args[0], coercedFallback]).map { k in
          Kernels.rowwise(k) { (v: [RealmValue]) -> RealmValue in
            if !v[0].isNull, let converted = convert(v[0]) { return converted }
            return v[1]
          }
        })
    }
    let ev = args[0].evaluate
    return Compiled(
      type: ExpressionType(kind, isOptional: source.isOptional),
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        let v = try ev(&ctx)
        if v.isNull { return .null }
        guard let converted = convert(v) else {
          throw EvaluationError(
            column: call.column,
            message: "\(name)(): cannot convert \(ValueText.typeName(v)) \(ValueText.describe(v)) to \(name == "string" ? "string" : target.description) (give a default: \(name)(value, default))")
        }
        return converted
      },
      kernel: args[0].kernel.map { k in
        if name == "string" { return Kernels.toText(k, convert: convert) }
        return Kernels.rowwise(k) { (v: RealmValue) throws(EvaluationError) -> RealmValue in
          if v.isNull { return .null }
          guard let converted = convert(v) else { throw EvaluationError(column: call.column, message: "") }
          return converted
        }
      })
  }

  private func compileMatchFunction(
    _ name: String, _ args: [Compiled], _ arguments: [Syntax], _ node: Syntax
  ) throws(ExpressionError.Located) -> Compiled {
    let ea = args[0].evaluate
    let eb = args[1].evaluate
    if name == "contains", let element = args[0].type.elementType {
      // Membership: contains(old.tags, 'x').
      _ = try unify(element.required, args[1].type, arguments[1], "the elements and the value of 'contains'")
      return Compiled(
        type: .bool,
        evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
          let collection = try ea(&ctx)
          let v = try eb(&ctx)
          return .bool(Logic.elements(collection).contains { ValueComparison.equal($0, v) })
        })
    }
    for i in 0..<2 {
      let t = args[i].type
      guard t.isString || t.isMixed || t.isNull else {
        let what = name == "contains" && i == 0 ? "a string or a collection" : "string"
        throw fail(arguments[i], "argument \(i + 1) of '\(name)' must be \(what), but '\(text(arguments[i]))' is \(t)")
      }
    }
    let op: ComparisonOperator = name == "contains" ? .contains : name == "beginsWith" ? .beginsWith : .endsWith
    return Compiled(
      type: .bool,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        let a = try ea(&ctx)
        let b = try eb(&ctx)
        switch a {
        case .list, .set, .dictionary:  // a mixed value holding a collection
          return .bool(Logic.elements(a).contains { ValueComparison.equal($0, b) })
        default: return .bool(Logic.compare(op, false, a, b))
        }
      })
  }

  private func compileMatches(
    _ args: [Compiled], _ arguments: [Syntax], _ call: FunctionCall
  ) throws(ExpressionError.Located) -> Compiled {
    let t = args[0].type
    guard t.isString || t.isMixed || t.isNull else {
      throw fail(arguments[0], "argument 1 of 'matches' must be string, but '\(text(arguments[0]))' is \(t)")
    }
    guard case .string(let pattern)? = args[1].constant else {
      throw fail(arguments[1], "the pattern of 'matches' must be a string literal, such as '^[A-Z]'")
    }
    let regex: SafeRegex
    do {
      regex = try SafeRegex(pattern)
    } catch {
      throw fail(arguments[1], "invalid regular expression '\(pattern)': \(error.message)")
    }
    let ea = args[0].evaluate
    return Compiled(
      type: .bool,
      evaluate: { (ctx: inout EvaluationContext) throws(EvaluationError) -> RealmValue in
        guard case .string(let s) = try ea(&ctx) else { return .bool(false) }
        return .bool(regex.matches(s))
      })
  }
}

/// A call site: its name and column, with the helpers its closures use at run time.
struct FunctionCall: Sendable {
  let name: String
  let column: Int

  /// Evaluates the arguments; a null argument makes the result null; else `body`.
  func strict(
    _ args: [Compiled], type: ExpressionType,
    _ body: @escaping @Sendable ([RealmValue]) throws(EvaluationError) -> RealmValue
  ) -> Compiled {
    .combining(args, type: type, nullIfAnyNull: true, body)
  }

  func string(_ v: RealmValue, _ position: Int) throws(EvaluationError) -> String {
    guard case .string(let s) = v else { throw wrongType(v, "a string", position) }
    return s
  }

  func int(_ v: RealmValue, _ position: Int) throws(EvaluationError) -> Int64 {
    guard case .int(let i) = v else { throw wrongType(v, "an int", position) }
    return i
  }

  func wrongType(_ v: RealmValue, _ expected: String, _ position: Int) -> EvaluationError {
    EvaluationError(
      column: column,
      message: "argument \(position) of '\(name)' must be \(expected), found \(ValueText.typeName(v)) \(ValueText.describe(v))")
  }
}
