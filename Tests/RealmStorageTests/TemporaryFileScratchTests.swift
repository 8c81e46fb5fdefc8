import Foundation
import RealmTestSupport
import Testing

@testable import RealmStorage

@Suite struct TemporaryFileScratchTests {
  /// Bytes come back from where they were appended, and the file is gone from its directory
  /// from the start (nothing to clean up after a crash).
  @Test func appendedBytesReadBackAndNothingIsLeftBehind() throws {
    let directory = try Fixtures.temporaryDirectory()
    let scratch = try TemporaryFileScratch(besideFile: directory.appendingPathComponent("new.realm").path)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    let first: [UInt8] = Array(0..<200)
    let second = [UInt8](repeating: 7, count: 70_000)
    expectEqual(first.withUnsafeBytes { scratch.append($0) }, 0)
    expectEqual(second.withUnsafeBytes { scratch.append($0) }, 200)
    var back = [UInt8](repeating: 0, count: 300)
    back.withUnsafeMutableBytes { scratch.read(at: 50, into: $0) }
    #expect(Array(back[0..<150]) == Array(first[50...]) && back[150...].allSatisfy { $0 == 7 })
    #expect(scratch.failure == nil)
    // Reading past the end is an error, kept for the owner.
    back.withUnsafeMutableBytes { scratch.read(at: 70_100, into: $0) }
    expectEqual(scratch.failure?.code, .io)
  }

  @Test func aMissingDirectoryIsAnError() {
    #expect(throws: StorageError.self) { _ = try TemporaryFileScratch(directory: "/nonexistent-realmctl-dir") }
  }
}
