/// A file format realmctl can write: the formats of Realm Core 10 to 14 and 20.
///
/// Realm Core 10 wrote format 20, Core 11-12 format 22, Core 13 format 23 and Core 14 and 20
/// format 24 (no released Realm Core writes another after 14; format 25 exists only on
/// realm-core's unreleased `next-major` branch); an SDK refuses a file of a newer format than
/// its Core writes. A rewrite keeps a file's format where realmctl writes it
/// (``init(keeping:)``, ``rewriting(_:)``); new files get ``current``. What each format stores
/// differently is RealmFormat's business (its encoders consult the format, nothing above them
/// does): the same schema and objects give the file each Core would have written.
public enum WritableFileFormat: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
  /// Realm Core 10 (no Mixed, UUID, sets or dictionaries; object keys derived from primary keys).
  case v20 = 20
  /// Realm Core 11 and 12.
  case v22 = 22
  /// Realm Core 13.
  case v23 = 23
  /// Realm Core 14 and 20.
  case v24 = 24

  /// The newest format: the format of new files, and of rewrites of formats without a writer.
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

  /// The format a rewrite of a file of `fileFormat` writes when no format is requested: its
  /// own (21 as 22, see ``init(keeping:)``), else ``current`` (formats 2 to 11).
  public static func rewriting(_ fileFormat: Int) -> WritableFileFormat {
    WritableFileFormat(keeping: fileFormat) ?? .current
  }

  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

  public var description: String { String(rawValue) }

  /// From format 22 primary keys have a search index; in format 20 they have none and object
  /// keys derive from the primary key values (§4.9, §7.2).
  public var indexesPrimaryKeys: Bool { self >= .v22 }

  /// Format 20 derives an object's key from its primary key (§4.9).
  public var derivesObjectKeysFromPrimaryKeys: Bool { self == .v20 }

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

  /// The Realm Core release line that writes this format: `Realm Core 14 and 20`.
  public var realmCore: String { "Realm Core \(realmCoreVersions)" }

  /// The major versions of Realm Core that write this format: `11-12`, `14 and 20`.
  public var realmCoreVersions: String {
    switch self {
    case .v20: return "10"
    case .v22: return "11-12"
    case .v23: return "13"
    case .v24: return "14 and 20"
    }
  }
}
