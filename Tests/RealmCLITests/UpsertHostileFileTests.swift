import Foundation
import RealmFormat
import RealmJSON
import RealmModel
import RealmTestSupport
import Testing

/// `insert --upsert` on files whose inner cluster node claims far more objects than its leaves
/// hold: the upsert reads the int primary keys straight from the leaves (`keysAndInts`),
/// which once sized two arrays from that count. The file's word must size nothing: the
/// command refuses the file (65, a message naming the count) and leaves it byte for byte.
@Suite struct UpsertHostileFileTests {
  typealias T = CommandTestSupport

  static let objects = 300  // more than one leaf of 256: the cluster root is an inner node

  static let itemClass = ObjectSchema(name: "Item", primaryKey: "_id", properties: [
    Property(name: "_id", type: .int, isIndexed: true),
    Property(name: "value", type: .int),
  ])

  /// The file of ``objects`` items (primary keys 0, 10, 20, …) whose inner cluster root says
  /// it holds `claimed` objects; the node is re-encoded 64 bits wide so that any count fits.
  static func file(claiming claimed: Int64) throws -> [UInt8] {
    let items = (0..<objects).map { i in (className: "Item", values: [RealmValue.int(Int64(i) * 10), .int(Int64(i))]) }
    let (bytes, rewritten) = try CraftedFiles.file(classes: [itemClass], objects: items) { node in
      guard let (header, elements) = try? RewritingNodeSink.elements(of: node),
        header.isInner, header.hasRefs, elements.count >= 4,
        elements[1] == 3, elements[2] == Int64(objects) << 1 | 1  // depth 1, the real count
      else { return nil }
      return try? RewritingNodeSink.widened(node, setting: 2, to: claimed << 1 | 1)
    }
    try #require(rewritten == 1, "the inner cluster root was not found")
    return bytes
  }

  /// One update of an existing object and one new object.
  static let upserts = """
    {"$class":"Item","_id":10,"value":-1}
    {"$class":"Item","_id":100000,"value":-2}

    """

  @Test("an inner cluster node claiming more objects than its leaves hold is refused untouched",
        arguments: [Int64(1) << 40, Int64(1) << 61, Int64(objects) + 1])
  func absurdObjectCountIsRefused(claimed: Int64) throws {
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("hostile.realm").path
      let bytes = try Self.file(claiming: claimed)
      try T.write(bytes, to: path)
      let data = try T.write(Self.upserts, to: dir, as: "up.jsonl")
      let r = T.run(["insert", path, data, "--upsert"])
      #expect(r.status == 65, "\(r.stdout)\(r.stderr)")
      #expect(r.stderr.hasPrefix("Error: "), "\(r.stderr)")
      #expect(r.stderr.contains("\(claimed) objects"), "\(r.stderr)")
      #expect(try T.bytes(path) == bytes, "the refused upsert changed the file")
    }
  }

  /// The same file with its true count is upserted: the refusal above is the count's doing.
  @Test func theSameFileWithItsTrueCountIsUpserted() throws {
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("sound.realm").path
      try T.write(try Self.file(claiming: Int64(Self.objects)), to: path)
      let data = try T.write(Self.upserts, to: dir, as: "up.jsonl")
      let r = T.run(["insert", path, data, "--upsert", "--json"])
      #expect(r.status == 0, "\(r.stderr)")
      let report = try JSONParser.parse(r.stdout)
      #expect(report["inserted"] == .int(1) && report["updated"] == .int(1), "\(r.stdout)")
      #expect(try T.problems(path) == [])
    }
  }
}
