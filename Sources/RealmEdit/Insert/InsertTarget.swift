import RealmFormat
import RealmModel
import RealmStorage
import RealmMigration

/// The realm one `insert` works on, held from its first read to its last write: the lock
/// taken once, the file opened once (read-write, or read-only for a dry run) and its schema
/// read. Every way of writing (the streamed append or upsert, the in-place append or update,
/// the rewrite) goes through this one open file under this one lock, and the backup is made
/// once, before the first write.
final class InsertTarget {
  let path: String
  let options: MigrationOptions
  let lock: FileLock
  /// The file as it was opened, and stays until the insert ends (an aborted transaction
  /// leaves it byte for byte as it was).
  let file: RealmFile
  let schema: Schema
  /// True once the backup (`options.backupPath`) is made.
  private(set) var isBackedUp = false

  var group: Group { file.group }

  /// Takes the lock, opens the file and reads its schema (`Migrator.openForEdit(path:options:forWriting:)`).
  init(path: String, options: MigrationOptions) throws {
    (lock, file, schema) = try Migrator.openForEdit(path: path, options: options, forWriting: !options.dryRun)
    self.path = path
    self.options = options
  }

  /// Releases the lock (the file is closed when the last reader of it is gone).
  func release() { lock.release() }

  /// Makes the backup unless it is made (or the run is dry): before the first write.
  func backUp() throws {
    guard !isBackedUp, !options.dryRun else { return }
    try FileCopy.backup(file, to: options.backupPath)
    isBackedUp = true
  }

  /// Removes the backup when the insert ends without writing (it wrote nothing, or refused
  /// the input): the file is as it was, and a refusal leaves nothing behind.
  func dropBackup() {
    guard isBackedUp else { return }
    FileCopy.removeBackup(options.backupPath)
    isBackedUp = false
  }

  /// Begins a write transaction on the open file, after the backup. `appendOnly`: new nodes
  /// only past the end of the file, so that an abort leaves it byte for byte as it was (for
  /// edits that may give up after writing).
  func begin(appendOnly: Bool) throws -> InPlaceCommit {
    try backUp()
    return try InPlaceCommit(self, appendOnly: appendOnly)
  }
}
