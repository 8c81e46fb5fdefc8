/// A node of the syntax tree, with the byte range of its source and its nesting depth.
struct Syntax: Sendable {
  var kind: Kind
  /// Byte offset of the first byte.
  var start: Int
  /// Byte offset just past the last byte.
  var end: Int
  /// 1 for a leaf, 1 + the deepest child otherwise.
  var depth: Int

  indirect enum Kind: Sendable {
    case int(Int64)
    case double(Double)
    case string(String)
    case bool(Bool)
    case null
    /// `[a, b]` or `{a, b}`.
    case list([Syntax])
    /// `old` or `new`: only valid as the start of a path.
    case root(Root)
    /// A name on its own: a property in a `where` filter.
    case bare(String)
    /// `base.name`; `nameStart` is the byte offset of the name.
    case member(Syntax, String, nameStart: Int)
    /// `base.@count`, `base.@size`.
    case aggregate(Syntax, String)
    /// `base[index]`.
    case index(Syntax, Syntax)
    /// `name(arguments)`.
    case call(String, [Syntax])
    case unary(UnaryOperator, Syntax)
    case binary(BinaryOperator, Syntax, Syntax)
    /// `left op right`; a quantifier (`ANY`/`ALL`/`NONE`) applies to a collection on the left.
    case comparison(ComparisonOperator, caseInsensitive: Bool, Syntax, Syntax, Quantifier?)
    case conditional(Syntax, Syntax, Syntax)
  }

  enum Root: String, Sendable { case old, new }

  init(_ kind: Kind, start: Int, end: Int, children: [Syntax] = []) {
    self.kind = kind
    self.start = start
    self.end = end
    self.depth = 1 + (children.map(\.depth).max() ?? 0)
  }
}

/// RQL's collection quantifiers (`SOME` is `ANY`).
enum Quantifier: String, Sendable {
  case any = "ANY", all = "ALL", none = "NONE"
}

enum UnaryOperator: String, Sendable {
  case negate = "-", not = "!"
}

enum BinaryOperator: String, Sendable {
  case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
  case and = "&&", or = "||", coalesce = "??"
}

enum ComparisonOperator: String, Sendable {
  case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
  case beginsWith = "BEGINSWITH", contains = "CONTAINS", endsWith = "ENDSWITH", like = "LIKE", isIn = "IN"

  /// True for the string operators that take `[c]`.
  var isStringOperator: Bool {
    switch self {
    case .beginsWith, .contains, .endsWith, .like: return true
    default: return false
    }
  }
}
