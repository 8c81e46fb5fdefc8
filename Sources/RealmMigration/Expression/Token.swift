/// One token of an expression or filter, with the byte offset where it starts.
struct Token: Sendable, Equatable {
  /// What the token is.
  var kind: TokenKind
  /// Byte offset of its first byte.
  var offset: Int
  /// Byte offset just past its last byte.
  var end: Int
}

/// The kinds of token. Keywords (`AND`, `BEGINSWITH`, `true`, ...) are identifiers; the
/// parser recognises them by position, so a property may still be called `in` or `like`.
enum TokenKind: Sendable, Equatable {
  /// An integer literal's magnitude (a leading `-` is an operator).
  case int(UInt64)
  case double(Double)
  case string(String)
  case identifier(String)
  /// `@count`, `@size`: the name without `@`.
  case atName(String)
  case punct(Punct)
  case end
}

/// Operators and delimiters.
enum Punct: String, Sendable, Equatable, CaseIterable {
  case leftParen = "(", rightParen = ")", leftBracket = "[", rightBracket = "]"
  case leftBrace = "{", rightBrace = "}", comma = ",", dot = ".", question = "?", colon = ":"
  case coalesce = "??", plus = "+", minus = "-", star = "*", slash = "/", percent = "%"
  case equal = "==", singleEqual = "=", notEqual = "!=", less = "<", lessEqual = "<="
  case greater = ">", greaterEqual = ">=", and = "&&", or = "||", not = "!"
}

extension TokenKind {
  /// How the token is named in a syntax error.
  var display: String {
    switch self {
    case .int(let v): return "number '\(v)'"
    case .double(let v): return "number '\(v)'"
    case .string(let s): return "string '\(s)'"
    case .identifier(let s): return "'\(s)'"
    case .atName(let s): return "'@\(s)'"
    case .punct(let p): return "'\(p.rawValue)'"
    case .end: return "the end of the expression"
    }
  }
}
