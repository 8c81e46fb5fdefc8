import Foundation
import RealmFormat
import RealmModel
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmCLI
import RealmExport

/// `dump --format sql` through the parallel dump (``ParallelDump``, ``SQLDumpWriter/chunkEncoder()``):
/// chunks encoded on other threads give the object-by-object script byte for byte, including
/// statements of up to 500 rows that span many chunks.
@Suite struct SQLParallelExportTests {
  /// The script of `fixture` (all classes, or `className`) written with `parallel`
  /// (nil: object by object).
  static func script(_ fixture: String, className: String? = nil, _ parallel: ParallelDump?) throws -> [UInt8] {
    let path = Fixtures.url(fixture).path
    let file = try RealmFile.open(path: path)
    let options = DumpCommand.Options(
      file: path, format: .sql, className: className, limit: nil, offset: 0, query: nil)
    var out: [UInt8] = []
    var dump = try ObjectDump(file: file, selection: options.selection)
    dump.parallel = parallel
    var writer = DumpCommand.makeWriter(
      options, classNames: dump.classes.map(\.0.name), sink: { out += $0 }, terminalWidth: 80)
    try dump.run(&writer)
    return out
  }

  @Test(arguments: [
    "alltypes/before.realm", "strings/before.realm", "embedded/before.realm", "nested-links/before.realm",
    "format-samples/v24_commit.realm",
  ])
  func chunksGiveTheSequentialScript(_ fixture: String) throws {
    let sequential = try Self.script(fixture, nil)
    #expect(String(decoding: sequential, as: UTF8.self).hasSuffix("COMMIT;\n"))
    // One object per chunk, three in flight: every statement of several rows spans chunks.
    var tiny = ParallelDump(workers: 3)
    tiny.chunkObjects = 1
    tiny.window = 3
    try expectEqual(Self.script(fixture, tiny), sequential)
    var odd = ParallelDump(workers: 2)
    odd.chunkObjects = 7
    try expectEqual(Self.script(fixture, odd), sequential)
    // The default chunks (4,096 objects: two for the 5,126 strings objects).
    try expectEqual(Self.script(fixture, ParallelDump()), sequential)
  }

  @Test func oneClassOfSeveral() throws {
    var tiny = ParallelDump(workers: 2)
    tiny.chunkObjects = 3
    let sequential = try Self.script("alltypes/before.realm", className: "AllTypes", nil)
    try expectEqual(Self.script("alltypes/before.realm", className: "AllTypes", tiny), sequential)
  }

  /// The sequential script of alltypes has statements of more rows than a tiny chunk's objects
  /// make, so the test above compares statements made across chunk boundaries.
  @Test func statementsSpanChunks() throws {
    let text = String(decoding: try Self.script("alltypes/before.realm", nil), as: UTF8.self)
    let statements = text.components(separatedBy: "\nINSERT INTO ").dropFirst()
    #expect(statements.count > 10)
    #expect(statements.map { $0.split(separator: "\n").count }.max() ?? 0 > 100)
  }

  /// Records that are not what a recording buffer writes are refused, not trusted.
  @Test func damagedRecordsAreRefused() throws {
    let schema = try RealmFile.open(path: Fixtures.url("alltypes/before.realm").path).group.schema()
    let plan = SQLExportPlan(schema: schema)
    var buffer = SQLInsertBuffer(plan: plan)
    #expect(throws: DumpOutputError.self) { try buffer.replay([0, 0, 0]) }
    let badTable: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, UInt8(ascii: "1")]
    #expect(throws: DumpOutputError.self) { try buffer.replay(badTable) }
    let tooLong: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0x80, UInt8(ascii: "1")]
    #expect(throws: DumpOutputError.self) { try buffer.replay(tooLong) }
    #expect(buffer.output.isEmpty)
  }
}
