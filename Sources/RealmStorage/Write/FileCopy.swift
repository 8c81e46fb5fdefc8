#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Durable file copies (for `--backup` of every writing command).
public enum FileCopy {
  /// Copies the realm at `path` to `backupPath` (which must not exist), durably, before a
  /// command writes anything; does nothing when `backupPath` is nil.
  public static func backup(_ path: String, to backupPath: String?) throws(StorageError) {
    guard let backupPath else { return }
    try copy(from: path, to: backupPath)
  }

  /// Removes a backup made by this run when the run ends without writing (it failed before
  /// its commit): the realm is as it was, and a refusal leaves nothing behind. Does nothing
  /// when `backupPath` is nil.
  public static func removeBackup(_ backupPath: String?) {
    guard let backupPath else { return }
    unlink(backupPath)
  }

  /// Copies the realm `file`, opened for an edit (`RealmFile.open(path:key:forWriting:)`), to
  /// `backupPath` as ``backup(_:to:)`` does, through the descriptor it was read through (the
  /// realm is not opened again); does nothing when `backupPath` is nil.
  package static func backup(_ file: RealmFile, to backupPath: String?) throws(StorageError) {
    guard let backupPath else { return }
    guard let input = file.mapping.descriptor else {
      throw StorageError.misuse("'\(file.path)' was not opened for writing")
    }
    try copy(input, from: file.path, to: backupPath)
  }

  /// Copies `source` to `destination`, which must not exist, and syncs it and its directory.
  public static func copy(from source: String, to destination: String) throws(StorageError) {
    let input = open(source, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw StorageError.system("open", path: source, errno: errno) }
    defer { close(input) }
    try copy(input, from: source, to: destination)
  }

  /// Copies what the descriptor `input` (of `source`) reads from offset 0 to `destination`.
  private static func copy(_ input: Int32, from source: String, to destination: String) throws(StorageError) {
    FileAccessLog.record(.copy, path: source)
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard output >= 0 else {
      if errno == EEXIST { throw StorageError(.alreadyExists, path: destination, "'\(destination)' already exists; choose another backup path") }
      throw StorageError.system("open", path: destination, errno: errno)
    }
    var ok = false
    defer {
      close(output)
      if !ok { unlink(destination) }
    }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var copied = 0
    while true {
      let n = try withMutableBytes(&buffer) { (b) throws(StorageError) -> Int in
        let n = try readFully(input, into: b.baseAddress!, count: b.count, at: copied, path: source)
        try writeFully(output, UnsafeRawBufferPointer(rebasing: b[0..<n]), at: copied, path: destination)
        return n
      }
      if n == 0 { break }
      copied += n
    }
    let synced = durableSync(output)
    guard synced == 0 else { throw StorageError.system(durableSyncName, path: destination, errno: synced) }
    try AtomicFileReplacement.syncDirectory(of: destination)
    ok = true
  }
}
