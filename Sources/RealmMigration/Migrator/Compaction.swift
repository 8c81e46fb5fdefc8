/// `compact`: rewrites a realm without free space. A local file of an older format is
/// rewritten as format 24 through ``Upgrader`` (as Realm itself upgrades a file it opens
/// before compacting it); a file at format 24, or a synced file of formats 10-23, is copied
/// node by node in its own format (``RealmCompaction``).
import RealmFormat
import RealmStorage
public enum Compaction {
  /// What a compaction did.
  public struct Result: Sendable {
    /// File size before.
    public var sizeBefore: Int
    /// File size after.
    public var sizeAfter: Int
    /// File format before.
    public var fromFormat: Int
    /// File format after.
    public var toFormat: Int
  }

  /// Compacts the realm at `path` (encrypted with `key`, which the result keeps).
  ///
  /// - Throws: ``StorageError`` (locked, unreadable, I/O), ``MigrationError`` `unsupported`
  ///   for a synced realm of formats 2-9 (which realmctl can neither upgrade nor write in
  ///   its old format).
  ///
  /// - Parameter progress: counts the bytes written.
  public static func compact(path: String, key: EncryptionKey? = nil, progress: ProgressCounter? = nil) throws -> Result {
    let group = try RealmFile.open(path: path, key: key).group
    let synced = group.historyType == .syncClient || group.historyType == .syncServer
    if group.fileFormat < FormatConstants.currentFileFormat && !group.topRef.isNull {
      if !synced {
        var options = UpgradeOptions()
        options.progress = progress
        options.encryptionKey = key
        let r = try Upgrader.upgrade(path: path, options: options)
        return Result(sizeBefore: r.sizeBefore, sizeAfter: r.sizeAfter, fromFormat: r.fromFormat, toFormat: r.toFormat)
      }
      if group.fileFormat <= 9 {
        throw MigrationError(
          .unsupported,
          "'\(path)' is a synced realm of file format \(group.fileFormat); realmctl compacts synced realms only in formats 10 to 24")
      }
    }
    let (before, after) = try RealmCompaction.compact(path: path, key: key, progress: progress)
    return Result(sizeBefore: before, sizeAfter: after, fromFormat: group.fileFormat, toFormat: group.fileFormat)
  }
}
