import Foundation
import RealmJSON
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI
@testable import RealmMigration
@testable import RealmEdit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `insert` decides once: whichever path writes (the streamed append or upsert, the in-place
/// append or update, the rewrite, or none), the realm is locked once and opened once, the
/// backup is made at most once (and left only when something was written), and the input is
/// decoded once, so that a hand-over from the streamed path works on an input that cannot be
/// read twice. The counts are RealmStorage's own (`FileAccessLog`).
@Suite struct InsertDecidesOnceTests {
  typealias T = CommandTestSupport
  typealias S = InsertStreamingTests
  typealias U = InsertStreamedUpsertTests

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var lines: [String]
    var mode: InsertMode = .insert
    var dryRun = false
    /// The path expected, nil for a refusal.
    var writePath: MigrationResult.WritePath?
    var streamed = false
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "streamed append", lines: [S.row(10_000, n: 1), S.row(10_001, n: 1)], writePath: .append, streamed: true),
    Case(name: "streamed upsert", lines: [U.row(0, n: 0, name: "zero"), S.row(10_000, n: 1)], mode: .upsert, writePath: .objects, streamed: true),
    Case(name: "streamed upsert changing nothing", lines: [S.row(3, n: 0)], mode: .upsert, writePath: MigrationResult.WritePath.none, streamed: true),
    Case(name: "hand-over to the in-place append", lines: [S.row(10_000, n: 1), S.row(10_001, n: 1, key: 5000)], writePath: .append),
    Case(name: "hand-over to the in-place update", lines: [U.row(6, n: 0, name: "six"), U.row(3, n: 0, name: "three")], mode: .upsert, writePath: .objects),
    // Updates (out of key order) and a new object: neither in-place path takes both.
    Case(name: "hand-over to the rewrite", lines: rewritten, mode: .upsert, writePath: .rewrite),
    Case(name: "hand-over refused", lines: [S.row(10_000, n: 1), S.row(10_000, n: 2)], writePath: nil),
    Case(name: "refused at once", lines: [S.row(3, n: 0)], writePath: nil),
    Case(name: "a line that does not decode", lines: [S.row(10_000, n: 1), #"{"$class":"Row","id":"x","n":1}"#], writePath: nil),
    Case(name: "streamed dry run", lines: [S.row(10_000, n: 1)], dryRun: true, writePath: .append, streamed: true),
    Case(name: "hand-over dry run", lines: rewritten, mode: .upsert, dryRun: true, writePath: .rewrite),
  ]
  static let rewritten = [U.row(6, n: 0, name: "six"), U.row(3, n: 0, name: "three"), S.row(10_000, n: 1)]

  @Test(arguments: cases)
  func locksAndOpensTheRealmOnceAndBacksItUpOnce(_ c: Case) throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try S.file(in: dir)
      let before = try T.bytes(path)
      let data = try T.write(c.lines.joined(separator: "\n") + "\n", to: dir, as: "input.jsonl")
      let backup = dir.appendingPathComponent("backup.realm").path
      var options = MigrationOptions()
      options.dryRun = c.dryRun
      options.backupPath = backup
      FileAccessLog.watch(path)
      let outcome = Result { try DataEditor.insert(path: path, jsonLines: data, mode: c.mode, options: options) }
      let counts = FileAccessLog.stopWatching(path)
      expectEqual(counts.opens, 1, "opens: \(counts)")
      expectEqual(counts.locks, 1, "locks: \(counts)")
      let written = (try? outcome.get()).map { !$0.dryRun && $0.writePath != .none } ?? false
      // Made once when something is written; none in a dry run; otherwise made at most once
      // (the streamed path makes it at its first line) and removed.
      #expect(counts.copies == (written ? 1 : 0) || (!written && !c.dryRun && counts.copies == 1), "copies: \(counts)")
      switch outcome {
      case .success(let result):
        expectEqual(result.writePath, c.writePath)
        expectEqual(result.streamed, c.streamed)
      case .failure(let error):
        #expect(c.writePath == nil, "\(error)")
      }
      if written {
        #expect(TestFiles.same(try T.bytes(backup), before))
        #expect(try T.bytes(path) != before)
        try expectEqual(T.problems(path), [])
      } else {
        #expect(!T.exists(backup))
        #expect(TestFiles.same(try T.bytes(path), before))
      }
    }
  }

  /// CSV (and the shell's objects) take the general path alone: one lock, one open.
  @Test func theGeneralPathAloneLocksAndOpensOnce() throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try S.file(in: dir)
      let data = try T.write(S.row(10_000, n: 1) + "\n", to: dir, as: "input.jsonl")
      FileAccessLog.watch(path)
      let result = try DataEditor.insert(path: path, mode: .insert) { schema in try InsertObject.jsonLines(path: data, schema: schema) }
      let counts = FileAccessLog.stopWatching(path)
      #expect(result.writePath == .append && !result.streamed)
      expectEqual(counts, FileAccessLog.Counts(opens: 1, locks: 1, copies: 0))
    }
  }

  /// A hand-over from the streamed path after its first line, from a pipe: the objects the
  /// streamed path decoded go on to the general path, which does not read the input again
  /// (a pipe cannot be read twice).
  @Test func aHandOverFromAPipeKeepsTheLinesAlreadyDecoded() throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try S.file(in: dir)
      // Line 3 gives its key: the streamed append hands over with lines 1-2 decoded.
      let lines = [S.row(10_000, n: 1), S.row(10_001, n: 1), S.row(10_002, n: 1, key: 5000), S.row(10_003, n: 1)]
      let text = Array((lines.joined(separator: "\n") + "\n").utf8)
      var fds: [Int32] = [0, 0]
      try #require(pipe(&fds) == 0)
      let (readEnd, writeEnd) = (fds[0], fds[1])
      let writer = Thread {
        text.withUnsafeBytes { b in _ = write(writeEnd, b.baseAddress, b.count) }
        close(writeEnd)
      }
      writer.start()
      defer { close(readEnd) }
      let result = try DataEditor.insert(path: path, jsonLines: "/dev/fd/\(readEnd)", mode: .insert)
      #expect(!result.streamed)
      expectEqual(result.total(\.inserted), 4)
      try expectEqual(T.problems(path), [])
      let oracle = RealmOracle.core14
      if oracle.isAvailable {
        try expectEqual(oracle.queryKeys(path, className: "Row", where: "id >= 10000")?.sorted(), [1000, 1001, 1002, 5000])
      }
    }
  }

  /// A hand-over after the objects the streamed path keeps (`StreamedAppend.HandOver.keptLimit`)
  /// reads the file again, under the same lock, through the same open realm.
  @Test func aLateHandOverReadsTheFileAgainUnderTheSameLock() throws {
    try T.inScratchDirectory { dir in
      let (path, _, _) = try S.file(in: dir)
      let n = StreamedAppend.HandOver.keptLimit + 10
      var lines = (0..<n).map { S.row(Int64(100_000 + $0), n: 1) }
      lines[n - 5] = S.row(Int64(100_000 + n - 5), n: 1, key: 1_000_000)
      let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "many.jsonl")
      FileAccessLog.watch(path)
      let result = try DataEditor.insert(path: path, jsonLines: data, mode: .insert)
      let counts = FileAccessLog.stopWatching(path)
      #expect(!result.streamed && result.writePath == .append)
      expectEqual(result.total(\.inserted), n)
      expectEqual(counts, FileAccessLog.Counts(opens: 1, locks: 1, copies: 0))
      try expectEqual(T.problems(path), [])
    }
  }
}
