import RealmFormat
import RealmModel
import RealmStorage

/// `compact`: rewrites a realm without free space, keeping its file format. A file of format
/// 20, 22, 23 or 24, or a synced file of formats 10-23, is copied node by node in its own
/// format (`RealmCompaction`); a local file of a format realmctl does not write (2-11, 21)
/// is rewritten through ``Upgrader`` as 24 (21 as 22), as Realm itself upgrades a file it
/// opens before compacting it; `fileFormat` asks for another format (a rewrite).
public enum Compaction {
  /// Compacts the realm at `path` (encrypted with `key`, which the result keeps).
  ///
  /// - Throws: `StorageError` (locked, unreadable, I/O), ``RewriteError`` `unsupported`
  ///   for a synced realm of formats 2-9 (which realmctl can neither upgrade nor write in
  ///   its old format).
  ///
  /// - Parameters:
  ///   - path: the realm.
  ///   - key: its encryption key, nil for a plain file (the result keeps it).
  ///   - progress: counts the bytes written.
  ///   - fileFormat: the format of the result, nil to keep the file's own where it can be written.
  public static func compact(
    path: String, key: EncryptionKey? = nil, progress: ProgressCounter? = nil, fileFormat: WritableFileFormat? = nil
  ) throws -> RewriteSummary {
    let group = try RealmFile.open(path: path, key: key).group
    let synced = group.historyType == .syncClient || group.historyType == .syncServer
    if synced {
      // Synced files are copied node by node only: their history must stay as it is.
      if let fileFormat, fileFormat.rawValue != group.fileFormat {
        throw RewriteError(
          .unsupported, "'\(path)' is a synced realm; realmctl compacts synced realms only in their own file format")
      }
      if group.fileFormat <= 9 && !group.topRef.isNull {
        throw RewriteError(
          .unsupported,
          "'\(path)' is a synced realm of file format \(group.fileFormat); realmctl compacts synced realms only in formats 10 to 24")
      }
    } else if !group.topRef.isNull {
      let target = fileFormat ?? WritableFileFormat(keeping: group.fileFormat) ?? .current
      if target.rawValue != group.fileFormat {
        var options = UpgradeOptions()
        options.progress = progress
        options.encryptionKey = key
        options.fileFormat = target
        let r = try Upgrader.upgrade(path: path, options: options)
        return RewriteSummary(r)
      }
    }
    let (before, after) = try RealmCompaction.compact(path: path, key: key, progress: progress)
    return RewriteSummary(sizeBefore: before, sizeAfter: after, format: group.fileFormat)
  }
}
