import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

/// Every timestamp realmctl stores is one Realm accepts (issue 27, item 3): seconds and
/// nanoseconds of the same sign, |nanoseconds| < 10^9. Instants before 1970 with a fraction
/// of a second, from every input, give Realm's answers to `u == T…` and `SORT(u ASC)`, and a
/// pair that is not a Realm timestamp is refused, naming its line and property, with nothing
/// written.
@Suite struct TimestampValidityTests {
  typealias T = CommandTestSupport

  static let schema = """
    {"schemaVersion": 0, "fileFormat": 24, "classes": [
     {"name": "D", "embedded": false, "primaryKey": null, "properties": [
       {"name": "u", "type": "date", "optional": true, "indexed": true},
       {"name": "v", "type": "date", "optional": false, "indexed": false},
       {"name": "m", "type": "mixed", "optional": true, "indexed": true},
       {"name": "n", "type": "int", "optional": false, "indexed": false}]}]}
    """

  /// Instants around 1970 with and without fractions, as the dump writes them.
  static let instants = [
    "1969-12-31T23:59:59.250000000Z", "1969-12-31T23:59:59.100000000Z", "1970-01-01T00:00:00.000000000Z",
    "1969-12-31T23:59:58.750000000Z", "1969-12-31T23:59:59.000000000Z", "1970-01-01T00:00:00.250000000Z",
    "1900-06-15T12:00:00.999999999Z", "1969-12-31T23:59:59.999999999Z",
  ]

  static func line(_ i: Int, _ text: String) -> String {
    let date = "{\"$date\":\"\(text)\"}"
    return "{\"$class\":\"D\",\"$key\":\(i),\"u\":\(date),\"v\":\(date),\"m\":\(date),\"n\":\(i)}"
  }

  static let data = instants.enumerated().map { line($0.offset, $0.element) }.joined(separator: "\n") + "\n"

  static let queries = [
    "TRUEPREDICATE SORT(u ASC)", "TRUEPREDICATE SORT(v DESC)", "u == T0:-750000000", "v == T0:-750000000",
    "m == T0:-750000000", "u < T0:-750000000", "v > T-1:-250000000", "u == T-1:-250000000", "m == T0:-900000000",
  ]

  /// Realm's own file of ``instants``.
  static func realmsFile(_ dir: URL) throws -> String {
    let schema = try T.write(schema, to: dir, as: "realm.schema.json")
    let data = try T.write(data, to: dir, as: "realm.jsonl")
    let path = dir.appendingPathComponent("realm.realm").path
    let r = try RealmOracle.core14.run(["create", "--schema", schema, "--version", "0", "--data", data, path])
    try #require(r.status == 0, "\(r.output)\(r.errorOutput)")
    return path
  }

  static func expectRealmsAnswers(_ ours: String, as realms: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let batch = queries.map { RealmOracle.Query("D", $0) }
    let expected = try RealmOracle.core14.query(realms, batch)
    let found = try RealmOracle.core14.query(ours, batch)
    for (i, q) in batch.enumerated() where found[i] != expected[i] {
      Issue.record("\(context): \(q.predicate): \(found[i]), on Realm's own file \(expected[i])", sourceLocation: sourceLocation)
    }
    try IndexAgreement.expectAgreement(ours, context, sourceLocation: sourceLocation)
  }

  /// The issue's example: `date('1969-12-31T23:59:59.25Z')` in an update, and the other
  /// text forms and numbers `date()` takes.
  @Test(IndexAgreement.enabled)
  func updateWithDateTextBefore1970GivesRealmsAnswers() throws {
    try T.inScratchDirectory { dir in
      let realms = try Self.realmsFile(dir)
      let ours = dir.appendingPathComponent("ours.realm").path
      try FileManager.default.copyItem(atPath: realms, toPath: ours)
      // Each object gets its instant back through date(): text with a fraction, with an
      // offset, and the seconds as a double.
      let text = "date(string(old.v))"
      // (Seconds as a double are exact for the instants within a few seconds of 1970.)
      for (set, where_, context) in [
        ("u = \(text)", "TRUEPREDICATE", "date(text)"), ("v = date(string(old.u))", "TRUEPREDICATE", "date(text) of a required date"),
        ("m = date(string(old.v))", "TRUEPREDICATE", "date(text) into mixed"),
        ("u = date(replace(string(old.v), 'Z', '+00:00'))", "TRUEPREDICATE", "date(text +00:00)"),
        ("v = date(double(old.u))", "n < 6", "date(double)"),
      ] {
        let r = T.run(["update", ours, "--class", "D", "--set", set, "--where", where_])
        try #require(r.status == 0, "\(context): \(r.stderr)")
        try Self.expectRealmsAnswers(ours, as: realms, context)
      }
      // The issue's own command: object 0 holds that instant already.
      let r = T.run(["update", ours, "--class", "D", "--set", "u = date('1969-12-31T23:59:59.25Z')", "--where", "n == 0"])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmsAnswers(ours, as: realms, "date('1969-12-31T23:59:59.25Z')")
    }
  }

  /// JSON Lines to `create` and `insert`, the text form and the `{"seconds","nanoseconds"}`
  /// form in Realm's shape.
  @Test(IndexAgreement.enabled)
  func jsonInputBefore1970GivesRealmsAnswers() throws {
    try T.inScratchDirectory { dir in
      let realms = try Self.realmsFile(dir)
      let schema = try T.write(Self.schema, to: dir, as: "schema.json")
      let data = try T.write(Self.data, to: dir, as: "data.jsonl")
      let created = dir.appendingPathComponent("created.realm").path
      var r = T.run(["create", created, "--schema", schema, "--data", data])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmsAnswers(created, as: realms, "create")
      // The pairs Realm keeps: -0.75 s is (0, -750000000).
      let pairs = Self.data.replacingOccurrences(
        of: "\"1969-12-31T23:59:59.250000000Z\"", with: "{\"seconds\":0,\"nanoseconds\":-750000000}")
      let inserted = dir.appendingPathComponent("inserted.realm").path
      let empty = try T.write("", to: dir, as: "empty.jsonl")
      r = T.run(["create", inserted, "--schema", schema, "--data", empty])
      try #require(r.status == 0, "\(r.stderr)")
      r = T.run(["insert", inserted, try T.write(pairs, to: dir, as: "pairs.jsonl")])
      try #require(r.status == 0, "\(r.stderr)")
      try Self.expectRealmsAnswers(inserted, as: realms, "insert")
    }
  }

  /// `{"$date": {"seconds": -1, "nanoseconds": 250000000}}` is not a Realm timestamp: refused
  /// with its line and property by `create`, `insert`, `insert --upsert` and CSV input;
  /// nothing is written.
  @Test func invalidPairsAreRefusedWithTheirLineAndProperty() throws {
    try T.inScratchDirectory { dir in
      let schema = try T.write(Self.schema, to: dir, as: "schema.json")
      let good = Self.line(0, "1970-01-01T00:00:00.000000000Z")
      let bad = "{\"$class\":\"D\",\"u\":null,\"v\":{\"$date\":{\"seconds\":-1,\"nanoseconds\":250000000}},\"m\":null,\"n\":1}"
      let data = try T.write(good + "\n" + bad + "\n", to: dir, as: "bad.jsonl")
      let created = dir.appendingPathComponent("created.realm").path
      var r = T.run(["create", created, "--schema", schema, "--data", data])
      #expect(r.status != 0)
      #expect(r.stderr.contains("line 2") && r.stderr.contains("v") && r.stderr.contains("different signs"), "\(r.stderr)")
      #expect(!T.exists(created))
      // insert and upsert: the file keeps its bytes.
      let path = dir.appendingPathComponent("a.realm").path
      r = T.run(["create", path, "--schema", schema, "--data", try T.write(good + "\n", to: dir, as: "good.jsonl")])
      try #require(r.status == 0, "\(r.stderr)")
      let before = try T.bytes(path)
      let mixed = "{\"$class\":\"D\",\"$key\":0,\"u\":null,\"v\":{\"$date\":\"1970-01-01T00:00:00.000000000Z\"},\"m\":{\"$date\":{\"seconds\":2,\"nanoseconds\":-5}},\"n\":1}"
      for (args, line, property) in [
        (["insert", path, data], "line 2", "v"),
        (["insert", path, try T.write(mixed + "\n", to: dir, as: "mixed.jsonl"), "--upsert"], "line 1", "m"),
      ] {
        r = T.run(args)
        #expect(r.status != 0, "\(args)")
        #expect(r.stderr.contains(line) && r.stderr.contains("'\(property)'") || r.stderr.contains("\(property):"), "\(args): \(r.stderr)")
        #expect(r.stderr.contains("different signs"), "\(args): \(r.stderr)")
        #expect(TestFiles.same(try T.bytes(path), before), "\(args)")
      }
      // CSV: a mixed cell holding the pair.
      let csv = try T.write("u,v,m,n\n,1970-01-01T00:00:00Z,\"{\"\"$date\"\":{\"\"seconds\"\":-1,\"\"nanoseconds\"\":250000000}}\",3\n", to: dir, as: "bad.csv")
      r = T.run(["insert", path, csv, "--class", "D"])
      #expect(r.status != 0)
      #expect(r.stderr.contains("different signs"), "\(r.stderr)")
      #expect(TestFiles.same(try T.bytes(path), before))
    }
  }

  /// A plan's `default` for a new date property is checked the same way.
  @Test func invalidDefaultIsRefused() throws {
    try T.inScratchDirectory { dir in
      let schema = try T.write(Self.schema, to: dir, as: "schema.json")
      let path = dir.appendingPathComponent("a.realm").path
      var r = T.run(["create", path, "--schema", schema, "--data", try T.write(Self.data, to: dir, as: "data.jsonl")])
      try #require(r.status == 0, "\(r.stderr)")
      let before = try T.bytes(path)
      let plan = try T.write("""
        {"schemaVersion": 1, "schema": [{"name": "D", "properties": {"u": {"type": "date", "optional": true, "indexed": true},
          "v": "date", "m": {"type": "mixed", "indexed": true}, "n": "int",
          "w": {"type": "date", "default": {"$date": {"seconds": 5, "nanoseconds": -1}}}}}],
         "migrations": []}
        """, to: dir, as: "plan.json")
      r = T.run(["migrate", path, "--plan", plan])
      #expect(r.status != 0)
      #expect(r.stderr.contains("w") && r.stderr.contains("different signs"), "\(r.stderr)")
      #expect(TestFiles.same(try T.bytes(path), before))
    }
  }
}
