import Foundation
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmExport

/// The parallel dump (``ParallelDump``): many small chunks in flight give exactly the bytes
/// of the object-by-object dump. For JSON Lines the chunks are encoded column by column
/// (``DumpBatchEncoder``), for SQL object by object: both must match the sequential writer.
@Suite struct ParallelDumpTests {
  /// Every `.realm` file under Tests/Fixtures (every format, legacy and encrypted ones too).
  static var fixtureFiles: [String] {
    let root = Fixtures.root.path
    let all = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
    return all.filter { $0.hasSuffix(".realm") }.sorted()
  }

  @Test(arguments: [DumpFormat.jsonl, .sql])
  func chunksComeOutInOrderAndIdentical(format: DumpFormat) throws {
    var compared = 0
    for fixture in Self.fixtureFiles {
      let keyPath = Fixtures.url(fixture).path.replacingOccurrences(of: ".realm", with: ".key")
      let key = FileManager.default.fileExists(atPath: keyPath)
        ? try EncryptionKey(keyFile: [UInt8](try Data(contentsOf: URL(fileURLWithPath: keyPath)))) : nil
      // Files that are meant not to open (open-errors, damaged) are the reader tests' business.
      guard let file = try? RealmFile.open(path: Fixtures.url(fixture).path, key: key) else { continue }
      func dump(_ parallel: ParallelDump?) -> Result<[UInt8], any Error> {
        Result {
          var out: [UInt8] = []
          var d = try ObjectDump(file: file, selection: ObjectDump.Selection())
          d.parallel = parallel
          var writer = format.makeWriter(sink: { out += $0 })
          try d.run(&writer)
          return out
        }
      }
      var small = ParallelDump(workers: 3)
      small.chunkObjects = 1
      small.window = 3
      switch dump(nil) {
      case .success(let sequential):
        // (Decrypting in a debug build is slow: the encrypted files get the default chunks only.)
        if key == nil { #expect(try dump(small).get() == sequential, "\(fixture)") }
        #expect(try dump(ParallelDump()).get() == sequential, "\(fixture)")
        compared += 1
      case .failure(let error):
        // A file the sequential dump refuses is refused in parallel too, with the same message.
        #expect(throws: (any Error).self, "\(fixture)") { try dump(ParallelDump()).get() }
        if case .failure(let parallelError) = dump(ParallelDump()) {
          #expect("\(parallelError)" == "\(error)", "\(fixture)")
        }
      }
    }
    #expect(compared >= 20)
  }
}
