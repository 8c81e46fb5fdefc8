import Foundation
import RealmFormat
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The realm's `FILE.lock` as Realm Core 14 holds it: a shared `flock` for the whole
/// session (`DB::open`), after the session initiator took it exclusively and wrote its
/// shared state into the file.
@Suite struct LockTests {
  typealias Support = CommitTestSupport
  static let holderEnvironment = "REALMCTL_TEST_LOCK_HOLDER"
  static let heldMarker = "REALMCTL-LOCK-HELD"

  /// Opens `FILE.lock` and locks it the way a Realm session does; returns the descriptor.
  static func lockLikeRealm(_ lockPath: String) -> Int32 {
    let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return -1 }
    if flock(fd, LOCK_EX | LOCK_NB) == 0 {
      // The session initiator: reinitialise the shared state, then share the lock.
      _ = ftruncate(fd, 0)
      _ = pwrite(fd, [UInt8](repeating: 1, count: 64), 64, 0)
    }
    guard flock(fd, LOCK_SH) == 0 else {
      close(fd)
      return -1
    }
    return fd
  }

  /// Child process side: holds the lock until its stdin is closed.
  @Test(.enabled(if: ProcessInfo.processInfo.environment[holderEnvironment] != nil, SkipReason.childProcessOnly))
  func holdLockInChildProcess() throws {
    let realm = try #require(ProcessInfo.processInfo.environment[Self.holderEnvironment])
    let fd = Self.lockLikeRealm(FileLock.lockPath(forRealmAt: realm))
    try #require(fd >= 0)
    FileHandle.standardOutput.write(Data((Self.heldMarker + "\n").utf8))
    _ = FileHandle.standardInput.readDataToEndOfFile()
    close(fd)
  }

  static func expectRefused(_ path: String) throws {
    let before = try Support.bytes(path)
    let lockBefore = try Support.bytes(FileLock.lockPath(forRealmAt: path))
    do {
      _ = try WriteTransaction.begin(path: path)
      Issue.record("a write transaction started while the realm was locked")
    } catch {
      expectEqual(error.code, .locked)
      #expect(
        error.detail
          == "'test.realm' is open in another process (its lock file 'test.realm.lock' is held); close the app and retry"
      )
    }
    #expect(throws: StorageError(.locked, "")) {
      try AtomicFileReplacement.replace(path: path) { out in
        try out.write([0, 1, 2, 3, 4, 5, 6, 7])
      }
    }
    #expect(TestFiles.same(try Support.bytes(path), before))
    try expectEqual(Support.bytes(FileLock.lockPath(forRealmAt: path)), lockBefore)
  }

  @Test func refusesWhileAnotherProcessHoldsTheLockLikeRealm() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let stdout = Pipe()
      let stdin = Pipe()
      let child = try ChildTestRun.start(
        "holdLockInChildProcess", environment: [Self.holderEnvironment: path], stdout: stdout, stdin: stdin)
      try #require(waitForMarker(Self.heldMarker, on: stdout))
      try Self.expectRefused(path)
      try stdin.fileHandleForWriting.close()
      child.waitUntilExit()
      expectEqual(child.terminationStatus, 0)
      // Released: writing works again, and the lock file Realm initialised is left as it was.
      let lockBytes = try Support.bytes(FileLock.lockPath(forRealmAt: path))
      let tx = try WriteTransaction.begin(path: path)
      let top = try #require(tx.top)
      try tx.commit(tableNames: try top.ref(0), tables: try top.ref(1))
      try expectEqual(Support.bytes(FileLock.lockPath(forRealmAt: path)), lockBytes)
    }
  }

  @Test(.enabled(if: FlockHolder.isInstalled, "\(FlockHolder.command) is not installed"))
  func refusesWhileUtilLinuxFlockHoldsASharedLock() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let holder = try FlockHolder(sharedLockOn: FileLock.lockPath(forRealmAt: path))
      defer { holder.release() }
      try Self.expectRefused(path)
      holder.release()
      _ = try WriteTransaction.begin(path: path)
    }
  }

  @Test func refusesASharedLockHeldThroughAnotherDescriptor() throws {
    try Support.withCopy(of: "format-samples/v24_write_copy.realm") { path in
      let fd = Self.lockLikeRealm(FileLock.lockPath(forRealmAt: path))
      try #require(fd >= 0)
      defer { close(fd) }
      try Self.expectRefused(path)
    }
  }

  @Test func locksOutAConcurrentWriter() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let lock = try FileLock(exclusiveForRealmAt: path)
      try Self.expectRefused(path)
      // The holder itself can write through its lock.
      var options = WriteTransaction.Options()
      options.lock = lock
      let tx = try WriteTransaction.begin(path: path, options: options)
      let top = try #require(tx.top)
      try tx.commit(tableNames: try top.ref(0), tables: try top.ref(1))
      #expect(lock.isHeld)
      lock.release()
      _ = try FileLock(exclusiveForRealmAt: path)
    }
  }

  @Test func createsAnEmptyLockFileWhenAbsent() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let lockPath = FileLock.lockPath(forRealmAt: path)
      #expect(!FileManager.default.fileExists(atPath: lockPath))
      do { _ = try FileLock(exclusiveForRealmAt: path) }
      #expect(try Support.bytes(lockPath).isEmpty)
    }
  }

  @Test func theLockEndsWithTheTransaction() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let tx = try WriteTransaction.begin(path: path)
      let top = try #require(tx.top)
      try tx.commit(tableNames: try top.ref(0), tables: try top.ref(1))
      _ = try FileLock(exclusiveForRealmAt: path)  // while `tx` is still alive
      let aborted = try WriteTransaction.begin(path: path)
      aborted.abort()
      _ = try FileLock(exclusiveForRealmAt: path)
    }
  }

  @Test func aMissingRealmGetsNoLockFile() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("missing.realm").path
    #expect(throws: StorageError(.fileNotFound, "")) { _ = try WriteTransaction.begin(path: path) }
    #expect(throws: StorageError(.fileNotFound, "")) { try AtomicFileReplacement.replace(path: path) { _ in } }
    #expect(!FileManager.default.fileExists(atPath: FileLock.lockPath(forRealmAt: path)))
  }
}
