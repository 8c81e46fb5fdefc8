import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmStorage
import RealmFormat

@Suite struct CommitTests {
  typealias Support = CommitTestSupport

  static let fixtures = [
    "format-samples/v24_commit.realm",  // normal commits, 11 slots, history
    "format-samples/py_committed.realm",  // 7 slots, select 0
    "format-samples/v24_edge.realm",
    "format-samples/v24_empty_commit.realm",
    "format-samples/v24_write_copy.realm",  // streaming, 11 slots
    "format-samples/v24_group_write.realm",  // streaming, 3 slots
    "format-samples/v24_compacted.realm",  // converted streaming form, dead footer
    "alltypes/before.realm",
  ]

  /// Replaces the table-names array with a renamed copy and commits.
  @Test(arguments: fixtures)
  func commitsRenamedTableNames(fixture: String) throws {
    try Support.withCopy(of: fixture) { path in
      let before = try Support.bytes(path)
      let oldHeader = try HeaderState(reader: ByteReader(bytes: before))
      let oldTopRef = Ref(Int(oldHeader.currentTop))
      let oldNodes = try Support.reachableNodes(before, top: oldTopRef)
      let oldTop = try GroupTopState(reader: ByteReader(bytes: before), ref: oldTopRef)

      let tx = try WriteTransaction.begin(path: path)
      let top = try #require(tx.top)
      let oldNames = try top.ref(0)
      let renamed = try Support.renamedCopy(of: oldNames, in: tx.reader)
      let newNames = try tx.allocate(renamed)
      try tx.free(oldNames)
      let result = try tx.commit(tableNames: newNames, tables: try top.ref(1))

      let after = try Support.bytes(path)
      let reader = ByteReader(bytes: after)
      let header = try HeaderState(reader: reader)
      // The select bit now names the other slot, which holds the new top; the old top is in
      // the slot that was live (a streaming file was converted first, leaving it in slot 1).
      #expect(!header.isStreaming)
      expectEqual(header.currentTop, UInt64(result.topRef.rawValue))
      expectEqual(header.currentFormat, 24)
      expectEqual(header.topRefs[1 - header.select], UInt64(oldTopRef.rawValue))
      if !oldHeader.isStreaming { #expect(header.select != oldHeader.select) }
      // Every node of the old snapshot is still intact.
      for (ref, bytes) in oldNodes {
        expectEqual(Array(after[ref..<(ref + bytes.count)]), bytes, "old node at \(ref) changed")
      }
      // The new snapshot: renamed names, same tables, version + 1, page-aligned size.
      let newTop = try GroupTopState(reader: reader, ref: result.topRef)
      let newTopNode = try ArrayNode(reader, result.topRef)
      try expectEqual(newTopNode.ref(0), newNames)
      try expectEqual(reader.array(at: newNames.rawValue, count: renamed.count), renamed)
      try expectEqual(newTopNode.ref(1), (try top.ref(1)))
      expectEqual(newTop.version, oldTop.version + 1)
      expectEqual(newTop.logicalSize, after.count)
      expectEqual(after.count % 4096, 0)
      #expect(newTop.historyRef.isNull)
      expectEqual(newTopNode.count, (oldTop.size >= 9 ? 11 : 7))
      if oldTop.size >= 9 {
        expectEqual(newTop.historyType, oldTop.historyType)
        expectEqual(newTop.historySchemaVersion, oldTop.historySchemaVersion)
      }
      let report = try SpaceAccounting.verify(reader)
      expectEqual(report.logicalSize, after.count)
      // The old names array is listed free with the new version.
      let freedNames = newTop.freeChunks.first {
        $0.position <= oldNames.rawValue && oldNames.rawValue < $0.end
      }
      expectEqual(freedNames?.version, newTop.version)
    }
  }

  @Test func fixturesPassSpaceAccountingBeforeAnyWrite() throws {
    for fixture in Self.fixtures {
      _ = try SpaceAccounting.verify(
        ByteReader(bytes: try Support.bytes(Fixtures.url(fixture).path)))
    }
  }

  @Test func repeatedCommitsBumpVersionsAndNeverOverwriteReachableNodes() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      var sizes: [Int] = []
      var versions: [UInt64] = []
      for round in 0..<6 {
        let before = try Support.bytes(path)
        let header = try HeaderState(reader: ByteReader(bytes: before))
        let live = try Support.reachableNodes(before, top: Ref(Int(header.currentTop)))
        let previous = try Support.reachableNodes(
          before, top: Ref(Int(header.topRefs[1 - header.select])))
        let tx = try WriteTransaction.begin(path: path)
        let top = try #require(tx.top)
        let names = try tx.allocate(try Support.renamedCopy(of: try top.ref(0), in: tx.reader))
        try tx.free(try top.ref(0))
        let result = try tx.commit(tableNames: names, tables: try top.ref(1))
        let after = try Support.bytes(path)
        for (ref, bytes) in live {
          #expect(
            Array(after[ref..<(ref + bytes.count)]) == bytes,
            "round \(round): live node at \(ref) overwritten")
        }
        if round > 0 {
          // Space freed by the previous commit is not reused yet: its snapshot stays whole too.
          for (ref, bytes) in previous {
            #expect(
              Array(after[ref..<(ref + bytes.count)]) == bytes,
              "round \(round): previous node at \(ref) overwritten")
          }
        }
        _ = try SpaceAccounting.verify(ByteReader(bytes: after))
        sizes.append(after.count)
        versions.append(result.version)
      }
      #expect(zip(versions, versions.dropFirst()).allSatisfy { $1 == $0 + 1 })
      // Free space is reused: after the first commit the file stops growing.
      expectEqual(Set(sizes.dropFirst()).count, 1, "sizes \(sizes)")
    }
  }

  @Test(arguments: [
    "format-samples/v24_commit.realm", "format-samples/v24_write_copy.realm",
    "format-samples/v24_group_write.realm", "alltypes/before.realm",
  ])
  func abortLeavesTheFileByteIdentical(fixture: String) throws {
    try Support.withCopy(of: fixture) { path in
      let before = try Support.bytes(path)
      let tx = try WriteTransaction.begin(path: path, options: Support.appendOnly)
      let top = try #require(tx.top)
      for _ in 0..<50 {
        _ = try tx.allocate(try Support.renamedCopy(of: try top.ref(0), in: tx.reader))
      }
      try tx.free(try top.ref(0))
      tx.abort()
      #expect(TestFiles.same(try Support.bytes(path), before))
      #expect(throws: StorageError(.misuse, "")) {
        try tx.commit(tableNames: try top.ref(0), tables: try top.ref(1))
      }
    }
  }

  /// With free space reused (the default), nodes placed in the current snapshot's free space
  /// are held until the commit: an abort leaves the file byte for byte as it was, free space
  /// included, and a commit writes them where they were placed.
  @Test func abortAfterReusingFreeSpaceLeavesTheFileByteIdentical() throws {
    try Support.withCopy(of: "format-samples/v24_write_copy.realm") { path in
      // Three commits: the space the first one freed is reusable by the fourth transaction.
      for _ in 0..<3 {
        let tx = try WriteTransaction.begin(path: path)
        let top = try #require(tx.top)
        let names = try tx.allocate(try Support.renamedCopy(of: try top.ref(0), in: tx.reader))
        try tx.free(try top.ref(0))
        try tx.commit(tableNames: names, tables: try top.ref(1))
      }
      let before = try Support.bytes(path)
      let tx = try WriteTransaction.begin(path: path)
      let top = try #require(tx.top)
      let namesRef = try top.ref(0), tablesRef = try top.ref(1)
      let renamed = try Support.renamedCopy(of: namesRef, in: tx.reader)
      var refs: [Ref] = []
      for _ in 0..<50 { refs.append(try tx.allocate(renamed)) }
      #expect(refs.contains { $0.rawValue < before.count }, "no node was placed in free space")
      // Held nodes read back as written.
      for ref in refs { try expectEqual(tx.newNodeBytes(ref), renamed) }
      tx.abort()
      #expect(TestFiles.same(try Support.bytes(path), before))

      // Committed, a node placed in free space is on disk where it was placed.
      let commit = try WriteTransaction.begin(path: path)
      let names = try commit.allocate(renamed)
      #expect(names.rawValue < before.count, "the names were not placed in free space")
      try commit.free(namesRef)
      try commit.commit(tableNames: names, tables: tablesRef)
      let after = try Support.bytes(path)
      expectEqual(Array(after[names.rawValue..<(names.rawValue + renamed.count)]), renamed)

      // With nothing to be held, new nodes go past the end, free space or not.
      var options = WriteTransaction.Options()
      options.heldNodesLimit = 0
      let appending = try WriteTransaction.begin(path: path, options: options)
      let size = after.count
      for _ in 0..<20 { #expect(try appending.allocate(renamed).rawValue >= size) }
      appending.abort()
      #expect(TestFiles.same(try Support.bytes(path), after))
      _ = try SpaceAccounting.verify(ByteReader(bytes: after))
    }
  }

  @Test func droppingATransactionRollsItBack() throws {
    try Support.withCopy(of: "format-samples/v24_write_copy.realm") { path in
      let before = try Support.bytes(path)
      do {
        let tx = try WriteTransaction.begin(path: path, options: Support.appendOnly)
        _ = try tx.allocate(NodeEncoder.integers([1, 2, 3]))
      }
      #expect(TestFiles.same(try Support.bytes(path), before))
      // And the lock was released with it.
      _ = try WriteTransaction.begin(path: path)
    }
  }

  /// Every file operation of a transaction, made to fail in turn: the transaction throws and
  /// the file is byte-for-byte as before, unless the failure came after the select-bit flip
  /// (then it holds the new version).
  @Test(arguments: ["format-samples/v24_commit.realm", "format-samples/v24_write_copy.realm"])
  func failureAtEveryOperationRollsBack(fixture: String) throws {
    let outcomes = try Support.outcomesOfFailingEachOperation(of: fixture) { path, faultInjection in
      var options = Support.appendOnly
      options.faultInjection = faultInjection
      let tx = try WriteTransaction.begin(path: path, options: options)
      let top = try #require(tx.top)
      let names = try tx.allocate(try Support.renamedCopy(of: try top.ref(0), in: tx.reader))
      try tx.free(try top.ref(0))
      try tx.commit(tableNames: names, tables: try top.ref(1))
    }
    #expect(outcomes.count >= 8)
    // Only a failure of the very last fsync (after the flip) leaves the new version.
    #expect(outcomes.dropLast().allSatisfy { !$0 })
  }

  @Test func doubleFreesAreRefused() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let before = try Support.bytes(path)
      let tx = try WriteTransaction.begin(path: path, options: Support.appendOnly)
      let top = try #require(tx.top)
      try tx.free(try top.ref(0))
      #expect(throws: StorageError(.misuse, "")) { try tx.free(try top.ref(0)) }
      // A subtree that contains an already freed node.
      #expect(throws: StorageError(.misuse, "")) { try tx.freeDeep(try top.ref(0)) }
      tx.abort()
      #expect(TestFiles.same(try Support.bytes(path), before))
    }
  }

  @Test func freeingANewNodeMakesItFreeSpace() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let tx = try WriteTransaction.begin(path: path)
      let top = try #require(tx.top)
      let scratch = try tx.allocate(NodeEncoder.integers(Array(0..<100)))
      try tx.free(scratch)
      try tx.commit(tableNames: try top.ref(0), tables: try top.ref(1))
      let after = try Support.bytes(path)
      _ = try SpaceAccounting.verify(ByteReader(bytes: after))
    }
  }

  /// Formats realmctl does not write (here 11, Realm Core 6) are refused; 20, 22, 23 and 24
  /// are written in place in their own format (issue 16).
  @Test(SharedFixtures.enabled)
  func olderFormatsAreRefusedUntouched() throws {
    try Support.withCopy(of: SharedFixtures.realmCoreSample("test__test_upgrade_database_11"), from: .shared) { path in
      let before = try Support.bytes(path)
      #expect(throws: StorageError(.unsupported, "")) { _ = try WriteTransaction.begin(path: path) }
      #expect(TestFiles.same(try Support.bytes(path), before))
    }
  }

  /// A format-23 file (Realm's sample) is committed to in place and stays format 23.
  @Test(SharedFixtures.enabled)
  func format23IsCommittedInItsFormat() throws {
    try Support.withCopy(of: SharedFixtures.realmCoreSample("test__test_upgrade_database_4_23"), from: .shared) { path in
      let tx = try WriteTransaction.begin(path: path)
      expectEqual(tx.fileFormat, 23)
      let top = try #require(tx.top)
      try tx.commit(tableNames: try top.ref(0), tables: try top.ref(1))
      let after = try Support.bytes(path)
      let header = try HeaderState(reader: ByteReader(bytes: after))
      expectEqual(header.currentFormat, 23)
      _ = try SpaceAccounting.verify(ByteReader(bytes: after))
    }
  }

  @Test(SharedFixtures.enabled)
  func firstCommitOfAnEmptyRealm() throws {
    try Support.withCopy(of: SharedFixtures.realmCoreSample("test__resources__vacuum_no_history_type"), from: .shared) { path in
      let tx = try WriteTransaction.begin(path: path)
      #expect(tx.top == nil)
      let names = try tx.allocate(NodeHeader(widthType: .multiply, width: 0, count: 0).encoded)
      let tables = try tx.allocate(NodeHeader(hasRefs: true, width: 0, count: 0).encoded)
      let result = try tx.commit(tableNames: names, tables: tables)
      let after = try Support.bytes(path)
      let header = try HeaderState(reader: ByteReader(bytes: after))
      expectEqual(header.currentFormat, 24)
      expectEqual(header.currentTop, UInt64(result.topRef.rawValue))
      let report = try SpaceAccounting.verify(ByteReader(bytes: after))
      expectEqual(report.nodeCount, 6)  // names, tables, 3 free lists, top
      expectEqual(result.version, 2)
    }
  }

  @Test func rewritingEveryNodeKeepsTheDataAndTheAccounting() throws {
    try Support.withCopy(of: "format-samples/v24_edge.realm") { path in
      let before = try Support.bytes(path)
      let tx = try WriteTransaction.begin(path: path)
      let (names, tables) = try Support.rewriteEverything(tx)
      try tx.commit(tableNames: names, tables: tables)
      let after = try Support.bytes(path)
      let report = try SpaceAccounting.verify(ByteReader(bytes: after))
      let old = try SpaceAccounting.verify(ByteReader(bytes: before))
      // The same number of nodes (the history is dropped, the top arrays rebuilt).
      #expect(report.nodeCount > 0)
      #expect(report.nodeCount <= old.nodeCount)
    }
  }

  @Test func malformedNodesAreRefused() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let tx = try WriteTransaction.begin(path: path)
      // A header declaring 3 elements of 64 bits (32 bytes) given with 16 bytes.
      #expect(throws: StorageError(.misuse, "")) {
        _ = try tx.allocate(NodeHeader(width: 64, count: 3).encoded + [UInt8](repeating: 0, count: 8))
      }
      #expect(throws: StorageError(.misuse, "")) { _ = try tx.allocate([0x41, 0x41, 0x41]) }
      // Width type 3 does not exist.
      #expect(throws: StorageError(.misuse, "")) {
        _ = try tx.allocate([0x41, 0x41, 0x41, 0x41, 0x18, 0, 0, 0])
      }
      tx.abort()
    }
  }

  /// A dry run plans the same commit as the real one and writes nothing.
  @Test(arguments: ["format-samples/v24_commit.realm", "format-samples/v24_write_copy.realm"])
  func dryRunPlansTheSameCommitAndWritesNothing(fixture: String) throws {
    func run(dryRun: Bool) throws -> (
      WriteTransaction.CommitResult, before: [UInt8], after: [UInt8]
    ) {
      try Support.withCopy(of: fixture) { path in
        let before = try Support.bytes(path)
        var options = WriteTransaction.Options()
        options.dryRun = dryRun
        let tx = try WriteTransaction.begin(path: path, options: options)
        let top = try #require(tx.top)
        let names = try tx.allocate(try Support.renamedCopy(of: try top.ref(0), in: tx.reader))
        try tx.free(try top.ref(0))
        // A copy of a copy: reads a node of this transaction back.
        let tables = try tx.copy(try tx.copy(try top.ref(1), setting: []), setting: [])
        let result = try tx.commit(tableNames: names, tables: tables)
        return (result, before, try Support.bytes(path))
      }
    }
    let dry = try run(dryRun: true)
    let real = try run(dryRun: false)
    expectEqual(dry.0, real.0)
    expectEqual(dry.after, dry.before)
    #expect(real.after != real.before)
  }

  @Test func anAppendFailureIsRethrownByTheCommit() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let before = try Support.bytes(path)
      let tx = try WriteTransaction.begin(path: path, options: Support.appendOnly)
      let top = try #require(tx.top)
      #expect(tx.append(NodeEncoder.integers([1, 2, 3])) != .null)
      expectEqual(tx.append([0x41, 0x41, 0x41]), .null)  // not a node
      expectEqual(tx.append(NodeEncoder.integers([4])), .null)
      #expect(throws: StorageError(.misuse, "")) {
        try tx.commit(tableNames: try top.ref(0), tables: try top.ref(1))
      }
      #expect(TestFiles.same(try Support.bytes(path), before))
    }
  }
}
