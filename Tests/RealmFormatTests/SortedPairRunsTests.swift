import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmFormat
import RealmModel

/// The builder's external sort (index entries and backlinks sorted in runs, spilled to
/// scratch space and merged): it must give what sorting everything in memory gives, and the
/// file must not depend on how many entries a run holds.
@Suite struct SortedPairRunsTests {
  func pairs(_ n: Int, seed: UInt64) -> [WordPair] {
    var rng = SeededRandom(seed: seed)
    return (0..<n).map { i in
      // Few distinct `first` values (ties to keep in order), some spread over all 64 bits.
      let first = rng.next() % 3 == 0 ? rng.next() : rng.next() % 50
      return WordPair(first: first, second: rng.next() % 4 == 0 ? UInt64(i) : rng.next())
    }
  }

  func collect(_ input: [WordPair], bySecond: Bool, perRun: Int) -> (SortedPairRuns, [WordPair]) {
    var runs = SortedPairRuns(scratch: MemoryScratchStorage(entriesPerRun: perRun), bySecond: bySecond)
    for p in input { runs.append(p) }
    runs.sortPending()
    var merge = runs.merged()
    var out: [WordPair] = []
    while let p = merge.next() { out.append(p) }
    return (runs, out)
  }

  @Test(arguments: [1, 2, 7, 1000, 5000, 1 << 18])
  func mergedRunsAreAStableSort(perRun: Int) {
    let input = pairs(5000, seed: UInt64(perRun))
    // Stable by `first`: the positions break ties.
    let stable = input.indices.sorted { (input[$0].first, $0) < (input[$1].first, $1) }.map { input[$0] }
    let (runs, byFirst) = collect(input, bySecond: false, perRun: perRun)
    expectEqual(byFirst, stable)
    #expect(runs.count == 5000 && runs.runs.count == (perRun > 5000 ? 0 : 5000 / perRun))
    let full = input.sorted { ($0.first, $0.second) < ($1.first, $1.second) }
    expectEqual(collect(input, bySecond: true, perRun: perRun).1, full)
    #expect(collect([], bySecond: true, perRun: perRun).1.isEmpty)
  }

  @Test func radixSortSortsSortedAndReversedInput() {
    var ascending: [WordPair] = (0..<3000).map { (i: Int) -> WordPair in
      WordPair(first: UInt64(i / 3), second: UInt64(3000 - i))
    }
    let expected = ascending
    PairRadixSort.sort(&ascending, bySecond: false)
    expectEqual(ascending, expected)
    var reversed = Array(expected.reversed())
    PairRadixSort.sort(&reversed, bySecond: true)
    expectEqual(reversed, expected.sorted { ($0.first, $0.second) < ($1.first, $1.second) })
  }

  /// The int index written from spilled runs is byte for byte the index the in-memory writer
  /// makes of the same entries (general form), duplicates and equal low halves included.
  @Test(arguments: [3, 97, 1 << 18])
  func intIndexFromRunsIsTheInMemoryIndex(perRun: Int) throws {
    var rng = SeededRandom(seed: 21)
    var values: [Int64] = [0, -1, .max, .min, 1 << 32, -(1 << 32), 255, 256, 0x5800_0000]
    for _ in 0..<3000 {
      switch rng.next() % 4 {
      case 0: values.append(Int64(rng.next() % 40))
      case 1: values.append(Int64(bitPattern: UInt64(rng.next()) << 32 | UInt64(rng.next() % 4)))
      default: values.append(Int64(bitPattern: UInt64(rng.next())))
      }
    }
    let keys = values.indices.map { Int64($0 < 1000 ? $0 : $0 * 3) }
    var general = SearchIndexEntries()
    // Keys ascend: sorting by value alone (stable) must give the same order.
    var runs = SortedPairRuns(scratch: MemoryScratchStorage(entriesPerRun: perRun), bySecond: true)
    var byValue = SortedPairRuns(scratch: MemoryScratchStorage(entriesPerRun: perRun), bySecond: false)
    for (v, k) in zip(values, keys) {
      try general.append(.int(v), key: k)
      expectEqual(SearchIndexWriter.intValue(SearchIndexWriter.intPair(v, key: k)), v)
      runs.append(SearchIndexWriter.intPair(v, key: k))
      byValue.append(SearchIndexWriter.intPair(v, key: k))
    }
    general.generalize()
    runs.sortPending()
    byValue.sortPending()
    var a = makeSink()
    let expected = SearchIndexWriter.write(general, format: .current, into: &a)
    for r in [runs, byValue] {
      var b = makeSink()
      guard case .written(let root) = SearchIndexWriter.writeInts(r, stopAtDuplicate: false, into: &b) else {
        Issue.record("expected an index")
        return
      }
      #expect(root == expected && a.bytes == b.bytes)
    }
    // A primary key stops at the first equal values, the pair the in-memory check finds.
    let order = SearchIndexWriter.sortedOrder(general, format: .current)
    let (x, y) = try #require(SearchIndexWriter.firstDuplicate(general, order: order))
    var c = makeSink()
    guard case .duplicate(let p, let q) = SearchIndexWriter.writeInts(runs, stopAtDuplicate: true, into: &c) else {
      Issue.record("expected a duplicate")
      return
    }
    expectEqual(Set([p, q]), Set([general.key(x), general.key(y)]))
  }

  /// Objects with a primary key, links in every direction (sorted, shuffled, lists, Mixed,
  /// embedded) and string and int indexes: the file is the same whatever a run holds.
  @Test func spilledRunsGiveTheSameFile() throws {
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "Row", primaryKey: "id", properties: [
        Property(name: "id", type: .int, isIndexed: true),
        Property(name: "tag", type: .string, isIndexed: true),
        Property(name: "parent", type: .object, objectType: "Row", isOptional: true),
        Property(name: "other", type: .object, objectType: "Row", isOptional: true),
        Property(name: "many", type: .object, collection: .list, objectType: "Row"),
        Property(name: "any", type: .mixed, isOptional: true),
      ])
    ])
    let n = 3000
    var rng = SeededRandom(seed: 5)
    var objects: [(className: String, key: Int64?, values: [RealmValue])] = []
    func link(_ k: Int) -> RealmValue { .link(ObjectLink(className: "Row", key: Int64(k))) }
    for i in 0..<n {
      objects.append(("Row", Int64(i), [
        .int(Int64(n - i) * 7919 % 100_003), .string("tag \(i % 17)"), i == 0 ? .null : link(i / 2),
        link(Int(rng.next() % UInt64(n))), .list([link(Int(rng.next() % UInt64(n))), link(i)]),
        i % 5 == 0 ? link(Int(rng.next() % UInt64(n))) : .int(Int64(i)),
      ]))
    }
    func build(_ scratch: any ScratchStorage) throws -> [UInt8] {
      let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink(), scratch: scratch)
      for o in objects { try builder.append(className: o.className, key: o.key, values: o.values) }
      let file = try builder.finish()
      builder.sink.finish(header: file.header, fileSize: file.fileSize)
      return builder.sink.bytes
    }
    let whole = try build(MemoryScratchStorage())
    let group = try Group(reader: ByteReader(bytes: whole))
    #expect(group.check().isEmpty)
    for perRun in [1, 64, 1000] {
      try expectEqual(build(MemoryScratchStorage(entriesPerRun: perRun)), whole, "\(perRun) per run")
    }
    // The WriteFileBuilderTests file (embedded objects, sets, dictionaries, Mixed links, a
    // string primary key and an optional int index).
    let tests = WriteFileBuilderTests()
    func buildPeople(_ scratch: any ScratchStorage) throws -> [UInt8] {
      let builder = try RealmFileBuilder(schema: WriteFileBuilderTests.schema, sink: BufferNodeSink(), scratch: scratch)
      for o in tests.objects(people: 600, dogs: 300) { try builder.append(className: o.className, key: o.key, values: o.values) }
      let file = try builder.finish()
      builder.sink.finish(header: file.header, fileSize: file.fileSize)
      return builder.sink.bytes
    }
    try expectEqual(buildPeople(MemoryScratchStorage(entriesPerRun: 7)), buildPeople(MemoryScratchStorage()))
  }

  /// Realm opens and verifies a file whose index and backlinks were merged from many runs.
  @Test(RealmOracle.enabled) func realmVerifiesAFileBuiltFromManyRuns() throws {
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "Row", primaryKey: "id", properties: [
        Property(name: "id", type: .int, isIndexed: true),
        Property(name: "parent", type: .object, objectType: "Row", isOptional: true),
      ])
    ])
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink(), scratch: MemoryScratchStorage(entriesPerRun: 50))
    for i in 0..<2000 {
      let parent: RealmValue = i == 0 ? .null : .link(ObjectLink(className: "Row", key: Int64((i * 7) % 2000)))
      try builder.append(className: "Row", key: nil, values: [.int(Int64(2000 - i) << 20), parent])
    }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    let path = try Fixtures.temporaryDirectory().appendingPathComponent("runs.realm").path
    #expect(FileManager.default.createFile(atPath: path, contents: Data(builder.sink.bytes)))
    #expect(try RealmOracle.core14.verifyFailure(path) == nil)
    let keys = try #require(try RealmOracle.core14.queryKeys(path, className: "Row", where: "id == \(Int64(2000 - 777) << 20)"))
    expectEqual(keys, [777])
  }

  /// A link to an object that is never written is refused after spilled runs too.
  @Test func aMissingTargetIsRefusedFromRuns() throws {
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "Row", properties: [
        Property(name: "parent", type: .object, objectType: "Row", isOptional: true)
      ])
    ])
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink(), scratch: MemoryScratchStorage(entriesPerRun: 4))
    for i in 0..<40 {
      try builder.append(className: "Row", key: Int64(i), values: [.link(ObjectLink(className: "Row", key: Int64(i == 33 ? 90 : 39 - i)))])
    }
    let error = #expect(throws: FormatError.self) { _ = try builder.finish() }
    expectEqual(error?.detail, "a link points to object 90 of class 'Row', which does not exist")
  }
}
