import RealmQuery

/// Recursive-descent parser from tokens to ``Syntax``, for both the value language and
/// `where` filters (one grammar; the compiler decides what a bare name means).
///
/// Precedence, loosest first: `?:`, `||`/`OR`, `&&`/`AND`, `!`/`NOT` (applies to a whole
/// comparison, as in Realm Query Language), comparisons (not chainable), `??`, `+ -`,
/// `* / %`, prefix `-`/`!`, postfix `.name` `.@count` `[i]`. See docs/expression-language.md.
struct Parser {
  private let tokens: [Token]
  private var index = 0
  private var nesting = 0

  /// Parses a whole source text.
  static func parse(_ source: String) throws(ExpressionError.Located) -> Syntax {
    guard source.utf8.count <= ExpressionLimits.maxSourceBytes else {
      throw .init(0, "expression is \(source.utf8.count) bytes long; the limit is \(ExpressionLimits.maxSourceBytes)")
    }
    var lexer = Lexer(source)
    var parser = Parser(tokens: try lexer.tokenize())
    let tree = try parser.parseExpression()
    guard case .end = parser.current.kind else {
      throw .init(parser.current.offset, "unexpected \(parser.current.kind.display) after a complete expression")
    }
    return tree
  }

  private init(tokens: [Token]) {
    self.tokens = tokens
  }

  // MARK: - Token helpers

  private var current: Token { tokens[min(index, tokens.count - 1)] }
  private var previousEnd: Int { index > 0 ? tokens[index - 1].end : 0 }

  private func peekKind(_ ahead: Int) -> TokenKind {
    let i = index + ahead
    return i < tokens.count ? tokens[i].kind : .end
  }

  private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

  private mutating func accept(_ p: Punct) -> Bool {
    if case .punct(p) = current.kind {
      advance()
      return true
    }
    return false
  }

  private mutating func expect(_ p: Punct, _ context: String) throws(ExpressionError.Located) {
    guard accept(p) else {
      throw .init(current.offset, "expected '\(p.rawValue)' \(context), found \(current.kind.display)")
    }
  }

  /// The current token as an upper-cased keyword, if it is an identifier.
  private var keyword: String? {
    if case .identifier(let s) = current.kind { return s.uppercased() }
    return nil
  }

  private mutating func enter() throws(ExpressionError.Located) {
    nesting += 1
    if nesting > ExpressionLimits.maxDepth { throw depthError(current.offset) }
  }
  private mutating func leave() { nesting -= 1 }

  private func integerRange(_ offset: Int) -> ExpressionError.Located {
    .init(offset, "integer is out of range (\(Int64.min) to \(Int64.max))")
  }

  private func depthError(_ offset: Int) -> ExpressionError.Located {
    .init(offset, "expression is nested more than \(ExpressionLimits.maxDepth) levels deep")
  }

  private func make(_ kind: Syntax.Kind, _ start: Int, _ children: [Syntax]) throws(ExpressionError.Located) -> Syntax {
    let node = Syntax(kind, start: start, end: previousEnd, children: children)
    if node.depth > ExpressionLimits.maxDepth { throw depthError(start) }
    return node
  }

  // MARK: - Grammar

  mutating func parseExpression() throws(ExpressionError.Located) -> Syntax {
    try enter()
    defer { leave() }
    let start = current.offset
    let condition = try parseOr()
    guard accept(.question) else { return condition }
    let whenTrue = try parseExpression()
    try expect(.colon, "between the branches of '?'")
    let whenFalse = try parseExpression()
    return try make(.conditional(condition, whenTrue, whenFalse), start, [condition, whenTrue, whenFalse])
  }

  private mutating func parseOr() throws(ExpressionError.Located) -> Syntax { try parseJoined(by: .or) }

  /// Operands joined by `||`/`OR` (`.or`) or `&&`/`AND` (`.and`), left to right. `&&` binds
  /// tighter than `||`, and `!`/`NOT` tighter than `&&`.
  private mutating func parseJoined(by op: BinaryOperator) throws(ExpressionError.Located) -> Syntax {
    let (punct, word): (Punct, String) = op == .or ? (.or, "OR") : (.and, "AND")
    let start = current.offset
    var left = try parseOperand(of: op)
    while accept(punct) || acceptKeyword(word) {
      let right = try parseOperand(of: op)
      left = try make(.binary(op, left, right), start, [left, right])
    }
    return left
  }

  private mutating func parseOperand(of op: BinaryOperator) throws(ExpressionError.Located) -> Syntax {
    op == .or ? try parseJoined(by: .and) : try parseNot()
  }

  private mutating func acceptKeyword(_ word: String) -> Bool {
    guard keyword == word else { return false }
    advance()
    return true
  }

  /// `!`/`NOT` before a comparison negates the whole comparison.
  private mutating func parseNot() throws(ExpressionError.Located) -> Syntax {
    let start = current.offset
    let isNot: Bool
    if case .punct(.not) = current.kind { isNot = true } else { isNot = keyword == "NOT" }
    guard isNot else { return try parseComparison() }
    try enter()
    defer { leave() }
    advance()
    let operand = try parseNot()
    return try make(.unary(.not, operand), start, [operand])
  }

  private mutating func parseComparison() throws(ExpressionError.Located) -> Syntax {
    let start = current.offset
    var quantifier: Quantifier?
    if let k = keyword, ["ANY", "SOME", "ALL", "NONE"].contains(k), case .identifier = peekKind(1) {
      quantifier = k == "ALL" ? Quantifier.all : k == "NONE" ? Quantifier.none : Quantifier.any
      advance()
    }
    let left = try parseCoalesce()
    guard let op = try comparisonOperator() else {
      if let quantifier {
        throw .init(current.offset, "'\(quantifier.rawValue)' needs a comparison, as in '\(quantifier.rawValue) dogs.age > 5'")
      }
      return left
    }
    let caseInsensitive = try parseModifier()
    if caseInsensitive, !(op.isStringOperator || op == .equal || op == .notEqual || op == .isIn) {
      throw .init(previousEnd, "'[c]' applies to ==, !=, IN and the string operators, not '\(op.rawValue)'")
    }
    let right = try parseCoalesce()
    if try comparisonOperator(peekOnly: true) != nil {
      throw .init(current.offset, "comparisons cannot be chained; use parentheses and '&&'")
    }
    return try make(
      .comparison(op, caseInsensitive: caseInsensitive, left, right, quantifier), start, [left, right])
  }

  private mutating func comparisonOperator(peekOnly: Bool = false) throws(ExpressionError.Located) -> ComparisonOperator? {
    let op: ComparisonOperator?
    switch current.kind {
    case .punct(.equal), .punct(.singleEqual): op = .equal
    case .punct(.notEqual): op = .notEqual
    case .punct(.less): op = .less
    case .punct(.lessEqual): op = .lessEqual
    case .punct(.greater): op = .greater
    case .punct(.greaterEqual): op = .greaterEqual
    case .identifier:
      switch keyword {
      case "BEGINSWITH": op = .beginsWith
      case "CONTAINS": op = .contains
      case "ENDSWITH": op = .endsWith
      case "LIKE": op = .like
      case "IN": op = .isIn
      case "BETWEEN", "MATCHES", "TEXT":
        throw .init(current.offset, "'\(keyword ?? "")' is not supported; see docs/expression-language.md")
      default: op = nil
      }
    default: op = nil
    }
    if op != nil, !peekOnly { advance() }
    return op
  }

  /// `[c]` after an operator; `[d]` and `[cd]` are refused.
  private mutating func parseModifier() throws(ExpressionError.Located) -> Bool {
    guard case .punct(.leftBracket) = current.kind, case .identifier(let m) = peekKind(1),
      case .punct(.rightBracket) = peekKind(2), ["c", "d", "cd", "dc"].contains(m)
    else { return false }
    guard m == "c" else {
      throw .init(tokens[index + 1].offset, "modifier '[\(m)]' is not supported; only '[c]' (case-insensitive) is")
    }
    advance(); advance(); advance()
    return true
  }

  private mutating func parseCoalesce() throws(ExpressionError.Located) -> Syntax {
    let start = current.offset
    let left = try parseAdditive()
    guard accept(.coalesce) else { return left }
    try enter()
    defer { leave() }
    let right = try parseCoalesce()
    return try make(.binary(.coalesce, left, right), start, [left, right])
  }

  private mutating func parseAdditive() throws(ExpressionError.Located) -> Syntax {
    let start = current.offset
    var left = try parseMultiplicative()
    while true {
      let op: BinaryOperator
      if accept(.plus) { op = .add } else if accept(.minus) { op = .subtract } else { return left }
      let right = try parseMultiplicative()
      left = try make(.binary(op, left, right), start, [left, right])
    }
  }

  private mutating func parseMultiplicative() throws(ExpressionError.Located) -> Syntax {
    let start = current.offset
    var left = try parseUnary()
    while true {
      let op: BinaryOperator
      if accept(.star) {
        op = .multiply
      } else if accept(.slash) {
        op = .divide
      } else if accept(.percent) {
        op = .remainder
      } else {
        return left
      }
      let right = try parseUnary()
      left = try make(.binary(op, left, right), start, [left, right])
    }
  }

  private mutating func parseUnary() throws(ExpressionError.Located) -> Syntax {
    let start = current.offset
    let op: UnaryOperator
    if accept(.minus) {
      op = .negate
    } else if accept(.not) {
      op = .not
    } else {
      return try parsePostfix()
    }
    try enter()
    defer { leave() }
    // Fold `-9223372036854775808` and other negative literals directly.
    if op == .negate, case .int(let magnitude) = current.kind {
      guard magnitude <= UInt64(Int64.max) + 1 else { throw integerRange(current.offset) }
      advance()
      let value = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
      return try parsePostfixTail(try make(.int(value), start, []), start)
    }
    if op == .negate, case .double(let v) = current.kind {
      advance()
      return try parsePostfixTail(try make(.double(-v), start, []), start)
    }
    let operand = try parseUnary()
    return try make(.unary(op, operand), start, [operand])
  }

  private mutating func parsePostfix() throws(ExpressionError.Located) -> Syntax {
    let start = current.offset
    return try parsePostfixTail(try parsePrimary(), start)
  }

  private mutating func parsePostfixTail(_ base: Syntax, _ start: Int) throws(ExpressionError.Located) -> Syntax {
    var node = base
    while true {
      if accept(.dot) {
        switch current.kind {
        case .identifier(let name):
          let nameStart = current.offset
          advance()
          node = try make(.member(node, name, nameStart: nameStart), start, [node])
        case .atName(let name):
          advance()
          node = try make(.aggregate(node, name), start, [node])
        default:
          throw .init(current.offset, "expected a property name after '.', found \(current.kind.display)")
        }
      } else if case .punct(.leftBracket) = current.kind {
        advance()
        try enter()
        let subscriptNode = try parseExpression()
        leave()
        try expect(.rightBracket, "to close the index")
        node = try make(.index(node, subscriptNode), start, [node, subscriptNode])
      } else if case .punct(.leftParen) = current.kind {
        throw .init(current.offset, "only a function name can be called; found '(' after \(describe(node))")
      } else {
        return node
      }
    }
  }

  private func describe(_ node: Syntax) -> String {
    switch node.kind {
    case .member(_, let n, _): return "'.\(n)'"
    default: return "a value"
    }
  }

  private mutating func parsePrimary() throws(ExpressionError.Located) -> Syntax {
    let token = current
    let start = token.offset
    switch token.kind {
    case .int(let magnitude):
      guard let v = Int64(exactly: magnitude) else { throw integerRange(start) }
      advance()
      return try make(.int(v), start, [])
    case .double(let v):
      advance()
      return try make(.double(v), start, [])
    case .string(let s):
      advance()
      return try make(.string(s), start, [])
    case .identifier(let name):
      advance()
      if case .punct(.leftParen) = current.kind { return try parseCall(name, start) }
      switch name.uppercased() {
      case "TRUE", "TRUEPREDICATE": return try make(.bool(true), start, [])
      case "FALSE", "FALSEPREDICATE": return try make(.bool(false), start, [])
      case "NULL", "NIL": return try make(.null, start, [])
      case "AND", "OR", "NOT", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "IN":
        // Operators, not names (a property with such a name is reachable as 'old.in').
        throw .init(start, "expected a value, found '\(name)'")
      case "ANY", "SOME", "ALL", "NONE":
        throw .init(start, "'\(name)' must be followed by a collection property, as in '\(name) dogs.age > 5'")
      case "SUBQUERY":
        throw .init(start, "'SUBQUERY' is not supported")
      default: break
      }
      if name == "old" { return try make(.root(.old), start, []) }
      if name == "new" { return try make(.root(.new), start, []) }
      return try make(.bare(name), start, [])
    case .punct(.leftParen):
      advance()
      let inner = try parseExpression()
      try expect(.rightParen, "to close '('")
      var node = inner
      node.start = start
      node.end = previousEnd
      return node
    case .punct(.leftBracket):
      advance()
      return try parseList(start, closing: .rightBracket)
    case .punct(.leftBrace):
      advance()
      return try parseList(start, closing: .rightBrace)
    case .end:
      throw .init(start, start == 0 ? "expression is empty" : "expression ends where a value was expected")
    case .atName(let n):
      throw .init(start, "'@\(n)' must follow a property, as in 'tags.@\(n)'")
    default:
      throw .init(start, "expected a value, found \(token.kind.display)")
    }
  }

  private mutating func parseArguments(closing: Punct, _ what: String) throws(ExpressionError.Located) -> [Syntax] {
    try enter()
    defer { leave() }
    var items: [Syntax] = []
    if accept(closing) { return items }
    while true {
      items.append(try parseExpression())
      if items.count > ExpressionLimits.maxArguments {
        throw .init(current.offset, "more than \(ExpressionLimits.maxArguments) \(what)")
      }
      if accept(closing) { return items }
      try expect(.comma, "or '\(closing.rawValue)' after \(what == "arguments" ? "an argument" : "an element")")
    }
  }

  private mutating func parseList(_ start: Int, closing: Punct) throws(ExpressionError.Located) -> Syntax {
    let items = try parseArguments(closing: closing, "elements")
    return try make(.list(items), start, items)
  }

  private mutating func parseCall(_ name: String, _ start: Int) throws(ExpressionError.Located) -> Syntax {
    advance()  // (
    let arguments = try parseArguments(closing: .rightParen, "arguments")
    return try make(.call(name, arguments), start, arguments)
  }
}
