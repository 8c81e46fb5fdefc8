/// Recursive-descent parser for Realm Query Language: accepts exactly the texts Realm's
/// grammar accepts and builds ``QuerySyntax``.
///
/// ```text
/// query       = predicate { SORT(path dir, ...) | DISTINCT(path, ...) | LIMIT(n) }
/// predicate   = predicate || predicate | predicate && predicate | NOT predicate
///             | ( predicate ) | comparison | TRUEPREDICATE | FALSEPREDICATE
/// comparison  = expr (== | != | IN) [c]? expr | expr (< | <= | > | >=) expr
///             | value (BEGINSWITH | ENDSWITH | CONTAINS | LIKE) [c]? value
///             | value BETWEEN list
/// expr        = value | ( expr ) | expr (* | /) expr | expr (+ | -) expr
/// value       = constant | [ANY|ALL|NONE] path postop | list | path aggregate [.name]
///             | SUBQUERY(path, $var, predicate).@count
/// ```
/// `NOT` binds tighter than `&&`, which binds tighter than `||`. A parenthesis may open a
/// predicate or an arithmetic expression; the parser finds out which from what it contains.
struct QueryParser {
  private let tokens: [QueryToken]
  private let source: [UInt8]
  private var index = 0
  private var depth = 0

  /// Longest query text accepted, in bytes.
  static let maxSourceBytes = 65_536
  /// Deepest nesting of parentheses, operators and subqueries.
  static let maxDepth = 200

  /// Parses a whole query.
  static func parse(_ source: String) throws(QueryError.Located) -> QuerySyntax.Query {
    guard source.utf8.count <= maxSourceBytes else {
      throw .init(0, "the query is \(source.utf8.count) bytes long; the limit is \(maxSourceBytes)")
    }
    let tokens = try QueryLexer(source).tokenize()
    var parser = QueryParser(tokens: tokens, source: Array(source.utf8))
    if tokens.count == 1 { throw .init(0, "the query is empty (write TRUEPREDICATE to select every object)") }
    let predicate = try parser.parseTopPredicate()
    var descriptors: [QuerySyntax.Descriptor] = []
    while let d = try parser.parseDescriptor() { descriptors.append(d) }
    guard parser.current.kind == .end else { throw parser.unexpected("after a complete query") }
    return QuerySyntax.Query(predicate: predicate, descriptors: descriptors)
  }

  private init(tokens: [QueryToken], source: [UInt8]) {
    self.tokens = tokens
    self.source = source
  }

  // MARK: - Tokens

  private var current: QueryToken { tokens[index] }
  private func peek(_ ahead: Int = 1) -> QueryToken { tokens[min(index + ahead, tokens.count - 1)] }
  private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

  private mutating func accept(_ kind: QueryToken.Kind) -> QueryToken? {
    guard current.kind == kind else { return nil }
    let t = current
    advance()
    return t
  }

  @discardableResult
  private mutating func expect(_ kind: QueryToken.Kind, _ what: String) throws(QueryError.Located) -> QueryToken {
    guard let t = accept(kind) else { throw unexpected("; expected \(what)") }
    return t
  }

  private func unexpected(_ context: String) -> QueryError.Located {
    let separator = context.hasPrefix(";") ? "" : " "
    if current.kind == .end { return .init(current.start, "the query ends too early\(separator)\(context)") }
    return .init(current.start, "unexpected \(current.display)\(separator)\(context)")
  }

  private mutating func enter() throws(QueryError.Located) {
    depth += 1
    if depth > Self.maxDepth {
      throw .init(current.start, "the query is nested more than \(Self.maxDepth) levels deep")
    }
  }
  private mutating func leave() { depth -= 1 }

  /// The 1-based character column of a byte offset.
  private func column(_ offset: Int) -> Int {
    String(decoding: source[..<min(max(0, offset), source.count)], as: UTF8.self).count + 1
  }

  private func text(_ start: Int, _ end: Int) -> String {
    String(decoding: source[min(start, source.count)..<min(max(start, end), source.count)], as: UTF8.self)
  }

  // MARK: - Predicates

  /// A predicate or (inside parentheses) an arithmetic expression.
  private enum Parsed {
    case predicate(QuerySyntax.Predicate)
    case expression(QuerySyntax.Expression)
  }

  private mutating func parseTopPredicate() throws(QueryError.Located) -> QuerySyntax.Predicate {
    let start = current.start
    switch try parseOr() {
    case .predicate(let p): return p
    case .expression:
      if current.kind == .end { throw .init(start, "'\(text(start, current.start))' is a value, not a condition; compare it with something, as in 'age > 18'") }
      throw unexpected("; expected a comparison operator")
    }
  }

  private mutating func requirePredicate(_ parsed: Parsed, before what: String) throws(QueryError.Located) -> QuerySyntax.Predicate {
    if case .predicate(let p) = parsed { return p }
    throw unexpected("; expected a comparison operator before \(what)")
  }

  private mutating func parseOr() throws(QueryError.Located) -> Parsed { try parseJoined(by: .or) }

  /// Operands joined by `||` (`.or`) or `&&` (`.and`), each of which must be a condition.
  /// `&&` binds tighter than `||`, and `NOT` tighter than `&&`.
  private mutating func parseJoined(by joiner: QueryToken.Kind) throws(QueryError.Located) -> Parsed {
    let first = try parseOperand(of: joiner)
    guard current.kind == joiner else { return first }
    var items = [try requirePredicate(first, before: "'\(current.text)'")]
    while accept(joiner) != nil {
      let operandStart = current
      let next = try parseOperand(of: joiner)
      guard case .predicate(let p) = next else {
        let word = joiner == .or ? "OR" : "AND"
        throw .init(operandStart.start, "expected a condition after \(word); '\(text(operandStart.start, current.start))' is a value")
      }
      items.append(p)
    }
    return .predicate(joiner == .or ? .or(items) : .and(items))
  }

  private mutating func parseOperand(of joiner: QueryToken.Kind) throws(QueryError.Located) -> Parsed {
    joiner == .or ? try parseJoined(by: .and) : try parseNot()
  }

  private mutating func parseNot() throws(QueryError.Located) -> Parsed {
    guard let not = accept(.not) else { return try parseAtom() }
    try enter()
    defer { leave() }
    let operandStart = current
    guard case .predicate(let p) = try parseNot() else {
      throw .init(operandStart.start, "NOT needs a condition, as in 'NOT age > 18'")
    }
    return .predicate(.not(p, offset: not.start))
  }

  private mutating func parseAtom() throws(QueryError.Located) -> Parsed {
    let start = current.start
    switch current.kind {
    case .truePredicate:
      advance()
      return .predicate(.constant(true, offset: start))
    case .falsePredicate:
      advance()
      return .predicate(.constant(false, offset: start))
    case .leftParen:
      advance()
      try enter()
      let inner = try parseOr()
      leave()
      try expect(.rightParen, "')' to close the '(' at column \(column(start))")
      switch inner {
      case .predicate(let p):
        return .predicate(p)
      case .expression(let e):
        // `( expr )` continues as an arithmetic operand.
        let operand = QuerySyntax.Expression.parenthesized(e, offset: start)
        let full = try parseAdditive(startingWith: operand)
        return try parseComparisonTail(full, isPlainValue: false, start: start)
      }
    case .end:
      throw .init(start, "the query ends where a condition was expected")
    default:
      let left = try parseAdditive(startingWith: nil)
      let plain: Bool
      if case .parenthesized = left { plain = false } else if case .arithmetic = left { plain = false } else { plain = true }
      return try parseComparisonTail(left, isPlainValue: plain, start: start)
    }
  }

  /// After the left operand: the comparison operator and the right operand, or nothing
  /// (the operand is then a value, allowed only inside parentheses).
  private mutating func parseComparisonTail(
    _ left: QuerySyntax.Expression, isPlainValue: Bool, start: Int
  ) throws(QueryError.Located) -> Parsed {
    let op = current
    let kind: QuerySyntax.ComparisonKind
    switch op.kind {
    case .equal: kind = .equality(.equal)
    case .notEqual: kind = .equality(.notEqual)
    case .inKeyword: kind = .equality(.isIn)
    case .less: kind = .relational(.less)
    case .lessEqual: kind = .relational(.lessEqual)
    case .greater: kind = .relational(.greater)
    case .greaterEqual: kind = .relational(.greaterEqual)
    case .beginsWith: kind = .string(.beginsWith)
    case .endsWith: kind = .string(.endsWith)
    case .contains: kind = .string(.contains)
    case .like: kind = .string(.like)
    case .text: kind = .text
    case .between: kind = .between
    case .geoWithin: kind = .geoWithin
    default:
      return .expression(left)
    }
    advance()
    switch kind {
    case .equality, .relational: break
    default:
      guard isPlainValue else {
        throw .init(op.start, "'\(op.text)' needs a property or a value on its left, not an arithmetic expression or parentheses")
      }
    }
    var caseInsensitive = false
    if current.kind == .caseInsensitive {
      switch kind {
      case .equality, .string:
        caseInsensitive = true
        advance()
      default:
        throw .init(current.start, "'[c]' applies to ==, !=, IN and the string operators, not '\(op.text)'")
      }
    } else if current.kind == .leftBracket, peek().kind == .identifier, peek(2).kind == .rightBracket {
      let modifier = peek().text
      throw .init(current.start, "modifier '[\(modifier)]' is not supported: Realm accepts only '[c]' (case-insensitive)")
    }
    let right: QuerySyntax.Expression
    switch kind {
    case .equality, .relational:
      right = try parseAdditive(startingWith: nil)
    case .string, .text:
      right = try parseValue()
    case .between:
      let listStart = current.start
      let quantifier = parseQuantifier()
      guard current.kind == .leftBrace else {
        throw .init(current.start, "BETWEEN needs a list of two values, as in 'age BETWEEN {18, 65}'")
      }
      right = .list(try parseConstantList(quantifier: quantifier, start: listStart))
    case .geoWithin:
      throw .init(op.start, "GEOWITHIN (geospatial) queries are not supported by realmctl")
    }
    let comparison = QuerySyntax.Comparison(
      kind: kind, left: left, right: right, caseInsensitive: caseInsensitive, offset: start, operatorOffset: op.start)
    return .predicate(.comparison(comparison))
  }

  // MARK: - Expressions

  private mutating func parseAdditive(startingWith first: QuerySyntax.Expression?) throws(QueryError.Located) -> QuerySyntax.Expression {
    try parseArithmetic(additive: true, startingWith: first)
  }

  /// Operands joined left to right by `+` and `-` (`additive`), or by `*` and `/`, which bind
  /// tighter; `first` is the first operand when the caller has parsed it already.
  private mutating func parseArithmetic(additive: Bool, startingWith first: QuerySyntax.Expression?) throws(QueryError.Located) -> QuerySyntax.Expression {
    let start = first?.offset ?? current.start
    var left = try parseArithmeticOperand(additive: additive, startingWith: first)
    var operators = 0
    while let op = arithmeticOperator(additive: additive) {
      operators += 1
      if operators > Self.maxDepth { throw .init(current.start, "more than \(Self.maxDepth) operators in one arithmetic expression") }
      advance()
      try enter()
      let right = try parseArithmeticOperand(additive: additive, startingWith: nil)
      leave()
      left = .arithmetic(op, left, right, offset: start)
    }
    return left
  }

  private mutating func parseArithmeticOperand(additive: Bool, startingWith first: QuerySyntax.Expression?) throws(QueryError.Located) -> QuerySyntax.Expression {
    if additive { return try parseArithmetic(additive: false, startingWith: first) }
    if let first { return first }
    return try parseOperand()
  }

  /// The current token's operator when it is one of the level's (`+ -` or `* /`).
  private func arithmeticOperator(additive: Bool) -> Character? {
    switch current.kind {
    case .plus where additive: return "+"
    case .minus where additive: return "-"
    case .star where !additive: return "*"
    case .slash where !additive: return "/"
    default: return nil
    }
  }

  /// `value` or `( expr )`.
  private mutating func parseOperand() throws(QueryError.Located) -> QuerySyntax.Expression {
    guard let open = accept(.leftParen) else { return try parseValue() }
    try enter()
    defer { leave() }
    let inner = try parseAdditive(startingWith: nil)
    try expect(.rightParen, "')' to close the '(' at column \(column(open.start))")
    return .parenthesized(inner, offset: open.start)
  }

  private mutating func parseQuantifier() -> QuerySyntax.Quantifier? {
    switch current.kind {
    case .any: advance(); return .any
    case .all: advance(); return .all
    case .none: advance(); return QuerySyntax.Quantifier.noneOf
    default: return nil
    }
  }

  private mutating func parseValue() throws(QueryError.Located) -> QuerySyntax.Expression {
    let start = current.start
    if let quantifier = parseQuantifier() {
      switch current.kind {
      case .leftBrace:
        return .list(try parseConstantList(quantifier: quantifier, start: start))
      case .argument:
        var c = try parseConstant()
        c.quantifier = quantifier
        c.offset = start
        return .constant(c)
      default:
        guard current.isIdentifier || current.kind == .keyPathArgument else {
          throw unexpected("after \(quantifier.rawValue); expected a property path, as in '\(quantifier.rawValue) dogs.age > 5'")
        }
        let path = try parsePath()
        if current.kind == .dot, [.max, .min, .sum, .avg].contains(peek().kind) {
          throw .init(peek().start, "\(quantifier.rawValue) cannot apply to an aggregate such as '\(peek().text)'")
        }
        return .property(try parsePostOperator(path, quantifier: quantifier))
      }
    }
    switch current.kind {
    case .leftBrace:
      return .list(try parseConstantList(quantifier: nil, start: start))
    case .subquery:
      return .subquery(try parseSubquery())
    case .binary where peek().kind == .leftParen:
      return .constant(try parseConstant())
    case .obj:
      return .constant(try parseConstant())
    default:
      if current.isIdentifier || current.kind == .keyPathArgument {
        let path = try parsePath()
        if current.kind == .dot, [.max, .min, .sum, .avg].contains(peek().kind) {
          advance()
          let op: QuerySyntax.AggregateOperator
          switch current.kind {
          case .max: op = .max
          case .min: op = .min
          case .sum: op = .sum
          default: op = .avg
          }
          advance()
          var member: String?
          var memberOffset = current.start
          if accept(.dot) != nil {
            guard current.isIdentifier else {
              throw unexpected("; expected a property name after '\(op.rawValue).'")
            }
            member = current.text
            memberOffset = current.start
            advance()
          }
          return .aggregate(QuerySyntax.Aggregate(path: path, op: op, member: member, memberOffset: memberOffset))
        }
        return .property(try parsePostOperator(path, quantifier: nil))
      }
      return .constant(try parseConstant())
    }
  }

  private mutating func parsePostOperator(_ path: QuerySyntax.Path, quantifier: QuerySyntax.Quantifier?) throws(QueryError.Located) -> QuerySyntax.PropertyPath {
    var property = QuerySyntax.PropertyPath(path: path, quantifier: quantifier, postOperator: nil)
    if current.kind == .dot, peek().kind == .size {
      advance()
      property.postOperator = .size(current.text)
      advance()
    } else if current.kind == .dot, peek().kind == .type {
      advance()
      advance()
      property.postOperator = .type
    } else if current.kind == .leftBracket, peek().kind == .indexSize, peek(2).kind == .rightBracket {
      advance()
      property.postOperator = .size("[\(current.text)]")
      advance()
      advance()
    }
    return property
  }

  // MARK: - Paths

  /// A key path: a name (or `$K0`), then `.name` and `[index]` elements. `@links.Class.property`
  /// becomes one element, as in Realm.
  private mutating func parsePath() throws(QueryError.Located) -> QuerySyntax.Path {
    let start = current.start
    var path = QuerySyntax.Path(elements: [], offsets: [], offset: start, keyPathArgument: nil, text: "")
    var backlink: (text: String, parts: Int, offset: Int)?
    func add(_ element: QuerySyntax.PathElement, _ offset: Int) throws(QueryError.Located) {
      if var b = backlink {
        guard case .key(let name) = element else {
          throw .init(offset, "a class name must follow '@links', as in '@links.Person.dogs'")
        }
        b.text += "." + name
        b.parts += 1
        if b.parts == 3 {
          path.elements.append(.key(b.text))
          path.offsets.append(b.offset)
          backlink = nil
        } else {
          backlink = b
        }
      } else if case .key("@links") = element {
        backlink = ("@links", 1, offset)
      } else {
        path.elements.append(element)
        path.offsets.append(offset)
      }
    }
    if let arg = accept(.keyPathArgument) {
      path.keyPathArgument = arg.text
    } else {
      guard current.isIdentifier else { throw unexpected("; expected a property name") }
      try add(.key(current.kind == .backlink ? "@links" : current.text), current.start)
      advance()
    }
    elements: while true {
      if current.kind == .dot, peek().isIdentifier {
        advance()
        try add(.key(current.kind == .backlink ? "@links" : current.text), current.start)
        advance()
        continue
      }
      guard current.kind == .leftBracket, peek(2).kind == .rightBracket else { break }
      let inner = peek()
      let element: QuerySyntax.PathElement
      switch inner.kind {
      case .natural: element = .index(Self.parseIndex(inner.text))
      case .indexFirst: element = .index(0)
      case .indexLast: element = .last
      case .star: element = .all
      case .string: element = .quotedKey(String(inner.text.dropFirst().dropLast()))
      case .argument: element = .argument(inner.text)
      case .indexSize: break elements  // `[SIZE]` is the size operator
      default:
        throw .init(inner.start, "unexpected \(inner.display) in '[...]'; expected an index, FIRST, LAST, SIZE, * or a 'key'")
      }
      try add(element, current.start)
      advance()
      advance()
      advance()
    }
    if let b = backlink {
      path.elements.append(.key(b.text))
      path.offsets.append(b.offset)
    }
    path.text = text(start, tokens[index - 1].end)
    return path
  }

  /// An index such as `[3]` (octal with a leading 0, as Realm reads it), clamped to Int.
  private static func parseIndex(_ text: String) -> Int {
    Int(clamping: CNumber.strtoll(text))
  }

  // MARK: - Constants

  private mutating func parseConstantList(quantifier: QuerySyntax.Quantifier?, start: Int) throws(QueryError.Located) -> QuerySyntax.ConstantList {
    try expect(.leftBrace, "'{'")
    var elements: [QuerySyntax.Constant] = []
    if accept(.rightBrace) != nil {
      return QuerySyntax.ConstantList(elements: [], quantifier: quantifier, offset: start)
    }
    while true {
      guard isConstantStart else {
        throw unexpected("in a list; a list '{...}' holds constants only (numbers, strings, dates, null, ...)")
      }
      elements.append(try parseConstant())
      if accept(.rightBrace) != nil { break }
      try expect(.comma, "',' or '}' in the list")
    }
    return QuerySyntax.ConstantList(elements: elements, quantifier: quantifier, offset: start)
  }

  private var isConstantStart: Bool {
    switch current.kind {
    case .natural, .number, .string, .uuid, .objectId, .argument, .infinity, .nan, .base64, .float, .timestamp,
      .link, .typedLink, .trueValue, .falseValue, .null, .obj:
      return true
    case .binary: return peek().kind == .leftParen
    default: return false
    }
  }

  private mutating func parseConstant() throws(QueryError.Located) -> QuerySyntax.Constant {
    let t = current
    func make(_ kind: QuerySyntax.ConstantKind, _ text: String? = nil) -> QuerySyntax.Constant {
      QuerySyntax.Constant(kind: kind, text: text ?? t.text, offset: t.start, quantifier: nil, objectClass: nil)
    }
    switch t.kind {
    case .natural, .number: advance(); return make(.number)
    case .string: advance(); return make(.string)
    case .uuid: advance(); return make(.uuid)
    case .objectId: advance(); return make(.objectId)
    case .argument: advance(); return make(.argument)
    case .infinity: advance(); return make(.infinity)
    case .nan: advance(); return make(.nan)
    case .base64: advance(); return make(.base64String)
    case .float: advance(); return make(.float)
    case .timestamp: advance(); return make(.timestamp)
    case .link: advance(); return make(.link)
    case .typedLink: advance(); return make(.typedLink)
    case .trueValue: advance(); return make(.trueValue)
    case .falseValue: advance(); return make(.falseValue)
    case .null: advance(); return make(.null)
    case .binary:
      advance()
      try expect(.leftParen, "'(' after '\(t.text)'")
      let inner = current
      let kind: QuerySyntax.ConstantKind
      switch inner.kind {
      case .string: kind = .binaryString
      case .base64: kind = .binaryBase64
      default: throw unexpected("; expected a string or B64\"...\" inside \(t.text)(...)")
      }
      advance()
      try expect(.rightParen, "')' to close \(t.text)(")
      return QuerySyntax.Constant(kind: kind, text: inner.text, offset: t.start, quantifier: nil, objectClass: nil)
    case .obj:
      advance()
      try expect(.leftParen, "'(' after 'obj'")
      let cls = try expect(.string, "the class name as a string, as in obj('Person', 1)")
      try expect(.comma, "',' after the class name")
      let key = current
      let kind: QuerySyntax.ConstantKind
      switch key.kind {
      case .natural, .number: kind = .number
      case .string: kind = .string
      case .uuid: kind = .uuid
      case .objectId: kind = .objectId
      case .argument: kind = .argument
      default: throw unexpected("; expected a primary key value inside obj(...)")
      }
      advance()
      try expect(.rightParen, "')' to close obj(")
      return QuerySyntax.Constant(
        kind: kind, text: key.text, offset: t.start, quantifier: nil, objectClass: String(cls.text.dropFirst().dropLast()))
    case .end:
      throw .init(t.start, "the query ends where a value was expected")
    case .leftParen:
      throw unexpected("; a parenthesis cannot start a value here (BEGINSWITH, CONTAINS, ENDSWITH, LIKE compare plain values)")
    default:
      throw unexpected("; expected a value")
    }
  }

  // MARK: - Subqueries and descriptors

  private mutating func parseSubquery() throws(QueryError.Located) -> QuerySyntax.Subquery {
    let start = current.start
    advance()
    try expect(.leftParen, "'(' after SUBQUERY")
    guard current.isIdentifier || current.kind == .keyPathArgument else {
      throw unexpected("; SUBQUERY needs a list property first, as in SUBQUERY(dogs, $dog, $dog.age > 5).@count")
    }
    let path = try parsePath()
    try expect(.comma, "',' after the list of SUBQUERY")
    guard current.isIdentifier else { throw unexpected("; expected the variable of SUBQUERY, such as $dog") }
    let variable = current
    advance()
    try expect(.comma, "',' after the variable of SUBQUERY")
    try enter()
    let predicateStart = current.start
    let inner = try parseOr()
    leave()
    guard case .predicate(let predicate) = inner else {
      throw .init(predicateStart, "the third part of SUBQUERY must be a condition")
    }
    try expect(.rightParen, "')' to close SUBQUERY(")
    guard current.kind == .dot, peek().kind == .size else {
      throw unexpected("; SUBQUERY(...) must be followed by .@count (or .@size)")
    }
    advance()
    advance()
    return QuerySyntax.Subquery(
      path: path, variable: variable.text, variableOffset: variable.start, predicate: predicate, offset: start)
  }

  private mutating func parseDescriptor() throws(QueryError.Located) -> QuerySyntax.Descriptor? {
    let start = current.start
    switch current.kind {
    case .sort:
      return .sort(try parseDescriptorPaths("SORT", sorting: true), offset: start)
    case .distinct:
      return .distinct(try parseDescriptorPaths("DISTINCT", sorting: false).map(\.0), offset: start)
    case .limit:
      advance()
      try expect(.leftParen, "'(' after LIMIT")
      let n = try expect(.natural, "a count of objects, as in LIMIT(10)")
      try expect(.rightParen, "')' after the count of LIMIT")
      return .limit(n.text, offset: start)
    default:
      return nil
    }
  }

  /// `SORT(…)` or `DISTINCT(…)` from its keyword (`name`): properties separated by commas, each
  /// followed by ASC or DESC when `sorting` (without, `ascending` is true).
  private mutating func parseDescriptorPaths(
    _ name: String, sorting: Bool
  ) throws(QueryError.Located) -> [(QuerySyntax.Path, ascending: Bool)] {
    advance()
    try expect(.leftParen, "'(' after \(name)")
    var items: [(QuerySyntax.Path, ascending: Bool)] = []
    repeat {
      guard current.isIdentifier || current.kind == .keyPathArgument else {
        throw unexpected("; expected a property \(sorting ? "to sort by" : "for DISTINCT")")
      }
      let path = try parsePath()
      items.append((path, try sorting ? parseDirection(after: path) : true))
    } while accept(.comma) != nil
    try expect(.rightParen, "',' or ')' in \(name)(...)")
    return items
  }

  /// ASC (true) or DESC (false) after a property of SORT.
  private mutating func parseDirection(after path: QuerySyntax.Path) throws(QueryError.Located) -> Bool {
    if accept(.ascending) != nil { return true }
    if accept(.descending) != nil { return false }
    throw unexpected("; expected ASC or DESC after '\(path.text)'")
  }
}
