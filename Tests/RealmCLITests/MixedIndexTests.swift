import Foundation
import RealmTestSupport
import Testing

/// Search indexes on `mixed` properties as Realm builds them (issue 27, item 2): values of
/// different types with the same index data (`0` and `false`, `1` and `true`, `"a"` and the
/// binary `a`, an ObjectId of zeros and the date 0, `2` and the decimal 2.5) share one entry,
/// whose objects Realm keeps in the order of their values and looks up by it. Every writer that
/// builds, extends or copies such an index must give the file on which Realm's queries answer
/// as they do on the file Realm itself writes from the same objects (`oracle create`, by the
/// Realm Core of the format), types alternating by object key.
@Suite struct MixedIndexTests {
  typealias T = CommandTestSupport

  static func schema(indexed: Bool, format: Int = 24) -> String {
    """
    {"schemaVersion": 0, "fileFormat": \(format), "classes": [
     {"name": "M", "embedded": false, "primaryKey": null, "properties": [
       {"name": "m", "type": "mixed", "optional": true, "indexed": \(indexed)},
       {"name": "t", "type": "int", "optional": false, "indexed": false}]}]}
    """
  }

  /// The values of `m`, object by object (key = position): the issue's 0, false, 0, then
  /// pairs and runs of types that share index data, alternating.
  static let values: [String] = [
    "0", "false", "0", "1", "true", "1", "true",
    "\"a\"", "{\"$binary\":\"YQ==\"}", "\"a\"", "{\"$binary\":\"YQ==\"}",
    "{\"$oid\":\"000000000000000000000000\"}", "{\"$date\":\"1970-01-01T00:00:00.000000000Z\"}",
    "{\"$oid\":\"000000000000000000000000\"}",
    "{\"$double\":0.0}", "{\"$decimal\":\"0\"}", "{\"$float\":0.0}", "false",
    "2", "{\"$decimal\":\"2.5\"}", "2", "{\"$double\":0.5}", "{\"$float\":0.5}", "{\"$decimal\":\"0.5\"}",
    "3000000000", "{\"$double\":3000000000.0}", "null", "\"\"", "{\"$binary\":\"\"}", "null",
    "{\"$date\":\"1969-12-31T23:59:59.250000000Z\"}", "-1", "\"\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\\u0000\"", "0",
  ]

  static func line(_ i: Int) -> String { "{\"$class\":\"M\",\"$key\":\(i),\"m\":\(values[i]),\"t\":\(i)}" }

  static func data(_ keys: Range<Int>) -> String { keys.map(line).joined(separator: "\n") + "\n" }

  /// Queries whose answers depend on the index's order and content.
  static let queries = [
    "m == false", "m == 0", "m == true", "m == 1", "m == 'a'", "m == bin('a')",
    "m == oid(000000000000000000000000)", "m == T0:0", "m == 0.0", "m == 0.0f", "m == 2", "m == 0.5",
    "m == 0.5f", "m == 3000000000", "m == 3000000000.0", "m == null", "m == ''", "m == 2.5", "m == -1",
    "m == T0:-750000000", "m == 1 OR m == false", "m == 0 AND t > 10",
  ]

  /// The Realm Core that writes and reads `format` as it is.
  static func core(_ format: Int) -> RealmOracle { RealmOracle.ownCore(ofFormat: format) ?? .core14 }

  /// Realm's own file of objects `keys`, written by the Core of `format`.
  static func realmsFile(_ dir: URL, _ name: String, keys: Range<Int>, format: Int, indexed: Bool = true) throws -> String {
    let schema = try T.write(schema(indexed: indexed, format: format), to: dir, as: "\(name).schema.json")
    let data = try T.write(data(keys), to: dir, as: "\(name).jsonl")
    let path = dir.appendingPathComponent(name).path
    let r = try core(format).run(["create", "--schema", schema, "--version", "0", "--data", data, path])
    try #require(r.status == 0, "\(r.output)\(r.errorOutput)")
    return path
  }

  /// Expects Realm's answers to ``queries`` on `ours` to be its answers on `realms`: by Realm
  /// Core 14 (which reads formats 22 and 23 by upgrading a copy, as every SDK since 2024 does)
  /// and by the Core of the file's format, reading it as it is. Then the index agreement check.
  static func expectRealmsAnswers(_ ours: String, as realms: String, format: Int, _ context: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
    let batch = queries.filter { format >= 24 || !$0.contains("bin(") }.map { RealmOracle.Query("M", $0) }
    var oracles = [RealmOracle.core14]
    if format < 24 { oracles.append(core(format)) }
    for oracle in oracles {
      let expected = try oracle.query(realms, batch)
      let found = try oracle.query(ours, batch)
      for (i, q) in batch.enumerated() where found[i] != expected[i] {
        Issue.record("\(context), format \(format), Realm \(oracle.core): \(q.predicate): \(found[i]), on Realm's own file \(expected[i])", sourceLocation: sourceLocation)
      }
    }
    try IndexAgreement.expectAgreement(ours, context, sourceLocation: sourceLocation)
  }

  static let formats = [22, 23, 24]
  static let all = 0..<values.count

  @Test(IndexAgreement.enabled, arguments: formats)
  func createBuildsRealmsIndex(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let realms = try Self.realmsFile(dir, "realm.realm", keys: Self.all, format: format)
      let schema = try T.write(Self.schema(indexed: true, format: format), to: dir, as: "schema.json")
      let data = try T.write(Self.data(Self.all), to: dir, as: "data.jsonl")
      let ours = dir.appendingPathComponent("ours.realm").path
      let r = T.run(["create", ours, "--schema", schema, "--data", data, "--file-format", "\(format)"])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmsAnswers(ours, as: realms, format: format, "create")
    }
  }

  /// `insert` into a file Realm wrote extends Realm's own index.
  @Test(IndexAgreement.enabled, arguments: formats)
  func insertIntoRealmsFileExtendsItsIndex(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let realms = try Self.realmsFile(dir, "realm.realm", keys: Self.all, format: format)
      for split in [1, 9, 20] {
        let ours = try Self.realmsFile(dir, "half\(split).realm", keys: 0..<split, format: format)
        let rest = try T.write(Self.data(split..<Self.values.count), to: dir, as: "rest\(split).jsonl")
        let r = T.run(["insert", ours, rest])
        try #require(r.status == 0, "\(r.stderr)")
        try Self.expectRealmsAnswers(ours, as: realms, format: format, "insert after \(split) objects")
      }
    }
  }

  /// `update --set 'm = old.m'` rewrites the column and its index.
  @Test(IndexAgreement.enabled, arguments: formats)
  func updateRewritesTheIndexRealmsWay(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let realms = try Self.realmsFile(dir, "realm.realm", keys: Self.all, format: format)
      let ours = try Self.realmsFile(dir, "ours.realm", keys: Self.all, format: format)
      for (set, where_) in [("m = old.m", "TRUEPREDICATE"), ("m = old.m", "t > 5"), ("t = old.t", "t < 3")] {
        let r = T.run(["update", ours, "--class", "M", "--set", set, "--where", where_])
        try #require(r.status == 0, "\(r.stderr)")
        try Self.expectRealmsAnswers(ours, as: realms, format: format, "update --set '\(set)' --where '\(where_)'")
      }
    }
  }

  /// `delete` of one object keeps the others' entries as Realm has them.
  @Test(IndexAgreement.enabled, arguments: formats)
  func deleteKeepsRealmsIndex(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let last = Self.values.count - 1
      let realms = try Self.realmsFile(dir, "realm.realm", keys: 0..<last, format: format)
      let ours = try Self.realmsFile(dir, "ours.realm", keys: Self.all, format: format)
      let r = T.run(["delete", ours, "--class", "M", "--where", "t == \(last)"])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmsAnswers(ours, as: realms, format: format, "delete")
    }
  }

  /// `convert` between the formats writes each format's own order (Core 12 and 13 rank
  /// binaries with strings, Core 14 after them).
  @Test(IndexAgreement.enabled, arguments: [(24, 23), (23, 24), (24, 22), (22, 24), (23, 22)])
  func convertWritesTheTargetFormatsIndex(_ from: Int, _ to: Int) throws {
    try T.inScratchDirectory { dir in
      let realms = try Self.realmsFile(dir, "realm.realm", keys: Self.all, format: to)
      let ours = try Self.realmsFile(dir, "ours.realm", keys: Self.all, format: from)
      let r = T.run(["convert", ours, "--file-format", "\(to)"])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmsAnswers(ours, as: realms, format: to, "convert \(from) -> \(to)")
    }
  }

  /// A plan that indexes a `mixed` property builds the index Realm builds.
  @Test(IndexAgreement.enabled, arguments: formats)
  func planIndexingAMixedPropertyBuildsRealmsIndex(_ format: Int) throws {
    try T.inScratchDirectory { dir in
      let realms = try Self.realmsFile(dir, "realm.realm", keys: Self.all, format: format)
      let ours = try Self.realmsFile(dir, "ours.realm", keys: Self.all, format: format, indexed: false)
      let plan = try T.write("""
        {"schemaVersion": 0, "schema": [{"name": "M", "properties": {
          "m": {"type": "mixed", "indexed": true}, "t": "int"}}], "migrations": []}
        """, to: dir, as: "plan.json")
      let r = T.run(["migrate", ours, "--plan", plan])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmsAnswers(ours, as: realms, format: format, "migrate indexing m")
    }
  }

  /// realmctl's own answers (`dump --where`) on Realm's file are Realm's: an equality on an
  /// indexed `mixed` finds what the index lookup finds (the double 0.5, not the float 0.5).
  /// (Not `m == 'a'` on a format-23 file, where strings and binaries of the same bytes share
  /// a list in key order: Realm Core 14 finds the strings up to the first binary, realmctl
  /// every string; docs/file-formats.md.)
  @Test(IndexAgreement.enabled, arguments: [(24, true), (24, false), (23, true), (22, true)])
  func dumpWhereAnswersAsRealmOnRealmsFile(_ format: Int, _ indexed: Bool) throws {
    try T.inScratchDirectory { dir in
      let realms = try Self.realmsFile(dir, "realm.realm", keys: Self.all, format: format, indexed: indexed)
      let batch = Self.queries.filter { format >= 24 || !($0.contains("bin(") || $0.contains("'a'")) }
      let answers = try RealmOracle.core14.query(realms, batch.map { RealmOracle.Query("M", $0) })
      for (q, answer) in zip(batch, answers) {
        let r = T.run(["dump", realms, "--class", "M", "--where", q, "--keys-only"])
        expectEqual(r.status, 0, "\(q): \(r.stderr)")
        let keys = r.stdout.split(separator: "\n").compactMap { Int64($0) }
        expectEqual(.keys(keys), answer, "format \(format), indexed \(indexed): \(q)")
      }
    }
  }
}
