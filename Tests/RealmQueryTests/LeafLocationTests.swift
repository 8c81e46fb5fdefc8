@testable import RealmFormat
import RealmTestSupport
import Testing

@testable import RealmQuery

/// Scans walk only the inner nodes of a cluster tree (``Group/forEachLeafLocation(in:_:)``) and
/// open the leaves on their workers (``Group/objectRange(at:)``): the same objects as a walk
/// that opens every leaf, and an inner node where a leaf belongs is an error when opened.
@Suite struct LeafLocationTests {
  /// The "Big" table of this file has a cluster tree of more than one level.
  static let path = "format-samples/v24_commit.realm"

  /// The ref and key offset of every leaf, from a walk that opens each one.
  static func openedLeaves(_ group: Group, _ table: Table) throws -> [(Ref, UInt64, Int)] {
    var out: [(Ref, UInt64, Int)] = []
    try group.clusterTree.forEachLeaf(root: table.clusterRoot) { (leaf) throws(FormatError) in
      out.append((leaf.node.ref, leaf.offset, leaf.count))
    }
    return out
  }

  @Test func locationsAreTheLeavesOfTheTree() throws {
    let group = try Group(reader: ByteReader(bytes: Fixtures.bytes(Self.path)))
    for table in group.tables where !table.isLegacyLayout {
      var opened: [(Ref, UInt64, Int)] = []
      try group.forEachLeafLocation(in: table) { location in
        let range = try group.objectRange(at: location)
        opened.append((location.leaf, location.keyOffset, range?.count ?? 0))
        if let range { #expect(range.leaf == location.leaf && range.keyOffset == location.keyOffset) }
      }
      let expected = try Self.openedLeaves(group, table)
      expectEqual(opened.map(\.0), expected.map(\.0), "\(table.name)")
      expectEqual(opened.map(\.1), expected.map(\.1), "\(table.name)")
      expectEqual(opened.map(\.2), expected.map(\.2), "\(table.name)")
    }
    let big = try #require(group.table(forClass: "Big"))
    #expect(try ArrayNode(group.reader, big.clusterRoot).isInner)
  }

  /// The first child of an inner node of depth 1 made to point at that inner node: the walk
  /// gives it as a leaf without reading it, and opening it is a ``FormatError``, as is every
  /// read of the table's objects and every scan, on the leaves and on decoded values, on one
  /// thread or on every core.
  @Test func anInnerNodeWhereALeafBelongsIsAnError() throws {
    var bytes = try Fixtures.bytes(Self.path)
    let group = try Group(reader: ByteReader(bytes: bytes))
    let big = try #require(group.table(forClass: "Big"))
    var node = try ArrayNode(group.reader, big.clusterRoot)
    while try node.child(3).isInner { node = try node.child(3) }
    try #require(node.isInner && node.width >= 8 && node.ref.rawValue < (1 << (node.width - 1)))
    let at = node.ref.rawValue + 8 + 3 * node.width / 8
    for b in 0..<(node.width / 8) { bytes[at + b] = UInt8(truncatingIfNeeded: node.ref.rawValue >> (8 * b)) }

    let damaged = try Group(reader: ByteReader(bytes: bytes))
    let table = try #require(damaged.table(forClass: "Big"))
    var locations: [LeafLocation] = []
    try damaged.forEachLeafLocation(in: table) { locations.append($0) }
    let first = try #require(locations.first { $0.leaf == node.ref })
    #expect(throws: FormatError.self) { try damaged.objectRange(at: first) }
    #expect(throws: FormatError.self) { try damaged.forEachObjectRange(in: table) { _ in } }
    #expect(throws: FormatError.self) { try damaged.forEachObject(in: table) { _, _ in } }
    let schema = try group.schema()
    for text in ["_id BEGINSWITH 'x'", "_id CONTAINS 'a' AND n > 1", "n > 0"] {
      var query = try RealmQuery(text, className: "Big", schema: schema, group: damaged)
      let plan = try query.plan(in: damaged, useIndexes: false)
      for options in [RealmQuery.ScanOptions.standard, QueryScanPathTests.generic, QueryScanPathTests.smallChunks] {
        query.scanOptions = options
        #expect(throws: FormatError.self, "\(text)") { try query.count(in: damaged, plan: plan) }
        #expect(throws: FormatError.self, "\(text)") { try query.objectKeys(in: damaged, plan: plan) }
      }
    }
  }
}
