import RealmModel

/// What each writable file format stores differently (§6.15): the encoders consult this
/// profile and nothing above them does. The differences, as Realm Core's upgrade code states them
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
extension WritableFileFormat {
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

  /// The history schema version of an InRealm history: 1 from Core 14 (nested collections), 0
  /// before (the files Core 10-13 wrote).
  var historySchemaVersion: UInt64 { self >= .v24 ? 1 : 0 }
}
