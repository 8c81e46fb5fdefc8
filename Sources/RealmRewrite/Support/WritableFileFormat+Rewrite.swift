import RealmFormat
import RealmModel

extension WritableFileFormat {
  /// The format a rewrite of `group` writes: `requested` when given, else the file's own when
  /// realmctl writes it (21 as 22), else the current format (a new file, or formats 2-11).
  package static func target(rewriting group: Group, requested: WritableFileFormat?) -> WritableFileFormat {
    if let requested { return requested }
    if group.topRef.isNull { return .current }
    return WritableFileFormat.rewriting(group.fileFormat)
  }
}
