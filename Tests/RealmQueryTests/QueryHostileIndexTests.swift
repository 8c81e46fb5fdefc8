import RealmFormat
import RealmModel
import RealmQuery
import RealmTestSupport
import Testing

/// Indexed queries on a search index whose list of object keys (the entry of a value several
/// objects share) was made a B+-tree of leaves that each claim 16,777,215 keys in 8 bytes
/// (width 0): the lookup once gathered every claimed key before looking at any, billions for
/// a file of a few KiB. A list leaf holds at most 1000 keys, so such a list is refused, and
/// the query scans, with a note, giving the scan's objects.
@Suite struct QueryHostileIndexTests {
  static let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
    ObjectSchema(name: "Item", properties: [
      Property(name: "name", type: .string, isIndexed: true),
      Property(name: "n", type: .int),
    ])
  ])

  /// Five objects named "dup" (keys 0-4: the index's list [0, 1, 2, 3, 4]) and five others;
  /// the list is replaced by an inner B+-tree node whose `children` children are one width-0
  /// leaf of 0xFFFFFF elements, placed right after it.
  static func file(children: Int) throws -> [UInt8] {
    let objects: [(className: String, values: [RealmValue])] = (0..<10).map { (i: Int) in
      let name: String = i < 5 ? "dup" : "name \(i)"
      return (className: "Item", values: [RealmValue.string(name), RealmValue.int(Int64(100 + i))])
    }
    let (bytes, rewritten) = try CraftedFiles.file(classes: schema.classes, objects: objects) { node, at in
      guard let (header, elements) = try? RewritingNodeSink.elements(of: node),
        !header.isInner, !header.hasRefs, elements == [0, 1, 2, 3, 4]
      else { return nil }
      let inner = NodeEncoder.integerNode(
        [Int64(1000) << 1 | 1] + [Int64](repeating: 0, count: children) + [Int64(0xFF_FFFF * children) << 1 | 1],
        width: 64, hasRefs: true, isInner: true)
      let leaf = Int64(at.rawValue + inner.count)
      let placed = NodeEncoder.integerNode(
        [Int64(1000) << 1 | 1] + [Int64](repeating: leaf, count: children) + [Int64(0xFF_FFFF * children) << 1 | 1],
        width: 64, hasRefs: true, isInner: true)
      return placed + NodeEncoder.integerNode(repeatElement(0, count: 0xFF_FFFF), width: 0)
    }
    try #require(rewritten == 1, "the index's list of 'dup' was not found")
    return bytes
  }

  @Test("an index list of width-0 leaves claiming 2^24 keys each gives a scan", arguments: [1, 500])
  func absurdListGivesAScan(children: Int) throws {
    let group = try Group(reader: ByteReader(bytes: try Self.file(children: children)))
    for text in ["name == 'dup'", "name IN {'dup', 'name 7'}"] {
      let query = try RealmQuery(text, className: "Item", schema: Self.schema, group: group)
      let plan = try query.plan(in: group)
      #expect(!plan.usesIndex, "\(text): \(plan)")
      expectEqual(plan.note?.contains("search index"), true, "\(plan)")
      let expected: [Int64] = text.contains("name 7") ? [0, 1, 2, 3, 4, 7] : [0, 1, 2, 3, 4]
      try expectEqual(query.objectKeys(in: group, plan: plan), expected, "\(text)")
    }
  }
}
