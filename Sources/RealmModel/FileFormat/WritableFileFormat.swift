/// A file format the encoders can write, and what each one stores differently (§6.15).
///
/// Realm Core 10 wrote format 20, Core 11-12 format 22, Core 13 format 23 and Core 14 format
/// 24; an SDK refuses a file of a newer format than its Core writes. The encoders consult
/// this profile and nothing above them does: the same schema and objects give the file each
/// Core would have written. The differences, as Realm Core's upgrade code states them
/// (`Transaction::upgrade_file_format`, `Table::migrate_col_keys`, `migrate_set_orderings`,
/// `Set<Mixed>::migrate`, `Dictionary::migrate`):
///
/// | | 20 | 22 | 23 | 24 |
/// |---|---|---|---|---|
/// | link list ColKey / spec type | 13 | 13 | 13 | 12 |
/// | `ArrayMixed` slots | – | 4 | 4 | 6 |
/// | string and binary order (sets, dictionary keys) | signed `char` | signed | signed | unsigned |
/// | strings vs binaries in a Mixed set | – | interleaved | strings first | strings first |
/// | dictionaries | – | cluster trees keyed by hash | `[keys, values]` | `[keys, values]` |
/// | backlink lists | one array | one array | one array | B+-tree |
/// | primary-key search index | no | yes | yes | yes |
/// | history schema version | 0 | 0 | 0 | 1 |
public enum WritableFileFormat: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
  /// Realm Core 10 (no Mixed, UUID, sets or dictionaries; object keys derived from primary keys).
  case v20 = 20
  /// Realm Core 11 and 12.
  case v22 = 22
  /// Realm Core 13.
  case v23 = 23
  /// Realm Core 14.
  case v24 = 24

  /// The newest format, the default of every writer.
  public static let current = WritableFileFormat.v24

  /// The format a write keeps for a file of `fileFormat`: itself for 20, 22, 23 and 24, 22 for
  /// 21 (the format of Core 11's betas, which Core 11 and 12 upgrade to 22); nil for formats
  /// without a writer (2-11), whose writes give format 24.
  public init?(keeping fileFormat: Int) {
    switch fileFormat {
    case 21: self = .v22
    default: self.init(rawValue: fileFormat)
    }
  }

  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

  public var description: String { String(rawValue) }

  /// The column type of a list of links: the legacy LinkList (13) up to format 23 (§4.5).
  public var linkListColumnType: ColumnType { self < .v24 ? .linkList : .link }

  /// `ArrayMixed` has 6 slots in format 24 (nested collections), 4 before (§6.11).
  var mixedLeafSlots: Int { self < .v24 ? 4 : 6 }

  /// Lists of origins in backlink columns are B+-trees in format 24, one plain array of any
  /// length before (§6.12).
  var backlinkListsAreTrees: Bool { self >= .v24 }

  /// Strings and binaries compare by unsigned bytes from format 24, by signed `char` before
  /// (`StringData::operator<`), in sets and in dictionary keys.
  var comparesBytesUnsigned: Bool { self >= .v24 }

  /// Format 23 moved strings before binaries in `Set<Mixed>`; 21/22 interleave them.
  var separatesStringsFromBinariesInMixedSets: Bool { self >= .v23 }

  /// Dictionaries are cluster trees keyed by a hash of the key in formats 21/22 (§6.13).
  var dictionariesAreClusterTrees: Bool { self < .v23 }

  /// From format 22 primary keys have a search index; in format 20 they have none and object
  /// keys derive from the primary key values (§4.9, §7.2).
  public var indexesPrimaryKeys: Bool { self >= .v22 }

  /// Format 20 derives an object's key from its primary key (§4.9).
  public var derivesObjectKeysFromPrimaryKeys: Bool { self == .v20 }

  /// The history schema version of an InRealm history: 1 from Core 14 (nested collections), 0
  /// before (the files Core 10-13 wrote).
  var historySchemaVersion: UInt64 { self >= .v24 ? 1 : 0 }

  /// Why this format cannot store a property of this type, or nil. Realm Core 10.2-10.8 wrote
  /// Mixed, UUID, sets and dictionaries in format 20 (with the layouts of 21/22), but Realm
  /// Core 14's upgrade converts dictionaries only from formats 21-22
  /// (`migrate_sets_and_dictionaries`): it fails on a format-20 dictionary (checked with the
  /// oracle), so dictionaries are not written in format 20. (The values inside a property,
  /// such as collections nested in a Mixed, which only format 24 stores, are checked as they
  /// are written.)
  public func obstacle(for p: Property) -> String? {
    guard self == .v20, p.collection == .dictionary else { return nil }
    return "is a Dictionary (format 22 and later: Realm Core 14 cannot upgrade a format-20 dictionary)"
  }

  /// The Realm Core release line that writes this format.
  public var realmCore: String {
    switch self {
    case .v20: return "Realm Core 10"
    case .v22: return "Realm Core 11-12"
    case .v23: return "Realm Core 13"
    case .v24: return "Realm Core 14"
    }
  }
}
