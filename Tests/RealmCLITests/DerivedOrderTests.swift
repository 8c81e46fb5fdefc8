import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

/// What Realm derives from the order of values rather than from the values (docs/file-formats.md,
/// "What Realm derives from the data"): the stored order of set elements and dictionary keys
/// (Realm binary-searches them), and the object keys new objects get (squeezed keys for a
/// class without a primary key). Each writer's file must be the file Realm writes from the
/// same objects: the dumps of the Realm Core of the format (which prints sets and
/// dictionaries in stored order, reading the file as it is) are equal line for line.
@Suite struct DerivedOrderTests {
  typealias T = CommandTestSupport

  static func schema(_ format: Int) -> String {
    func set(_ name: String, _ type: String, _ optional: Bool = false) -> String {
      "{\"name\": \"\(name)\", \"type\": \"set\", \"objectType\": \"\(type)\", \"optional\": \(optional), \"indexed\": false}"
    }
    let sets = [
      set("ints", "int", true), set("strs", "string"), set("bins", "data"), set("dates", "date"), set("mixes", "mixed", true),
      set("oids", "objectId"), set("uuids", "uuid"), set("decs", "decimal128"), set("dbls", "double"), set("links", "S"),
    ]
    // Format 20 has no sets or dictionaries; formats 22 and up have both.
    return """
      {"schemaVersion": 0, "fileFormat": \(format), "classes": [
       {"name": "N", "embedded": false, "primaryKey": null, "properties": [
         {"name": "n", "type": "int", "optional": false, "indexed": false}]},
       {"name": "S", "embedded": false, "primaryKey": "id", "properties": [
         {"name": "id", "type": "int", "optional": false, "indexed": true},
         \(sets.joined(separator: ",\n     ")),
         {"name": "dict", "type": "dictionary", "objectType": "mixed", "optional": true, "indexed": false},
         {"name": "dstr", "type": "dictionary", "objectType": "string", "optional": true, "indexed": false}]}]}
      """
  }

  static let words = ["b", "B", "a", "", "é", "e\u{301}", "Ä", "z", "ß", "日本", "a\u{0}", "ab", "Ab", "~", "0", "😀", String(repeating: "q", count: 70)]

  static func s(_ text: String) -> String { IndexedSample.string(text) }

  /// Object `i` of `S`: every set holds values in an order that is not their stored order.
  static func object(_ i: Int, format: Int, convertible: Bool = false, random: inout SeededRandom) -> String {
    func pick<E>(_ all: [E], _ n: Int) -> [E] { (0..<n).map { _ in all[Int(random.next() % UInt64(all.count))] } }
    let n = 1 + i % 6
    let ints = pick(["null", "0", "-1", "9223372036854775807", "-9223372036854775808", "255", "256"], n)
    let strs = pick(words.map(s), n)
    let bins = pick(["\"\"", "\"AA==\"", "\"/w==\"", "\"gA==\"", "\"YQ==\"", "\"YWI=\"", "\"Yg==\""].map { "{\"$binary\":\($0)}" }, n)
    let dates = pick(["1969-12-31T23:59:59.250000000Z", "1969-12-31T23:59:59.100000000Z", "1970-01-01T00:00:00.000000000Z",
                      "1900-01-01T00:00:00.500000000Z", "2024-05-01T00:00:00.000000001Z"].map { "{\"$date\":\"\($0)\"}" }, n)
    let mixes = pick(["0", "false", "true", "1", "\"a\"", "{\"$binary\":\"YQ==\"}", "\"A\"", "\"é\"", "{\"$double\":0.5}", "{\"$float\":0.25}",
                      "{\"$decimal\":\"2.5\"}", "2", "null", "{\"$oid\":\"000000000000000000000000\"}", "{\"$date\":\"1970-01-01T00:00:00.000000000Z\"}",
                      "{\"$uuid\":\"00000000-0000-4000-8000-000000000001\"}", "{\"$ref\":\"S\",\"$key\":0}"]
                      // A string and a binary of the same bytes are one element in format 22.
                      .filter { !(convertible && $0.contains("YQ==")) }, n + 2)
    let oids = pick(["000000000000000000000000", "ffffffffffffffffffffffff", "7f0000000000000000000000", "800000000000000000000000"].map { "{\"$oid\":\"\($0)\"}" }, n)
    let uuids = pick(["00000000-0000-4000-8000-000000000001", "ffffffff-0000-4000-8000-000000000000", "80000000-0000-4000-8000-000000000000"].map { "{\"$uuid\":\"\($0)\"}" }, n)
    // No NaN: Realm's own sets of doubles and decimals insert with `std::lower_bound` and
    // `operator<`, for which NaN is unordered, so Realm's order of such a set depends on the
    // order of insertion (docs/file-formats.md). No decimal -0: Realm Core 14 stores it as 0 in
    // a set of decimals.
    let decs = pick(["0", "1.5", "1.50", "-2", "1E+30", "-Inf"].map { "{\"$decimal\":\"\($0)\"}" }, n)
    let dbls = pick(["0.5", "-0.0", "0.0", "{\"$double\":\"-Infinity\"}", "1e300", "-3"], n)
    let links = pick((0..<max(1, i)).map { "{\"$ref\":\"S\",\"$key\":\($0)}" }, i == 0 ? 0 : n)
    let keyWords = words.filter { !$0.isEmpty && !$0.hasPrefix("$") && !$0.contains(".") && !$0.contains("\u{0}") }
    func keys() -> [String] {
      var seen = Set<String>()
      return pick(keyWords, n + 2).filter { seen.insert($0).inserted }
    }
    // Collections nested in a mixed value need format 24.
    let dictValues = ["1", "\"x\"", "null", "{\"$double\":0.5}"] + (format >= 24 ? ["[1,\"a\"]", "{\"k\":false}"] : [])
    let dict = keys().map { "\(s($0)):\(pick(dictValues, 1)[0])" }
    let dstr = keys().map { "\(s($0)):\(s($0))" }
    func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
    return "{\"$class\":\"S\",\"$key\":\(i),\"id\":\(i),\"ints\":\(array(ints)),\"strs\":\(array(strs)),\"bins\":\(array(bins)),"
      + "\"dates\":\(array(dates)),\"mixes\":\(array(mixes)),\"oids\":\(array(oids)),\"uuids\":\(array(uuids)),\"decs\":\(array(decs)),"
      + "\"dbls\":\(array(dbls)),\"links\":\(array(links)),\"dict\":{\(dict.joined(separator: ","))},\"dstr\":{\(dstr.joined(separator: ","))}}"
  }

  /// `n` objects of `N` (no primary key) with the keys Realm gives them (squeezed: runs of 256,
  /// `(i & 0xFF) | (i & ~0xFF) << 8`), and the objects `range` of `S`. `keyed: false` leaves
  /// the keys of `N` out, for the writer to give.
  static func lines(n: Range<Int>, s range: Range<Int>, format: Int, keyed: Bool = true, convertible: Bool = false, seed: UInt64 = 3) -> [String] {
    var random = SeededRandom(seed: seed)
    let ns = n.map { i in keyed ? "{\"$class\":\"N\",\"$key\":\((i & 0xFF) | ((i & ~0xFF) << 8)),\"n\":\(i)}" : "{\"$class\":\"N\",\"n\":\(i)}" }
    var objects: [String] = []
    for i in 0..<range.upperBound {
      let o = object(i, format: format, convertible: convertible, random: &random)
      if range.contains(i) { objects.append(o) }
    }
    return ns + objects
  }

  static func core(_ format: Int) -> RealmOracle { RealmOracle.ownCore(ofFormat: format) ?? .core14 }

  static func realmsFile(_ lines: [String], _ dir: URL, _ name: String, format: Int) throws -> String {
    let schema = try T.write(schema(format), to: dir, as: "\(name).schema.json")
    let data = try T.write(lines.joined(separator: "\n") + "\n", to: dir, as: "\(name).jsonl")
    let path = dir.appendingPathComponent(name).path
    let r = try core(format).run(["create", "--schema", schema, "--version", "0", "--data", data, path])
    try #require(r.status == 0, "\(r.output)\(r.errorOutput)")
    return path
  }

  /// Expects `ours` to be, for the Core of `format`, the file Realm wrote as `realms`: the same
  /// dump, line for line.
  static func expectSame(_ ours: String, as realms: String, format: Int, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let oracle = core(format)
    let expected = try oracle.dump(realms).split(separator: "\n")
    let found = try oracle.dump(ours).split(separator: "\n")
    expectEqual(found.count, expected.count, "\(context): \(found.count) lines, Realm's \(expected.count)", sourceLocation: sourceLocation)
    for (a, b) in zip(found, expected) where a != b {
      // From a little before the first difference.
      let x = Array(a.utf8)
      let y = Array(b.utf8)
      let common: Int = min(x.count, y.count)
      let firstDifference: Int = (0..<common).first { (i: Int) -> Bool in x[i] != y[i] } ?? common
      let at = max(0, firstDifference - 150)
      Issue.record(
        "\(context), format \(format), Realm \(oracle.core), \(String(a.prefix(20))):\n ours:  …\(String(decoding: x[at...].prefix(400), as: UTF8.self))\n Realm: …\(String(decoding: y[at...].prefix(400), as: UTF8.self))",
        sourceLocation: sourceLocation)
      break
    }
  }

  static func all(_ format: Int) -> [String] { lines(n: 0..<300, s: 0..<40, format: format) }

  @Test(IndexAgreement.enabled, arguments: [24, 23, 22])
  func createWritesRealmsOrder(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let realms = try Self.realmsFile(Self.all(format), dir, "realm.realm", format: format)
      let ours = dir.appendingPathComponent("ours.realm").path
      let r = T.run(["create", ours, "--schema", try T.write(Self.schema(format), to: dir, as: "s.json"),
                     "--data", try T.write(Self.all(format).joined(separator: "\n") + "\n", to: dir, as: "d.jsonl"), "--file-format", "\(format)"])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectSame(ours, as: realms, format: format, "create")
    }
  }

  /// Objects inserted into Realm's file (the streamed merge and the in-place append) get
  /// Realm's keys and sequence, and their sets Realm's order.
  @Test(IndexAgreement.enabled, arguments: [24, 23, 22])
  func insertGivesRealmsKeysAndOrder(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let realms = try Self.realmsFile(Self.all(format), dir, "realm.realm", format: format)
      let ours = try Self.realmsFile(Self.lines(n: 0..<100, s: 0..<15, format: format), dir, "ours.realm", format: format)
      let rest = Self.lines(n: 100..<300, s: 15..<40, format: format, keyed: false)
      let r = T.run(["insert", ours, try T.write(rest.joined(separator: "\n") + "\n", to: dir, as: "rest.jsonl")])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectSame(ours, as: realms, format: format, "insert")
    }
  }

  /// Sets and dictionaries rewritten by an update (column-wise and through the rewrite),
  /// an upsert, a delete of nothing, a conversion and compaction keep Realm's order.
  @Test(IndexAgreement.enabled, arguments: [24, 23, 22])
  func rewritesKeepRealmsOrder(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      // Values every format holds (no collections nested in mixed), so that the file converts.
      let all = Self.lines(n: 0..<300, s: 0..<40, format: 22, convertible: true)
      let realms = try Self.realmsFile(all, dir, "realm.realm", format: format)
      let ours = dir.appendingPathComponent("ours.realm").path
      try FileManager.default.copyItem(atPath: realms, toPath: ours)
      let upsert = try T.write(all[300...].joined(separator: "\n") + "\n", to: dir, as: "u.jsonl")
      for words in [
        ["update", ours, "--class", "S", "--set", "strs = old.strs", "--set", "mixes = old.mixes", "--set", "dict = old.dict", "--set", "dates = old.dates"],
        ["update", ours, "--class", "S", "--set", "bins = old.bins", "--set", "links = old.links", "--set", "dstr = old.dstr", "--set", "decs = old.decs"],
        ["insert", ours, upsert, "--upsert"],
        ["delete", ours, "--class", "S", "--where", "id == -5"],
        ["compact", ours],
      ] {
        let r = T.run(words)
        try #require(r.status == 0, "\(words[0]): \(r.stderr)")
        try Self.expectSame(ours, as: realms, format: format, words[0])
      }
      for to in [24, 23, 22] where to != format {
        let converted = dir.appendingPathComponent("to\(to).realm").path
        let r = T.run(["convert", ours, "--file-format", "\(to)", "--output", converted, "-q"])
        try #require(r.status == 0, "\(r.stderr)")
        let realmsOther = try Self.realmsFile(all, dir, "realm\(to).realm", format: to)
        try Self.expectSame(converted, as: realmsOther, format: to, "convert \(format) -> \(to)")
      }
    }
  }
}
