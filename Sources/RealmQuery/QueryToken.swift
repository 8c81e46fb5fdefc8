/// One token of a Realm Query Language text, with its byte range.
struct QueryToken: Sendable, Equatable {
  /// What the token is.
  var kind: Kind
  /// The token's text as written (for identifiers, with `\ `, `\t`, `\n`, `\r` resolved).
  var text: String
  /// Byte offset of its first byte.
  var start: Int
  /// Byte offset just past its last byte.
  var end: Int

  /// The token kinds of Realm's grammar. Several keywords may also be property names
  /// (``isIdentifier``): the parser decides by position, as Realm's does.
  enum Kind: Sendable, Equatable {
    case end
    case plus, minus, star, slash
    case equal, notEqual, less, greater, lessEqual, greaterEqual
    case leftParen, rightParen, leftBracket, rightBracket, leftBrace, rightBrace, comma, dot
    case and, or, not
    case any, all, none
    case beginsWith, endsWith, contains, like, text, between, inKeyword, geoWithin
    case truePredicate, falsePredicate
    case sort, distinct, limit, ascending, descending
    case binary, obj, subquery, geoBox, geoPolygon, geoCircle
    /// `@size` or `@count`.
    case size
    case max, min, sum, avg
    /// `@links`.
    case backlink
    /// `@type`.
    case type
    /// `@keys` or `@values`.
    case keyOrValue
    case indexFirst, indexLast, indexSize
    /// `[c]`.
    case caseInsensitive
    case trueValue, falseValue, null
    case infinity, nan
    case uuid, objectId, timestamp, link, typedLink
    /// A decimal integer without sign (also usable as an index or a limit).
    case natural
    /// An integer with a sign, or hexadecimal (`0x1F`).
    case number
    case float
    /// `$0`.
    case argument
    /// `$K0`.
    case keyPathArgument
    /// `B64"..."`.
    case base64
    case string
    case identifier
  }

  /// True when the token may stand for a property name in a key path.
  var isIdentifier: Bool {
    switch kind {
    case .identifier, .backlink, .beginsWith, .endsWith, .contains, .like, .between, .keyOrValue,
      .sort, .distinct, .limit, .ascending, .descending, .inKeyword, .text, .binary, .indexFirst,
      .indexLast, .indexSize:
      return true
    default:
      return false
    }
  }

  /// The token as named in a syntax error.
  var display: String {
    switch kind {
    case .end: return "the end of the query"
    case .string: return "string \(text)"
    case .natural, .number, .float: return "number '\(text)'"
    default: return "'\(text)'"
    }
  }
}
