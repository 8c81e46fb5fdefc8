import Foundation
import RealmJSON
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmCLI

/// The parallel dump (``ParallelDump``): many small chunks in flight give exactly the bytes
/// of the object-by-object dump.
@Suite struct ParallelDumpTests {
  @Test func chunksComeOutInOrderAndIdentical() throws {
    for fixture in ["strings/before.realm", "alltypes/before.realm", "person-add-email/before.realm"] {
      let file = try RealmFile.open(path: Fixtures.url(fixture).path)
      let options = DumpCommand.Options(file: Fixtures.url(fixture).path, format: .jsonl, className: nil, limit: nil, offset: 0, query: nil)
      func dump(_ parallel: ParallelDump?) throws -> [UInt8] {
        var out: [UInt8] = []
        var d = try ObjectDump(file: file, options: options)
        d.parallel = parallel
        var writer = DumpFormat.jsonl.makeWriter(sink: { out += $0 })
        try d.run(&writer)
        return out
      }
      var small = ParallelDump(workers: 3)
      small.chunkObjects = 1
      small.window = 3
      let sequential = try dump(nil)
      #expect(!sequential.isEmpty)
      #expect(try dump(small) == sequential, "\(fixture)")
      #expect(try dump(ParallelDump()) == sequential, "\(fixture)")
    }
  }
}
