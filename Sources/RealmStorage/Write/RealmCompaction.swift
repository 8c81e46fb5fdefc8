/// `compact`: rewrites a realm with no free space (like Realm's compact-on-launch and
/// `writeCopy`), atomically and under the realm's lock.
public enum RealmCompaction {
  /// Compacts the realm at `path`; returns the file sizes before and after.
  ///
  /// - Parameter progress: counts the bytes written; its total is the size of the file.
  public static func compact(path: String, progress: ProgressCounter? = nil) throws -> (before: Int, after: Int) {
    let lock = try FileLock(exclusiveForRealmAt: path)
    defer { lock.release() }
    let file = try RealmFile.open(path: path)
    progress?.setTotal(max(0, file.fileSize - file.group.freeBytes))
    var after = 0
    try AtomicFileReplacement.replace(path: path, lock: lock) { output in
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
      after = finished.fileSize
    }
    return (file.fileSize, after)
  }
}
