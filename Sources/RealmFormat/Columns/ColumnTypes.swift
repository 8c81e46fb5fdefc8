import RealmModel

/// A column's storage type, as stored in the spec and in ColKeys (`realm::ColumnType`).
public enum ColumnType: Int, Sendable, Hashable {
  case int = 0
  case bool = 1
  case string = 2
  case oldStringEnum = 3
  case binary = 4
  case oldTable = 5
  case mixed = 6
  case oldDateTime = 7
  case timestamp = 8
  case float = 9
  case double = 10
  case decimal = 11
  /// Single link; in format 24 also lists, sets and dictionaries of links.
  case link = 12
  /// List of links in formats <= 23 (the spec keeps 13 after the upgrade to 24).
  case linkList = 13
  case backlink = 14
  case objectId = 15
  case typedLink = 16
  case uuid = 17

  /// True for link and legacy link-list columns.
  public var isLink: Bool { self == .link || self == .linkList }

  /// The Object Store type of a property stored in a column of this type (§7.3): `.object` for
  /// links of every kind; nil for backlinks and the types of formats before 10.
  var propertyType: PropertyType? {
    switch self {
    case .int: .int
    case .bool: .bool
    case .string: .string
    case .binary: .data
    case .timestamp: .date
    case .float: .float
    case .double: .double
    case .decimal: .decimal128
    case .objectId: .objectId
    case .uuid: .uuid
    case .mixed: .mixed
    case .link, .linkList, .typedLink: .object
    case .backlink, .oldStringEnum, .oldTable, .oldDateTime: nil
    }
  }
}

/// A column's attribute bits (`realm::ColumnAttrMask`).
public struct ColumnAttributes: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  /// A general search index (spec only, never in the ColKey).
  public static let indexed = ColumnAttributes(rawValue: 1)
  public static let unique = ColumnAttributes(rawValue: 2)
  public static let strongLinks = ColumnAttributes(rawValue: 8)
  public static let nullable = ColumnAttributes(rawValue: 16)
  public static let list = ColumnAttributes(rawValue: 32)
  public static let dictionary = ColumnAttributes(rawValue: 64)
  public static let set = ColumnAttributes(rawValue: 128)
  /// Full-text index (spec only).
  public static let fullTextIndexed = ColumnAttributes(rawValue: 256)
  /// Any collection bit.
  public static let collection: ColumnAttributes = [.list, .dictionary, .set]
}

/// A column key: leaf index, type, attributes and tag packed in 64 bits (`realm::ColKey`).
///
/// Bits 15:0 leaf index, 21:16 column type, 29:22 attributes (low 8 bits, no Indexed/Unique),
/// 61:30 tag.
public struct ColKey: RawRepresentable, Sendable, Hashable {
  public let rawValue: Int64
  public init(rawValue: Int64) { self.rawValue = rawValue }
  /// The null column key.
  public static let null = ColKey(rawValue: 0x7FFF_FFFF_FFFF_FFFF)

  /// Packs the fields into a key.
  public init(leafIndex: Int, type: ColumnType, attributes: ColumnAttributes, tag: UInt32) {
    let attrs = Int64(attributes.rawValue & 0xFF & ~(ColumnAttributes.indexed.rawValue | ColumnAttributes.unique.rawValue))
    rawValue = Int64(leafIndex & 0xFFFF) | (Int64(type.rawValue) << 16) | (attrs << 22) | (Int64(tag) << 30)
  }

  /// True for ``null``.
  public var isNull: Bool { self == .null }
  /// Slot in cluster leaves (`1 + leafIndex`) and in table slots 4, 7 and 8.
  public var leafIndex: Int { Int(rawValue & 0xFFFF) }
  /// The raw column type number (bits 21:16).
  public var typeValue: Int { Int((rawValue >> 16) & 0x3F) }
  /// The column type, nil for an unknown number.
  public var type: ColumnType? { ColumnType(rawValue: typeValue) }
  /// Attributes stored in the key (bits 29:22).
  public var attributes: ColumnAttributes { ColumnAttributes(rawValue: Int((rawValue >> 22) & 0xFF)) }
  /// The tag (bits 61:30).
  public var tag: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 30) }
}

/// The kind of a table (table top slot 12, bits 1:0).
public enum TableType: Int, Sendable, Hashable {
  case topLevel = 0
  case embedded = 1
  case topLevelAsymmetric = 2
}

/// Constants of the format shared by the reader and the writer.
public enum FormatConstants {
  /// The mnemonic at offset 16: `T-DB`.
  public static let mnemonic: [UInt8] = [0x54, 0x2D, 0x44, 0x42]
  /// The streaming footer's magic cookie.
  public static let footerCookie: UInt64 = 0x3034_1252_37E5_26C8
  /// Prefix of tables that are Object Store classes.
  public static let classPrefix = "class_"
  /// Name of the Object Store metadata table (schema version).
  public static let metadataTable = "metadata"
  /// Null table key in opposite-table arrays.
  public static let nullTableKey: Int64 = 0x7FFF_FFFF
  /// Elements per B+-tree leaf / cluster size limits in release builds of core.
  public static let maxBPNodeSize = 1000
  /// log2 of the cluster size (256) in release builds.
  public static let clusterShift = 8
  /// The newest file format of a released Realm Core (14 and 20), the one new files get.
  public static let currentFileFormat = 24
  /// The file formats the reader reads: 2 to 11 (Realm Core 0.89 to 6) and 20 to 24 (Realm
  /// Core 10 to 14 and 20). 12 to 19 were never released; 25 exists only on realm-core's
  /// unreleased `next-major` branch.
  public static var readableFileFormats: [ClosedRange<Int>] { ReadableFileFormats.ranges }
}
