import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmStorage
import RealmFormat

@Suite struct CommitReplacementTests {
  typealias Support = CommitTestSupport

  static func leftovers(next path: String) throws -> [String] {
    let dir = (path as NSString).deletingLastPathComponent
    return try FileManager.default.contentsOfDirectory(atPath: dir).filter {
      $0.contains("realmctl-tmp")
    }
  }

  @Test func replacesTheFileAndKeepsItsPermissions() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      chmod(path, 0o640)
      let replacement = try Support.bytes(Fixtures.url("format-samples/v24_write_copy.realm").path)
      try AtomicFileReplacement.replace(path: path) { out in
        try out.write(Array(replacement[..<100]))
        try out.write(Array(replacement[100...]))
        expectEqual(out.offset, replacement.count)
      }
      #expect(TestFiles.same(try Support.bytes(path), replacement))
      let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
      expectEqual(mode, 0o640)
      #expect(try Self.leftovers(next: path).isEmpty)
      _ = try SpaceAccounting.verify(ByteReader(bytes: try Support.bytes(path)))
    }
  }

  struct Failure: Error {}

  @Test func aFailingWriterLeavesTheOriginal() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let before = try Support.bytes(path)
      #expect(throws: Failure.self) {
        try AtomicFileReplacement.replace(path: path) { out in
          try out.write([UInt8](repeating: 7, count: 4096))
          throw Failure()
        }
      }
      #expect(TestFiles.same(try Support.bytes(path), before))
      #expect(try Self.leftovers(next: path).isEmpty)
    }
  }

  @Test(arguments: [0, 1, 2])
  func aFailedSyncOrRenameLeavesTheOriginal(failAt: Int) throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let before = try Support.bytes(path)
      #expect(throws: StorageError(.io, "")) {
        try AtomicFileReplacement.replace(
          path: path,
          faultInjection: { point in
            point.index == failAt ? .fail(errno: EIO) : .proceed
          }
        ) { out in try out.write([UInt8](repeating: 7, count: 4096)) }
      }
      #expect(TestFiles.same(try Support.bytes(path), before))
      #expect(try Self.leftovers(next: path).isEmpty)
    }
  }
}
