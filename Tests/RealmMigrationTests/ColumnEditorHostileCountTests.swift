import RealmFormat
import RealmModel
import RealmTestSupport
import Testing

/// ``ColumnEditor`` copies a table's inner cluster nodes with their counts: a count the leaves
/// below it do not hold (the file's unverified word) must make it throw, not be carried into
/// the new version of the file. (The commands check the table's count before they edit:
/// `EditHostileFileTests` in RealmCLITests.)
@Suite struct ColumnEditorHostileCountTests {
  static let item = ObjectSchema(name: "Item", properties: [
    Property(name: "_id", type: .int), Property(name: "value", type: .int),
  ])

  /// `objects` `Item`s, the inner cluster node of depth 1 holding `holding` objects made to
  /// claim `claimed` (re-encoded 64 bits wide).
  static func group(objects: Int, holding: Int, claimed: Int64) throws -> Group {
    let values = (0..<objects).map { i in (className: "Item", values: [RealmValue.int(Int64(i)), .int(Int64(i) % 7)]) }
    let (bytes, rewritten) = try CraftedFiles.file(classes: [item], objects: values) { node in
      guard let (header, elements) = try? RewritingNodeSink.elements(of: node),
        header.isInner, header.hasRefs, elements.count >= 4, elements[1] == 3,  // depth 1
        elements[2] == Int64(holding) << 1 | 1
      else { return nil }
      return try? RewritingNodeSink.widened(node, setting: 2, to: claimed == .max ? -1 : claimed << 1 | 1)
    }
    try #require(rewritten == 1, "no inner cluster node of depth 1 holding \(holding) objects")
    return try Group(reader: ByteReader(bytes: bytes))
  }

  static var addsAColumn: [String: ColumnEditor.TableEdit] {
    var edit = ColumnEditor.TableEdit()
    edit.added = [ColumnEditor.NewColumn(property: Property(name: "flag", type: .bool), value: .bool(true))]
    return ["class_Item": edit]
  }

  static func expectThrow(_ group: Group, naming text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    var sink = BufferNodeSink()
    #expect(sourceLocation: sourceLocation) {
      _ = try ColumnEditor.apply(Self.addsAColumn, to: group, sink: &sink)
    } throws: { error in
      "\(error)".contains(text)
    }
  }

  @Test("a root claiming more objects than its leaves hold", arguments: [Int64(301), 1 << 40, .max])
  func rootCount(claimed: Int64) throws {
    let group = try Self.group(objects: 300, holding: 300, claimed: claimed)
    Self.expectThrow(group, naming: "says it holds \(claimed) objects but its cluster leaves hold 300")
    let table = try #require(group.table(forClass: "Item"))
    #expect(throws: FormatError.self) { try group.requireObjectCount(of: table) }
  }

  /// A tree of depth 2 (more objects than one inner node of 256 leaves holds) whose first
  /// inner node of depth 1 claims one object too many: the root's count is right, so only
  /// the copy of that node finds it.
  @Test func innerNodeBelowTheRoot() throws {
    let group = try Self.group(objects: 65_537, holding: 65_536, claimed: 65_537)
    let table = try #require(group.table(forClass: "Item"))
    expectEqual(table.objectCount, 65_537)
    try group.requireObjectCount(of: table)
    Self.expectThrow(group, naming: "says it holds 65537 objects but its leaves hold 65536")
  }

  /// The same trees with true counts are edited: the throws above are the counts' doing.
  @Test func trueCountsAreEdited() throws {
    for (objects, holding) in [(300, 300), (65_537, 65_536)] {
      let group = try Self.group(objects: objects, holding: holding, claimed: Int64(holding))
      var sink = BufferNodeSink()
      let result = try ColumnEditor.apply(Self.addsAColumn, to: group, sink: &sink)
      expectEqual(result.tableTops.count, 1)
    }
  }
}
