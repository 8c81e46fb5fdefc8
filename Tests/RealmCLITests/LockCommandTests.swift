import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 3 "done when" 4: while another process holds the realm's `FILE.lock` the way a
/// Realm app does (a shared `flock` for its whole session, Realm Core 14 on Linux and macOS),
/// `migrate`, `rename-property`, `compact`, `upgrade`, `unsync`, `insert`, `update` and `delete` refuse with exit status 75 and a message saying
/// the file is open elsewhere, and leave the realm byte-for-byte unchanged.
@Suite struct LockCommandTests {
  typealias Support = CommandTestSupport

  /// The writing commands on the realm at `file`.
  static func commands(_ file: String, dir: URL) throws -> [[String]] {
    [
      ["migrate", "--plan", Fixtures.url("person-add-email/plan.json").path, file],
      ["migrate", "--plan", Fixtures.url("person-add-email/plan.json").path, "--reset-if-needed", file],
      ["migrate", "--plan", Fixtures.url("person-add-email/plan.json").path, "--backup", dir.appendingPathComponent("bak").path, file],
      ["rename-property", file, "Person", "age", "years"],
      ["compact", file],
      ["upgrade", file],
      ["upgrade", file, "--output", dir.appendingPathComponent("new.realm").path],
      ["unsync", file],
      ["unsync", file, "--output", dir.appendingPathComponent("new.realm").path],
      ["insert", file, Fixtures.url("person-add-email/dump.jsonl").path, "--upsert"],
      ["update", file, "--class", "Person", "--set", "age = 1"],
      ["delete", file, "--class", "Person"],
    ]
  }

  static func expectRefused(_ file: String, dir: URL) throws {
    let before = try Support.bytes(file)
    for words in try commands(file, dir: dir) {
      let result = Support.run(words)
      expectEqual(result.status, 75, "\(words): \(result.stderr)")
      #expect(
        result.stderr == "Error: 'a.realm' is open in another process (its lock file 'a.realm.lock' is held); close the app and retry\n",
        "\(words)")
      #expect(result.stdout.isEmpty)
      #expect(TestFiles.same(try Support.bytes(file), before), "\(words) changed the file")
      let others = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
      expectEqual(others, ["a.realm", "a.realm.lock"], "\(words) left \(others)")
    }
  }

  @Test(.enabled(if: FlockHolder.isInstalled, "\(FlockHolder.command) is not installed"))
  func refusedWhileAnotherProcessHoldsASharedLock() throws {
    try Support.withCopy(of: "person-rename-age/before.realm", as: "a.realm") { file, dir in
      let holder = try FlockHolder(sharedLockOn: file + ".lock")
      defer { holder.release() }
      try Self.expectRefused(file, dir: dir)

      // Once the app is gone, the same command goes through.
      holder.release()
      let result = Support.run(["rename-property", file, "Person", "age", "years"])
      expectEqual(result.status, 0, "\(result.stderr)")
      #expect(try Support.problems(file).isEmpty)
    }
  }

  /// The same through an open file description of this process (flock locks belong to the
  /// description, so this is how a second process looks to the lock): no helper binary needed.
  @Test func refusedWhileASharedLockIsHeldThroughAnotherDescriptor() throws {
    try Support.withCopy(of: "person-rename-age/before.realm", as: "a.realm") { file, dir in
      let fd = open(file + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      try #require(fd >= 0)
      defer { close(fd) }
      try #require(flock(fd, LOCK_SH) == 0)
      try Self.expectRefused(file, dir: dir)
      flock(fd, LOCK_UN)
      expectEqual(Support.run(["compact", file]).status, 0)
    }
  }
}
