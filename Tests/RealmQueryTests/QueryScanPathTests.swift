import Foundation
import RealmFormat
import RealmModel
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmQuery

/// The fast paths of a scan (comparisons on the leaves, chunks filtered on every core, counts
/// and keys without decoding, SORT+LIMIT heaps of sort values, DISTINCT by hash) give the
/// objects, in the order, that the generic paths give: comparisons on decoded values on one
/// thread, and the object-by-object evaluation (every object decoded, the condition tested on
/// it, the descriptors applied to all). On Realm's query fixtures, a format-9 file and a
/// generated file of many cluster leaves.
@Suite struct QueryScanPathTests {
  /// Comparisons on decoded values, one thread.
  static let generic = RealmQuery.ScanOptions(readsLeaves: false, parallel: false, chunkObjects: 8192)
  /// Every cluster leaf its own chunk, on every core (chunks finish out of order).
  static let smallChunks = RealmQuery.ScanOptions(readsLeaves: true, parallel: true, chunkObjects: 1)
  /// Small chunks, the file's resident pages given back after every chunk while the other
  /// workers still read (a no-op on bytes in memory; see `mappedFileGivingBackItsPages`).
  static let releasingPages = RealmQuery.ScanOptions(readsLeaves: true, parallel: true, chunkObjects: 1, releaseObjects: 1)

  /// Every property type a leaf comparison reads, with nulls, ties, NaN and non-ASCII text.
  static let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
    ObjectSchema(name: "Item", properties: [
      Property(name: "i", type: .int),
      Property(name: "oi", type: .int, isOptional: true),
      Property(name: "s", type: .string),
      Property(name: "os", type: .string, isOptional: true),
      Property(name: "d", type: .double),
      Property(name: "od", type: .double, isOptional: true),
      Property(name: "f", type: .float),
      Property(name: "t", type: .date, isOptional: true),
      Property(name: "b", type: .bool),
      Property(name: "link", type: .object, objectType: "Item", isOptional: true),
    ]),
  ])

  static let words = ["alpha", "Beta", "gamma ray", "ÉTÉ", "été", "", "x", "alphabet", "\u{1F600} smile", "Alpha"]

  static func item(_ n: Int) -> [RealmValue] {
    [
      .int(Int64(n % 37 - 18)),
      n % 5 == 0 ? .null : .int(Int64(n % 23)),
      .string("\(words[n % words.count]) \(n % 101)"),
      n % 7 == 0 ? .null : .string(words[(n / 3) % words.count]),
      .double(n % 13 == 0 ? .nan : n % 11 == 0 ? -0.0 : Double(n % 50) / 4 - 3),
      n % 4 == 0 ? .null : .double(Double(n % 9) * 0.5),
      .float(Float(n % 17) / 2),
      n % 6 == 0 ? .null : .date(Timestamp(seconds: Int64(n % 29) * 3600 - 50_000, nanoseconds: Int32(n % 3) * 500)),
      .bool(n % 2 == 0),
      n % 10 == 0 || n < 256 ? .null : .link(ObjectLink(className: "Item", key: Int64(n % 256))),
    ]
  }

  static func itemFile() throws -> [UInt8] {
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    for n in 0..<6000 { _ = try builder.append(className: "Item", key: nil, values: item(n)) }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    return builder.sink.bytes
  }

  static let itemBytes = Result { try itemFile() }

  static let itemQueries: [String] = [
    "s BEGINSWITH 'alpha'", "s BEGINSWITH[c] 'ALPHA'", "s ENDSWITH ' 7'", "s ENDSWITH[c] 'A 1'", "s CONTAINS 'ray'",
    "s CONTAINS[c] 'été'", "s == 'x 5'", "s ==[c] 'ÉTÉ 3'", "s != 'x 5'", "s LIKE '*a?'", "s > 'gamma'",
    "os BEGINSWITH 'a'", "os == nil", "os != nil", "os ==[c] 'beta'", "os CONTAINS[c] ''", "os == ''", "os < 'b'",
    "os ENDSWITH[c] 'SMILE'", "i > 3", "i == -18", "i != 0", "i <= -10", "oi == nil", "oi > 20", "oi != 3", "oi < 2",
    "d > 5", "d < 0", "d == 1.25", "d != 1.25", "d >= -3", "od > 2", "od == nil", "od != 0.5", "f > 4", "f == 2.5",
    "f <= 1", "t > T-40000:0", "t == nil", "t < T-45000:0", "t != T-50000:0", "b == true AND i > 0",
    "s BEGINSWITH 'alpha' OR d > 8", "b == false", "b != true OR i == 3", "NOT s CONTAINS 'a'", "i > 0 AND (os == nil OR oi > 10)", "link.i > 5",
    "link.s BEGINSWITH 'Beta' AND d > 0", "i IN {1, 2, 3, -18}", "s IN {'x 5', 'alpha 0'}", "TRUEPREDICATE",
    "FALSEPREDICATE",
    "d > 0 SORT(d DESC) LIMIT(10)", "TRUEPREDICATE SORT(i ASC) LIMIT(25)", "i > 0 SORT(s ASC, d DESC) LIMIT(40)",
    "TRUEPREDICATE SORT(od ASC) LIMIT(7)", "TRUEPREDICATE SORT(t DESC) LIMIT(300)", "TRUEPREDICATE SORT(d ASC) LIMIT(20)",
    "os != nil SORT(os DESC) LIMIT(1000)", "TRUEPREDICATE SORT(i DESC)", "s CONTAINS 'a' SORT(f ASC, i DESC)",
    "TRUEPREDICATE DISTINCT(os)", "TRUEPREDICATE DISTINCT(i, b)", "TRUEPREDICATE DISTINCT(d)", "i > 0 DISTINCT(t) SORT(t ASC)",
    "TRUEPREDICATE DISTINCT(s) LIMIT(30)", "TRUEPREDICATE LIMIT(10) SORT(d ASC)", "s BEGINSWITH 'x' LIMIT(3)",
    "TRUEPREDICATE SORT(link.i ASC) LIMIT(5)", "TRUEPREDICATE SORT(i ASC) LIMIT(5) DISTINCT(b)", "i > 100 SORT(i ASC) LIMIT(3)",
    // A first DISTINCT of one property of each type (its values as plain keys: ±0 alike, NaN
    // by its bits, nulls alike, strings by their bytes), with LIMITs that end the scan early
    // and SORTs or DISTINCTs after it that read the rows kept.
    "TRUEPREDICATE DISTINCT(i)", "TRUEPREDICATE DISTINCT(oi)", "TRUEPREDICATE DISTINCT(od)", "TRUEPREDICATE DISTINCT(f)",
    "TRUEPREDICATE DISTINCT(t)", "TRUEPREDICATE DISTINCT(b)", "TRUEPREDICATE DISTINCT(link)", "d != 1 DISTINCT(s)",
    "TRUEPREDICATE DISTINCT(d) LIMIT(5)", "b == true DISTINCT(d) LIMIT(40)", "TRUEPREDICATE DISTINCT(os) LIMIT(4)",
    "TRUEPREDICATE DISTINCT(s) LIMIT(3) SORT(i DESC)", "i > 0 DISTINCT(oi) SORT(oi DESC)", "TRUEPREDICATE DISTINCT(i) LIMIT(9) LIMIT(2)",
    "TRUEPREDICATE DISTINCT(t) LIMIT(0)", "TRUEPREDICATE DISTINCT(f) DISTINCT(b)", "TRUEPREDICATE DISTINCT(od) LIMIT(3) SORT(od ASC)",
    "s CONTAINS 'a' DISTINCT(i, f) LIMIT(12)", "TRUEPREDICATE DISTINCT(link) LIMIT(6)", "i > 5000 DISTINCT(d) LIMIT(3)",
  ]

  /// The keys the object-by-object evaluation gives: every object decoded and tested, the
  /// descriptors applied to every match.
  static func objectByObject(_ query: RealmQuery, _ group: Group) throws -> [Int64] {
    guard let table = group.table(forClass: query.className) else { return [] }
    let source = GroupQuerySource(group: group, schema: query.schema.schema)
    return try query.objectKeys(source: source) { body in try group.forEachObject(in: table) { try body($0, $1) } }
  }

  /// The differences between the paths for one query ("" when they agree).
  static func compare(_ text: String, className: String, group: Group, schema: Schema) throws -> String {
    var query = try RealmQuery(text, className: className, schema: schema, group: group)
    let scanPlan = try query.plan(in: group, useIndexes: false)
    let expected = try objectByObject(query, group)
    var problems: [String] = []
    for (name, options) in [
      ("fast", RealmQuery.ScanOptions.standard), ("generic", generic), ("small chunks", smallChunks),
      ("releasing pages", releasingPages),
    ] {
      query.scanOptions = options
      let keys = try query.objectKeys(in: group, plan: scanPlan)
      if keys != expected { problems.append("\(text) [\(name)]: \(keys.prefix(12)) (\(keys.count)) vs \(expected.prefix(12)) (\(expected.count))") }
      let count = try query.count(in: group, plan: scanPlan)
      if count != expected.count { problems.append("\(text) [\(name)]: count \(count) vs \(expected.count)") }
      guard !query.hasDescriptors else { continue }
      var matchingKeys: [Int64] = []
      try query.forEachMatchingKey(in: group, plan: scanPlan) { matchingKeys.append($0) }
      if matchingKeys != expected {
        problems.append("\(text) [\(name)]: forEachMatchingKey \(matchingKeys.prefix(12)) vs \(expected.prefix(12))")
      }
      // The objects a dump writes: the matches' values as the file has them.
      var matched: [Int64] = []
      var wrong: [Int64] = []
      let table = group.table(forClass: className)!
      try query.forEachMatch(in: group, plan: scanPlan) { key, values in
        matched.append(key)
        guard matched.count <= 100 else { return }
        let stored = try group.object(in: table, key: key)
        // NaN equals NaN here; a pair is described only when `==` says no.
        if !(stored.map { SameValues.rows($0, values) } ?? false) { wrong.append(key) }
      }
      if matched != expected { problems.append("\(text) [\(name)]: forEachMatch \(matched.prefix(12)) vs \(expected.prefix(12))") }
      if !wrong.isEmpty { problems.append("\(text) [\(name)]: values differ for \(wrong.prefix(8))") }
    }
    return problems.joined(separator: "\n")
  }

  @Test func theGeneratedFileHasManyLeaves() throws {
    let group = try Group(reader: ByteReader(bytes: Self.itemBytes.get()))
    var ranges = 0
    try group.forEachObjectRange(in: group.table(forClass: "Item")!) { _ in ranges += 1 }
    #expect(ranges >= 10)
  }

  @Test("every path gives the object-by-object answer on many leaves", arguments: itemQueries)
  func generatedFile(_ text: String) throws {
    let group = try Group(reader: ByteReader(bytes: Self.itemBytes.get()))
    let problems = try Self.compare(text, className: "Item", group: group, schema: Self.schema)
    #expect(problems.isEmpty, "\(problems)")
  }

  /// The generated file on disk, mapped (`RealmFile.open`): the scans that give the mapping's
  /// pages back after every chunk, while other workers read on, find what the others find.
  @Test func mappedFileGivingBackItsPages() throws {
    try Fixtures.withTemporaryFile(Self.itemBytes.get(), named: "items.realm") { path in
      let group = try RealmFile.open(path: path).group
      var problems: [String] = []
      for text in Self.itemQueries {
        let found = try Self.compare(text, className: "Item", group: group, schema: Self.schema)
        if !found.isEmpty { problems.append(found) }
      }
      #expect(problems.isEmpty, "\(problems.prefix(5))")
    }
  }

  @Test("every path gives the object-by-object answer on Realm's query fixtures")
  func fixtures() throws {
    var problems: [String] = []
    var compared = 0
    // Each query through four paths and three more walks: `make test` takes one in four of
    // Realm's query fixtures, spread over the list; REALMCTL_FULL_FIXTURES=1 takes them all.
    let cases = FixtureSample.spread(QueryFixtureTests.cases.filter { $0.keys != nil }, every: 4)
    for c in cases {
      guard let file = QueryFixtureTests.files[c.file] else { continue }
      let schema = try file.group.schema()
      let p: String
      do { p = try Self.compare(c.query, className: c.className, group: file.group, schema: schema) } catch { p = "\(c): \(error)" }
      if !p.isEmpty { problems.append(p) }
      compared += 1
    }
    #expect(compared > 25)
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test("every path gives the object-by-object answer on a format-9 file")
  func legacyFile() throws {
    let file = try RealmFile.open(path: Fixtures.url("legacy-core5/enum-multileaf/original.realm").path)
    let schema = try file.group.schema()
    for text in [
      "name BEGINSWITH 'a'", "n > 700", "optName == nil", "optName CONTAINS[c] 'E' SORT(n DESC) LIMIT(5)",
      "n < 100 DISTINCT(name)", "TRUEPREDICATE SORT(name ASC, n DESC) LIMIT(20)",
    ] {
      let problems = try Self.compare(text, className: "Tag", group: file.group, schema: schema)
      #expect(problems.isEmpty, "\(problems)")
    }
  }

  @Test func sortWithLimitRejectsWithoutARowOnlyWhatCannotEnter() {
    var heap = TopRows(capacity: 2, ascending: [true])
    #expect(!heap.rejects(.scalar(.int(5))))
    heap.insert(DescriptorRow(key: 0, index: 0, values: [.scalar(.int(5))]))
    heap.insert(DescriptorRow(key: 1, index: 1, values: [.scalar(.int(3))]))
    #expect(heap.rejects(.scalar(.int(6))))
    #expect(heap.rejects(.scalar(.int(5))))  // a later row loses the tie
    #expect(!heap.rejects(.scalar(.int(4))))
    var twoColumns = TopRows(capacity: 1, ascending: [false, true])
    twoColumns.insert(DescriptorRow(key: 0, index: 0, values: [.scalar(.int(5)), .scalar(.int(9))]))
    #expect(!twoColumns.rejects(.scalar(.int(5))))  // the second column decides
    #expect(twoColumns.rejects(.scalar(.int(4))))
  }
}
