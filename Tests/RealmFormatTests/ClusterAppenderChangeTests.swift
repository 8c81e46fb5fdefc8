import Foundation
import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

/// The streamed upsert's pieces in `ClusterAppender.Stream` on Realm's `alltypes` file (600
/// objects in three leaves, int primary keys that do not ascend with the keys): the primary
/// keys read a leaf at a time, and a leaf changed in only the columns where a value differs.
@Suite struct ClusterAppenderChangeTests {
  /// The file's bytes followed by the nodes written, so that a reader sees old and new nodes.
  struct ExtendingSink: NodeSink {
    var bytes: [UInt8]
    mutating func append(_ node: [UInt8]) -> Ref {
      let ref = Ref(bytes.count)
      bytes += node
      return ref
    }
  }

  static func open() throws -> (bytes: [UInt8], group: Group, table: Table) {
    let bytes = try Fixtures.bytes("alltypes/before.realm")
    let group = try Group(reader: ByteReader(bytes: bytes))
    return (bytes, group, try #require(group.table(forClass: "AllTypes")))
  }

  static func column(_ name: String, of table: Table) throws -> Int {
    try #require(table.publicColumns.firstIndex { $0.name == name })
  }

  /// The values of public column `c` in the leaf at `ref`, read through `group`.
  static func values(_ group: Group, _ table: Table, leaf ref: Ref, offset: Int64, column c: Int) throws -> ColumnValues {
    let leaf = try ClusterLeaf(try ArrayNode(elements: group.reader, ref), offset: UInt64(bitPattern: offset))
    let plans = group.columnPlans[try #require(group.tableIndex(table))]
    let cursors = try group.cursors(leaf, [plans[c]])
    return try group.columnValues(cursors[0], plans[c], rows: 0..<leaf.count, budget: group.makeBudget())
  }

  @Test func eachLeafsKeysAndPrimaryKeysAreRealms() throws {
    let (_, group, table) = try Self.open()
    let stream = try ClusterAppender.Stream(table: table, group: group)
    let id = table.publicColumns[try Self.column("_id", of: table)]
    var keys: [Int64] = []
    var ids: [Int64] = []
    for leaf in stream.existingLeaves {
      let (k, v) = try #require(try group.keysAndInts(ofLeaf: leaf, column: id))
      #expect(k.count == leaf.count && v.count == leaf.count)
      keys += k
      ids += v
    }
    // Realm's dump of the file: every object's key and primary key, in key order.
    var expected: [(Int64, Int64)] = []
    for line in String(decoding: try Fixtures.bytes("alltypes/dump.jsonl"), as: UTF8.self).split(separator: "\n") {
      let o = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      guard o["$class"] as? String == "AllTypes" else { continue }
      expected.append((try #require((o["$key"] as? NSNumber)?.int64Value), try #require((o["_id"] as? NSNumber)?.int64Value)))
    }
    expectEqual(stream.existingLeaves.count, 3)
    expectEqual(keys, expected.map(\.0))
    expectEqual(ids, expected.map(\.1))
    // A nullable int column is not read this way.
    let optional = table.publicColumns[try Self.column("int_opt", of: table)]
    #expect(try group.keysAndInts(ofLeaf: stream.existingLeaves[0], column: optional) == nil)
  }

  @Test func aLeafGetsNewLeavesOnlyForTheColumnsThatChange() throws {
    let (bytes, group, table) = try Self.open()
    var stream = try ClusterAppender.Stream(table: table, group: group)
    let double = try Self.column("double_req", of: table)
    let int = try Self.column("int_req", of: table)
    let old = stream.existingLeaves[1]
    let oldDoubles = try Self.values(group, table, leaf: old.ref, offset: old.offset, column: double)
    let oldInts = try Self.values(group, table, leaf: old.ref, offset: old.offset, column: int)
    var sink = ExtendingSink(bytes: bytes)
    // Rows 3 and 10: row 3's double changes, row 10's is given as it is; both ints as they are.
    let changed = try stream.change(
      leaf: 1, rows: [3, 10], columns: [double, int],
      values: [[.double(1234.5), oldDoubles.value(at: 10)], [oldInts.value(at: 3), oldInts.value(at: 10)]],
      unchanged: { column, rows, values in zip(rows, values).map { row, v in v.map { column.value(at: row) == $0 } ?? false } },
      sink: &sink)
    expectEqual(changed, 1)
    let new = stream.existingLeaves[1]
    #expect(new.ref != old.ref && new.offset == old.offset && new.count == old.count)
    let after = try Group(reader: ByteReader(bytes: sink.bytes))
    var expected = (0..<old.count).map { oldDoubles.value(at: $0) }
    expected[3] = .double(1234.5)
    let doubles = try Self.values(after, table, leaf: new.ref, offset: new.offset, column: double)
    // NaNs compare by being NaN (the file keeps one).
    let read = (0..<new.count).map { doubles.value(at: $0) }
    expectEqual(read.count, expected.count)
    for (a, b) in zip(read, expected) {
      guard case .double(let x) = a, case .double(let y) = b else {
        Issue.record("not doubles: \(a), \(b)")
        continue
      }
      #expect(x.isNaN ? y.isNaN : x.bitPattern == y.bitPattern, "\(x) \(y)")
    }
    // Every other slot of the leaf (keys, the int column, all the others) is the old node.
    let oldSlots = try MetadataEditor.elements(of: try ArrayNode(elements: after.reader, old.ref))
    let newSlots = try MetadataEditor.elements(of: try ArrayNode(elements: after.reader, new.ref))
    let slot = 1 + table.publicColumns[double].leafIndex
    expectEqual(oldSlots.count, newSlots.count)
    expectEqual(oldSlots.indices.filter { oldSlots[$0] != newSlots[$0] }, [slot])
    // The other leaves are as they were.
    expectEqual(stream.existingLeaves[0], (try ClusterAppender.Stream(table: table, group: group)).existingLeaves[0])
  }

  @Test func valuesGivenUnchangedWriteNothingAndAChangedIndexedValueIsRefused() throws {
    let (bytes, group, table) = try Self.open()
    var stream = try ClusterAppender.Stream(table: table, group: group)
    let string = try Self.column("string_req", of: table)
    let leaf = stream.existingLeaves[0]
    let strings = try Self.values(group, table, leaf: leaf.ref, offset: leaf.offset, column: string)
    var sink = ExtendingSink(bytes: bytes)
    let same: (ColumnValues, [Int], [RealmValue?]) -> [Bool] = { column, rows, values in
      zip(rows, values).map { row, v in v.map { column.value(at: row) == $0 } ?? false }
    }
    // The indexed string given as it is: nothing written.
    try expectEqual(stream.change(leaf: 0, rows: [0, 5], columns: [string], values: [[strings.value(at: 0), nil]], unchanged: same, sink: &sink), 0)
    expectEqual(sink.bytes.count, bytes.count)
    expectEqual(stream.existingLeaves[0], leaf)
    // Changed: its search index would change, which the in-place change does not write.
    #expect(throws: FormatError.self) {
      try stream.change(leaf: 0, rows: [5], columns: [string], values: [[.string("other")]], unchanged: same, sink: &sink)
    }
  }
}
