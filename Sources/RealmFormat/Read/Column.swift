import RealmModel
/// One column of a table as described by its spec (§4.2-§4.5, §4.8).
///
/// Corresponds to one entry of `realm::Spec` plus the per-leaf-index entries of the table top
/// array (search index, opposite table and column).
public struct Column: Sendable, Hashable {
  /// The column name; empty for backlink columns, which have none.
  public var name: String
  /// The column key (leaf index, type, attributes, tag).
  public var key: ColKey
  /// The column type from the column key (`linkList` only in formats <= 23).
  public var type: ColumnType
  /// The full attribute mask from the spec (includes Indexed and FullText, which keys omit).
  public var attributes: ColumnAttributes
  /// Position in the spec arrays.
  public var specIndex: Int
  /// For link and backlink columns: the key of the table on the other side.
  public var oppositeTableKey: Int64?
  /// For link and backlink columns: the key of the column on the other side.
  public var oppositeColumnKey: ColKey?
  /// For dictionary columns: the type of the keys (`.string` or `.int`).
  public var dictionaryKeyType: ColumnType?
  /// Root of the column's search index (table slot 4), or ``Ref/null``.
  public var searchIndexRef: Ref
  /// For enumerated string columns (§4.7): the leaf of distinct values, or ``Ref/null``.
  public var enumValuesRef: Ref

  /// Slot in cluster leaves (`1 + leafIndex`) and in the table's per-column arrays.
  public var leafIndex: Int { key.leafIndex }
  /// True when a search index exists for this column (also for primary keys without the
  /// Indexed attribute, §4.5).
  public var hasSearchIndex: Bool { !searchIndexRef.isNull }
  /// True for backlink columns, which are not properties.
  public var isBacklink: Bool { type == .backlink }
  /// True when values (or collection elements) may be null.
  public var isNullable: Bool { attributes.contains(.nullable) }
  /// True for single links, link collections and legacy link lists.
  public var isLink: Bool { type.isLink }
  /// Single value or the kind of collection (legacy link lists are lists).
  public var collectionKind: CollectionKind {
    if type == .linkList || attributes.contains(.list) { return .list }
    if attributes.contains(.set) { return .set }
    if attributes.contains(.dictionary) { return .dictionary }
    return .single
  }

  /// Creates a column description.
  public init(
    name: String, key: ColKey, type: ColumnType, attributes: ColumnAttributes, specIndex: Int,
    oppositeTableKey: Int64? = nil, oppositeColumnKey: ColKey? = nil,
    dictionaryKeyType: ColumnType? = nil, searchIndexRef: Ref = .null, enumValuesRef: Ref = .null
  ) {
    self.name = name
    self.key = key
    self.type = type
    self.attributes = attributes
    self.specIndex = specIndex
    self.oppositeTableKey = oppositeTableKey
    self.oppositeColumnKey = oppositeColumnKey
    self.dictionaryKeyType = dictionaryKeyType
    self.searchIndexRef = searchIndexRef
    self.enumValuesRef = enumValuesRef
  }
}
