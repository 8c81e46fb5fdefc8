#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive hold on a realm's `FILE.lock`, the file every Realm app locks while it has
/// the realm open.
///
/// Realm Core 14 (`DB::open`, `util::File::rw_lock` on Linux and macOS) opens `FILE.lock`
/// (creating it when absent) and holds a **shared `flock(2)`** lock on it for its whole
/// session; the session initiator first takes `LOCK_EX | LOCK_NB`, truncates the file and
/// writes its shared state, then downgrades to `LOCK_SH`. `DB::call_with_lock` (used before
/// deleting or compacting a realm) takes `LOCK_EX | LOCK_NB` exactly as this type does. So an
/// exclusive non-blocking `flock` succeeds only when no Realm session and no other realmctl
/// writer has the realm open, and while we hold it a Realm app that starts blocks in its
/// shared lock until we release. Apple devices (iOS, watchOS) emulate the lock with a fifo in
/// `FILE.management`; that variant is not detected (realmctl runs on Linux and macOS).
///
/// The lock file is never deleted: Realm treats any content as stale and reinitialises it
/// (a new initiator truncates it to 0 bytes), so leaving an empty file is harmless, while
/// unlinking a lock file another process may just have opened would split the lock.
public final class FileLock: @unchecked Sendable {
  /// The realm file this lock protects.
  public let realmPath: String
  /// The path of the lock file (`realmPath + ".lock"`).
  public let lockPath: String
  private var fd: Int32

  /// The lock file Realm uses for the realm at `realmPath` (`DB::get_core_file`).
  public static func lockPath(forRealmAt realmPath: String) -> String { realmPath + ".lock" }

  /// Takes the exclusive lock on `FILE.lock` without waiting.
  ///
  /// - Throws: ``StorageError/Code/locked`` when any other process holds the lock (shared or
  ///   exclusive); an I/O or permission error when the lock file cannot be opened or created.
  public init(exclusiveForRealmAt realmPath: String) throws(StorageError) {
    self.realmPath = realmPath
    let lockPath = FileLock.lockPath(forRealmAt: realmPath)
    self.lockPath = lockPath
    // 0644 like Realm's `File::open` (S_IRUSR|S_IWUSR|S_IRGRP|S_IROTH).
    var fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    if fd < 0, errno == EACCES || errno == EROFS {
      // An existing lock file we may not write can still be flock()ed through a read-only fd.
      fd = open(lockPath, O_RDONLY | O_CLOEXEC)
    }
    guard fd >= 0 else {
      throw StorageError.system("opening the lock file", path: lockPath, errno: errno)
    }
    // A lock released an instant ago may still look held: a process forked by this one (to run
    // an `exec` step or a test) shares the descriptor until its exec closes it. So a held lock
    // is retried for about 100 ms before the realm is reported open elsewhere; an app that has
    // the realm open holds it for far longer.
    var attempts = 0
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EINTR { continue }
      if code == EWOULDBLOCK && attempts < 20 {
        attempts += 1
        usleep(5_000)
        continue
      }
      close(fd)
      if code == EWOULDBLOCK {
        throw StorageError.locked(realmPath: realmPath, lockPath: lockPath)
      }
      throw StorageError.system("flock", path: lockPath, errno: code)
    }
    self.fd = fd
    FileAccessLog.record(.lock, path: realmPath)
  }

  /// True while the lock is held.
  public var isHeld: Bool { fd >= 0 }

  /// Releases the lock (idempotent). Also done on deinit.
  public func release() {
    guard fd >= 0 else { return }
    // Closing the only descriptor of the open file description releases the flock.
    close(fd)
    fd = -1
  }

  deinit { release() }
}
