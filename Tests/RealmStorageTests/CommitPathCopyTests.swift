import Foundation
import RealmTestSupport
import Testing

@testable import RealmStorage
import RealmFormat

@Suite struct CommitPathCopyTests {
  typealias Support = CommitTestSupport

  /// Renames the first property of every table in place: tables -> table top -> spec -> names.
  @Test(arguments: [
    "alltypes/before.realm", "format-samples/v24_commit.realm",
    "format-samples/v24_group_write.realm",
  ])
  func renamesPropertiesThroughPathCopies(fixture: String) throws {
    try Support.withCopy(of: fixture) { path in
      let tx = try WriteTransaction.begin(path: path)
      let top = try #require(tx.top)
      var tables = try top.ref(1)
      var expected: [(table: Int, names: [UInt8])] = []
      let count = try ArrayNode(tx.reader, tables).count
      for i in 0..<count {
        guard case .ref(let tableTop) = try ArrayNode(tx.reader, try top.ref(1)).refOrTagged(i) else {
          continue
        }
        let spec = try ArrayNode(tx.reader, tableTop).ref(0)
        let names = try ArrayNode(tx.reader, spec).ref(1)
        guard try ArrayNode(tx.reader, names).count > 0 else { continue }
        let renamed = try Support.renamedCopy(of: names, in: tx.reader)
        let newNames = try tx.allocate(renamed)
        try tx.free(names)
        // After the first table, `tables` is this transaction's copy, patched again.
        tables = try tx.replace(
          along: [
            (node: tables, index: i), (node: tableTop, index: 0), (node: spec, index: 1),
          ],
          with: newNames)
        expected.append((i, renamed))
      }
      try #require(!expected.isEmpty)
      let result = try tx.commit(tableNames: try top.ref(0), tables: tables)

      let after = try Support.bytes(path)
      let reader = ByteReader(bytes: after)
      _ = try SpaceAccounting.verify(reader)
      let newTables = try ArrayNode(reader, try ArrayNode(reader, result.topRef).ref(1))
      for (i, renamed) in expected {
        let names = try ArrayNode(reader, try ArrayNode(reader, try newTables.child(i).ref(0)).ref(1))
        try expectEqual(reader.array(at: names.ref.rawValue, count: renamed.count), renamed)
      }
    }
  }

  @Test func copyWidensHasRefsArraysButNotPlainOnes() throws {
    try Support.withCopy(of: "format-samples/v24_commit.realm") { path in
      let tx = try WriteTransaction.begin(path: path)
      let top = try #require(tx.top)
      let tables = try top.ref(1)
      let width = try ArrayNode(tx.reader, tables).width
      try #require(width < 64)
      let copy = try tx.copy(tables, setting: [(0, Int64(1) << 40)])
      let bytes = try tx.newNodeBytes(copy)
      try expectEqual(bytes.withUnsafeBytes { try WriteTransaction.decodeHeader($0) }.width, 64)
      expectEqual(bytes.count, 8 + 8 * (try ArrayNode(tx.reader, tables).count))
      // The free-list positions array is plain: a value it cannot hold is refused.
      let positions = try top.ref(3)
      #expect(throws: StorageError(.misuse, "")) {
        _ = try tx.copy(positions, setting: [(0, Int64(1) << 62)])
      }
      #expect(throws: StorageError(.misuse, "")) { _ = try tx.copy(tables, setting: [(10_000, 0)]) }
      tx.abort()
    }
  }
}
