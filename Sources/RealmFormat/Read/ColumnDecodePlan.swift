import RealmModel
/// How to decode one public column of a table, worked out once per table.
struct ColumnDecodePlan: Sendable {
  /// The column.
  let column: Column
  /// Element kind.
  let kind: ValueKind
  /// Single value or collection.
  let collection: CollectionKind
  /// Whether values (or elements) may be null.
  let nullable: Bool
  /// For links: the position of the target table in ``Group/tables``.
  let target: Int?
  /// For enumerated string columns (§4.7): the distinct values.
  let enumValues: ArrayNode?
  /// For dictionaries: whether the keys are integers (otherwise strings).
  let intKeys: Bool

  init(_ column: Column, reader: ByteReader, tableIndexByKey: [Int64: Int]) throws(FormatError) {
    self.column = column
    kind = try ValueKind(column.type)
    collection = column.collectionKind
    nullable = column.isNullable
    target = column.oppositeTableKey.flatMap { tableIndexByKey[$0] }
    enumValues = column.enumValuesRef.isNull ? nil : try ArrayNode(elements: reader, column.enumValuesRef)
    intKeys = column.dictionaryKeyType == .int
  }
}
