import RealmFormat
import RealmModel
import RealmStorage

/// What a conversion did (or, for a dry run, would do).
public struct UnsyncResult: Sendable {
  /// The realm.
  public var path: String
  /// Where the local realm went (nil: in place).
  public var outputPath: String?
  /// The file format before.
  public var fromFormat: Int
  /// The file format written.
  public var toFormat: Int
  /// False when the file was a local realm already: nothing done.
  public var converted: Bool
  /// True for a dry run (nothing was written).
  public var dryRun: Bool
  /// What was kept, dropped and converted; nil for a local realm.
  public var plan: UnsyncPlan?
  /// Size of the original, as on disk.
  public var sizeBefore: Int
  /// Size of the new file as on disk, encrypted or not (also computed for a dry run).
  public var sizeAfter: Int
  /// Wall-clock seconds.
  public var seconds: Double
}

/// `realmctl unsync`: converts a synced realm (Device Sync or Realm Object Server, history
/// SyncClient or SyncServer) into a local realm that a Realm SDK opens with a local
/// configuration, without a sync user or a server.
///
/// The classes and their objects are copied with their object keys (so primary keys and links
/// are unchanged) by the same rewrite as `upgrade` (``Upgrader``); what only sync used is left
/// out (``UnsyncPlan``) and the new file has a local history. It replaces the original
/// atomically under the realm's lock (or is created at `outputPath`); with a key, it is
/// encrypted with the same key.
public enum Unsyncer {
  /// Reads what a conversion of the realm at `path` would keep and drop, without writing.
  ///
  /// - Throws: `StorageError` for unreadable or damaged files (`corrupt` for a damaged sync
  ///   history), ``RewriteError`` `unsupported` for a local realm.
  public static func plan(path: String, key: EncryptionKey? = nil) throws -> UnsyncPlan {
    let file = try RealmFile.open(path: path, key: key)
    return try plan(file.group, path: path)
  }

  /// Converts the realm at `path`; `options` are those of `upgrade` (output, backup, dry run,
  /// key, progress, fault injection).
  ///
  /// - Throws: `StorageError` (locked, unreadable, damaged, I/O): the file is then unchanged.
  ///
  /// The local realm keeps the file's format when realmctl writes it (20, 22, 23, 24; format 21
  /// becomes 22), else it is written as format 24; `fileFormat` chooses another.
  public static func unsync(
    path: String, options: UpgradeOptions = UpgradeOptions(), fileFormat: WritableFileFormat? = nil
  ) throws -> UnsyncResult {
    let stopwatch = Stopwatch()
    let (lock, file) = try RealmFile.openLocked(path: path, key: options.encryptionKey)
    defer { lock.release() }
    let group = file.group
    var result = UnsyncResult(
      path: path, outputPath: options.outputPath, fromFormat: group.fileFormat, toFormat: group.fileFormat,
      converted: false, dryRun: options.dryRun, plan: nil, sizeBefore: file.fileSize, sizeAfter: file.fileSize,
      seconds: 0)
    guard group.isSynced else {
      result.seconds = stopwatch.elapsedSeconds
      return result
    }
    let plan = try plan(group, path: path)
    result.plan = plan
    var options = options
    options.fileFormat = fileFormat ?? WritableFileFormat(keeping: group.fileFormat) ?? .current
    if options.fileFormat != .current, let obstacle = try Upgrader.firstObstacle(group, path: path, target: options.fileFormat) {
      throw RewriteError(.unsupported, "'\(path)' cannot be converted to file format \(options.fileFormat): \(obstacle)")
    }
    options.progress?.setTotal(max(0, group.reader.count - group.freeBytes))
    do {
      result.sizeAfter = try Upgrader.rewrite(plan.content, from: group, path: path, lock: lock, options: options)
    } catch let error as FormatError {
      throw StorageError(.corrupt, path: path, "'\(path)' cannot be converted: \(error.detail)")
    }
    result.converted = true
    result.toFormat = options.fileFormat.rawValue
    result.seconds = stopwatch.elapsedSeconds
    return result
  }

  /// The plan, with read errors named for the file.
  private static func plan(_ group: Group, path: String) throws -> UnsyncPlan {
    do {
      return try UnsyncPlan(group)
    } catch let error as FormatError {
      throw StorageError(
        .corrupt, path: path, "'\(path)' cannot be converted: its sync history or sync tables are damaged: \(error.detail)")
    } catch let error as RewriteError {
      throw RewriteError(.unsupported, "'\(path)': \(error.message)")
    }
  }
}
