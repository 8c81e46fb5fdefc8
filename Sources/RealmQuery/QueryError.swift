import RealmModel

/// A fault found while compiling a Realm Query Language filter: a syntax error, an unknown
/// name, a type mismatch or a limit.
///
/// `column` is 1-based and counts characters of the query text. Callers that embed a query in
/// a larger document (a migration plan) prefix their own location. RealmMigration's
/// expression language reports its compile faults with this type too (its `ExpressionError`).
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
  /// 1-based character column of the fault in the query text.
  public var column: Int
  /// One sentence saying what is wrong, without the column.
  public var message: String
  /// The property the query names and its class does not have, when that is the fault.
  public var missingProperty: MissingProperty?

  /// Creates an error.
  public init(column: Int, message: String, missingProperty: MissingProperty? = nil) {
    self.column = column
    self.message = message
    self.missingProperty = missingProperty
  }

  /// `column N: message`.
  public var description: String { "column \(column): \(message)" }

  /// An error located by byte offset; turned into a ``QueryError`` with a column at the API.
  package typealias Located = SourceLocatedError
}

/// An error located by byte offset in a source text, turned into an error with a character
/// column at the API. Shared by the query language and the expression language.
package struct SourceLocatedError: Error, Sendable {
  /// Where the fault is.
  package var position: SourcePosition
  /// One sentence saying what is wrong, without the location.
  package var message: String
  /// The property the source names and the class does not have, when that is the fault.
  package var missingProperty: MissingProperty?

  /// An error at byte `offset` of the source.
  package init(_ offset: Int, _ message: String, missingProperty: MissingProperty? = nil) {
    position = SourcePosition(offset: offset)
    self.message = message
    self.missingProperty = missingProperty
  }
}

/// Where a node starts in a source text: a byte offset, turned into a character column only
/// when an error is reported. Shared by the query language and the expression language.
package struct SourcePosition: Hashable, Sendable {
  /// Byte offset into the UTF-8 source.
  package var offset: Int

  package init(offset: Int) { self.offset = offset }
}

/// Converts byte offsets of one source text into 1-based character columns.
package struct ColumnMap: Sendable {
  package let source: String

  package init(source: String) { self.source = source }

  /// The 1-based character column of the byte at `offset`.
  package func column(of location: SourcePosition) -> Int {
    let utf8 = source.utf8
    let end = utf8.index(utf8.startIndex, offsetBy: min(max(0, location.offset), utf8.count))
    // Round down to a character boundary so a fault inside a character points at it.
    let prefix = source[source.startIndex..<end]
    return prefix.count + 1
  }
}
