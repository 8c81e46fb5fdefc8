import Foundation
import RealmModel
import RealmQuery
import RealmStorage
import RealmTestBytes
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
        if key == nil { #expect(TestFiles.same(try dump(small).get(), sequential), "\(fixture)") }
        #expect(TestFiles.same(try dump(ParallelDump()).get(), sequential), "\(fixture)")
        compared += 1
      case .failure(let error):
        // A file the sequential dump refuses is refused in parallel too, with the same message.
        #expect(throws: (any Error).self, "\(fixture)") { try dump(ParallelDump()).get() }
        if case .failure(let parallelError) = dump(ParallelDump()) {
          expectEqual("\(parallelError)", "\(error)", "\(fixture)")
        }
      }
    }
    #expect(compared >= 20)
  }

  /// Issue 32: `--where` dumps through the same pipeline: the objects a query's scan selects,
  /// filtered and encoded in chunks on every core, give the bytes of the object-by-object
  /// filtered dump, for Realm's query fixtures (Realm's keys) and for selections dense and
  /// sparse over the many leaves of the strings fixture; with chunks of one leaf and the file's
  /// pages given back after every chunk too.
  @Test(arguments: [DumpFormat.jsonl, .sql])
  func filteredDumpsComeOutInOrderAndIdentical(format: DumpFormat) throws {
    struct Case: Decodable {
      var file: String
      var `class`: String
      var `where`: String
      var keys: [Int64]?
    }
    let lines = try String(contentsOf: Fixtures.url("queries/queries.jsonl"), encoding: .utf8).split(separator: "\n")
    var cases = try lines.map { try JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
    // alltypes' 600 objects carry binaries of up to 128 KiB, and 130 of the queries are on it:
    // `make test` takes every eighth of those (and every other query), REALMCTL_FULL_FIXTURES=1
    // all of them (docs/testing.md).
    let full = FixtureSample.isFull
    var alltypesCases = 0
    cases = cases.filter { c in
      guard !full, c.file == "alltypes/before.realm" else { return true }
      defer { alltypesCases += 1 }
      return alltypesCases % 8 == 0
    }
    cases += ["len > 3", "s ENDSWITH 'a'", "tag == 'nothing at all'", "TRUEPREDICATE", "len > 3 AND s CONTAINS[c] 'É'"].map {
      Case(file: "strings/before.realm", class: "Strings", where: $0, keys: nil)
    }
    var compared = 0
    for c in cases {
      guard let file = try? RealmFile.open(path: Fixtures.url(c.file).path),
        let dump = try? ObjectDump(file: file, selection: ObjectDump.Selection(className: c.class, query: c.where)),
        let query = dump.query, !query.hasDescriptors, dump.plan?.candidates == nil, !dump.classes[0].0.isEmbedded
      else { continue }
      func run(_ parallel: ParallelDump?) -> Result<[UInt8], any Error> {
        Result {
          var out: [UInt8] = []
          var d = dump
          d.parallel = parallel
          var writer = format.makeWriter(sink: { out += $0 })
          try d.run(&writer)
          return out
        }
      }
      var small = ParallelDump(workers: 3)
      small.chunkObjects = 1
      small.window = 3
      small.releaseObjects = 1
      switch run(nil) {
      case .success(let sequential):
        // Compared and scanned in RealmTestSupport (optimised): byte by byte here, unoptimised,
        // they cost more than the dumps.
        #expect(TestFiles.same(try run(small).get(), sequential), "\(c.file) \(c.where)")
        #expect(TestFiles.same(try run(ParallelDump()).get(), sequential), "\(c.file) \(c.where)")
        if format == .jsonl, let keys = c.keys {
          expectEqual(Set(TestFiles.objectKeys(inDump: sequential)), Set(keys), "\(c.file) \(c.where): Realm's keys")
        }
        compared += 1
      case .failure(let error):
        // A query the sequential dump cannot evaluate fails in parallel too, with the same message.
        if case .failure(let parallelError) = run(ParallelDump()) {
          expectEqual("\(parallelError)", "\(error)", "\(c.file) \(c.where)")
        } else {
          Issue.record("\(c.file) \(c.where): the parallel dump succeeded where the sequential one failed: \(error)")
        }
      }
    }
    #expect(compared >= (full ? 80 : 20))
  }
}
