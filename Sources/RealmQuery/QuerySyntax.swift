/// The syntax tree of a Realm Query Language text, as Realm's grammar builds it.
enum QuerySyntax {
  /// A condition: comparisons joined by `AND`/`OR`/`NOT`, or `TRUEPREDICATE`/`FALSEPREDICATE`.
  indirect enum Predicate: Sendable {
    case constant(Bool, offset: Int)
    case and([Predicate])
    case or([Predicate])
    case not(Predicate, offset: Int)
    case comparison(Comparison)
  }

  /// `left op right`.
  struct Comparison: Sendable {
    var kind: ComparisonKind
    var left: Expression
    var right: Expression
    /// `[c]`.
    var caseInsensitive: Bool
    /// Byte offset of the comparison's first token.
    var offset: Int
    /// Byte offset of the operator.
    var operatorOffset: Int
  }

  /// The comparison operators, grouped as Realm's grammar groups them.
  enum ComparisonKind: Sendable, Equatable {
    /// `==` `!=` `IN`.
    case equality(EqualityOperator)
    /// `<` `<=` `>` `>=`.
    case relational(RelationalOperator)
    /// `BEGINSWITH` `ENDSWITH` `CONTAINS` `LIKE`.
    case string(StringOperator)
    /// `TEXT` (full-text search).
    case text
    /// `BETWEEN {a, b}`.
    case between
    /// `GEOWITHIN`.
    case geoWithin
  }

  enum EqualityOperator: String, Sendable { case equal = "==", notEqual = "!=", isIn = "IN" }
  enum RelationalOperator: String, Sendable {
    case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
  }
  enum StringOperator: String, Sendable {
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", contains = "CONTAINS", like = "LIKE"
  }

  /// `ANY`, `ALL`, `NONE` (`SOME` is `ANY`).
  enum Quantifier: String, Sendable { case any = "ANY", all = "ALL", noneOf = "NONE" }

  /// A value: a constant, a property path, a list of constants, an aggregate, a subquery, or
  /// arithmetic on them.
  indirect enum Expression: Sendable {
    case constant(Constant)
    case property(PropertyPath)
    case list(ConstantList)
    /// `path.@max` / `path.@min` / `path.@sum` / `path.@avg`, with `.member` over links.
    case aggregate(Aggregate)
    case subquery(Subquery)
    case arithmetic(Character, Expression, Expression, offset: Int)
    /// `( expression )`.
    case parenthesized(Expression, offset: Int)

    /// Byte offset of the first token.
    var offset: Int {
      switch self {
      case .constant(let c): return c.offset
      case .property(let p): return p.offset
      case .list(let l): return l.offset
      case .aggregate(let a): return a.path.offset
      case .subquery(let s): return s.offset
      case .arithmetic(_, _, _, let o), .parenthesized(_, let o): return o
      }
    }

    /// True for constants and lists of constants (and arithmetic on constants only).
    var isConstant: Bool {
      switch self {
      case .constant, .list: return true
      case .arithmetic(_, let l, let r, _): return l.isConstant && r.isConstant
      case .parenthesized(let e, _): return e.isConstant
      default: return false
      }
    }

    /// True for a list of constants (or arithmetic with one).
    var isList: Bool {
      switch self {
      case .list: return true
      case .arithmetic(_, let l, let r, _): return l.isList || r.isList
      case .parenthesized(let e, _): return e.isList
      default: return false
      }
    }
  }

  /// A literal, as written.
  struct Constant: Sendable {
    var kind: ConstantKind
    /// The literal's text (for strings, with the quotes).
    var text: String
    var offset: Int
    /// `ANY`/`ALL`/`NONE` before an argument `$0`.
    var quantifier: Quantifier?
    /// `obj('Class', key)`: the class name.
    var objectClass: String?
  }

  enum ConstantKind: Sendable, Equatable {
    case number, infinity, nan, float, string, base64String, binaryString, binaryBase64, timestamp
    case uuid, objectId, link, typedLink, null, trueValue, falseValue, argument
  }

  /// `{a, b}`, possibly after `ANY`/`ALL`/`NONE`.
  struct ConstantList: Sendable {
    var elements: [Constant]
    var quantifier: Quantifier?
    var offset: Int
  }

  /// One element of a key path.
  enum PathElement: Sendable, Equatable, CustomStringConvertible {
    /// A property name (or a dictionary key written as a name), `@links.Class.property`
    /// merged into one element, `@keys`, `@values`.
    case key(String)
    /// `[n]`, `[FIRST]` (0); `[LAST]` is `last`.
    case index(Int)
    case last
    /// `[*]`.
    case all
    /// `['key']`.
    case quotedKey(String)
    /// `[$0]`.
    case argument(String)

    var description: String {
      switch self {
      case .key(let k): return k
      case .index(let i): return "[\(i)]"
      case .last: return "[LAST]"
      case .all: return "[*]"
      case .quotedKey(let k): return "['\(k)']"
      case .argument(let a): return "[\(a)]"
      }
    }
  }

  /// A key path with its byte ranges.
  struct Path: Sendable {
    var elements: [PathElement]
    /// Byte offset of each element's first token.
    var offsets: [Int]
    var offset: Int
    /// `$K0` in place of a path.
    var keyPathArgument: String?
    /// The text of the whole path, for messages.
    var text: String
  }

  /// A property path with its post operator.
  struct PropertyPath: Sendable {
    var path: Path
    var quantifier: Quantifier?
    var postOperator: PostOperator?
    var offset: Int { path.offset }
  }

  /// `.@size`/`.@count`/`[SIZE]` or `.@type`.
  enum PostOperator: Sendable, Equatable {
    case size(String)
    case type
  }

  enum AggregateOperator: String, Sendable {
    case max = "@max", min = "@min", sum = "@sum", avg = "@avg"
  }

  /// `path.@op` or `path.@op.member`.
  struct Aggregate: Sendable {
    var path: Path
    var op: AggregateOperator
    var member: String?
    var memberOffset: Int
  }

  /// `SUBQUERY(path, $var, predicate).@count`.
  struct Subquery: Sendable {
    var path: Path
    var variable: String
    var variableOffset: Int
    var predicate: Predicate
    var offset: Int
  }

  /// `SORT(...)`, `DISTINCT(...)`, `LIMIT(n)` after the predicate.
  enum Descriptor: Sendable {
    case sort([(Path, ascending: Bool)], offset: Int)
    case distinct([Path], offset: Int)
    case limit(String, offset: Int)
  }

  /// A whole query.
  struct Query: Sendable {
    var predicate: Predicate
    var descriptors: [Descriptor]
  }
}
