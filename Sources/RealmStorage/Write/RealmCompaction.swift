import RealmFormat
import RealmModel

/// `compact`: rewrites a realm with no free space (like Realm's compact-on-launch and
/// `writeCopy`), atomically and under the realm's lock.
public enum RealmCompaction {
  /// Compacts the realm at `path` (encrypted with `key`, which the result keeps); returns the
  /// file sizes before and after, as on disk.
  ///
  /// - Parameters:
  ///   - path: the realm.
  ///   - key: its encryption key, nil for a plain file.
  ///   - progress: counts the bytes written; its total is the size of the file.
  public static func compact(
    path: String, key: EncryptionKey? = nil, progress: ProgressCounter? = nil
  ) throws -> (before: Int, after: Int) {
    let (lock, file) = try RealmFile.openLocked(path: path, key: key)
    defer { lock.release() }
    progress?.setTotal(max(0, file.dataSize - file.group.freeBytes))
    var after = 0
    try AtomicFileReplacement.replace(path: path, lock: lock, encryptionKey: key) { output in
      var sink = try FileNodeSink(output: output)
      sink.progress = progress
      let finished: GroupWriter.FinishedFile
      do {
        finished = try RealmFileCompactor.compact(
          file.group.reader, topRef: file.group.topRef, fileFormat: file.group.fileFormat, into: &sink)
      } catch let e as FormatError {
        throw StorageError.from(e, path: path)
      }
      try sink.finish(header: finished.header, fileSize: finished.fileSize)
      after = key == nil ? finished.fileSize : EncryptedLayout.fileSize(dataSize: finished.fileSize)
    }
    return (file.fileSize, after)
  }
}
