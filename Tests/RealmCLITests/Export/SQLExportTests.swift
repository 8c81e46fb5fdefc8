import Foundation
import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing
import RealmExport

/// `dump --format sql` beyond the fixtures: names that are SQL keywords or collide, `--class`,
/// partial exports, and values at the edges of SQLite (docs/sql-export.md).
@Suite(ExternalTool.required(ExternalTool.sqlite3, "sqlite3"))
struct SQLExportTests {
  typealias Support = CommandTestSupport

  /// A Realm file made with `create` from a schema and data (canonical JSON Lines).
  static func makeRealm(schema: String, data: String, in dir: URL) throws -> String {
    let schemaPath = try Support.write(schema, to: dir, as: "schema.json")
    let dataPath = try Support.write(data, to: dir, as: "data.jsonl")
    let out = dir.appendingPathComponent("made.realm").path
    let run = Support.run(["create", out, "--schema", schemaPath, "--data", dataPath])
    try #require(run.status == 0, "\(run.stderr)")
    return out
  }

  /// Exports `path` (with `extra` options), loads it, reads it back; checks the load and the
  /// foreign keys, and returns the round trip and the script.
  static func export(_ path: String, _ extra: [String] = [], classNames: [String]? = nil) throws
    -> (SQLiteRoundTrip, String)
  {
    let run = CommandRun(["dump", path, "--format", "sql"] + extra)
    try #require(run.status == 0, "\(run.errors)")
    let schema = try RealmFile.open(path: path).group.schema()
    let plan = SQLExportPlan(schema: schema, classNames: classNames)
    let trip = try SQLiteRoundTrip.load(
      script: run.output, plan: plan, schema: schema, sqlite3: try #require(ExternalTool.sqlite3))
    #expect(trip.errors.isEmpty, "sqlite3: \(trip.errors.prefix(1000))")
    return (trip, run.text)
  }

  /// Rebuilds the objects from the tables and compares them with realmctl's own dump of the
  /// file (for the classes in `classNames`, all when nil).
  static func expectSameObjects(_ trip: inout SQLiteRoundTrip, as path: String, classNames: [String]? = nil)
    throws
  {
    let schema = try RealmFile.open(path: path).group.schema()
    var expected = try RealmDumper.dumpJSONL(path)
    if let classNames {
      expected = expected.split(separator: 0x0A).filter { line in
        classNames.contains { name in
          line.starts(with: Array("{\"$class\":".utf8) + JSONWriter.encodedKey(name).dropLast() + [UInt8(ascii: ",")])
        }
      }.flatMap { Array($0) + [0x0A] }
    }
    let rebuilt = trip.canonicalDump()
    #expect(trip.problems.isEmpty, "\(trip.problems.prefix(10))")
    let problems = DumpComparison.compareDumps(
      expected: try SQLiteRoundTrip.asStoredBySQLite(expected, schema: schema), actual: rebuilt,
      schema: SchemaJSON.encode(schema))
    #expect(problems.isEmpty, "\(problems.prefix(5).joined(separator: "\n"))")
  }

  static let oddSchema = """
    {"schemaVersion": 3, "fileFormat": 24, "classes": [
     {"name": "Address", "embedded": true, "primaryKey": null, "properties": [
       {"name": "street", "type": "string", "optional": false, "indexed": false},
       {"name": "geo", "type": "object", "objectType": "Geo", "optional": true, "indexed": false},
       {"name": "history", "type": "list", "objectType": "Geo", "optional": false, "indexed": false}]},
     {"name": "Geo", "embedded": true, "primaryKey": null, "properties": [
       {"name": "lat", "type": "double", "optional": false, "indexed": false}]},
     {"name": "Person", "embedded": false, "primaryKey": null, "properties": [
       {"name": "name", "type": "string", "optional": false, "indexed": true},
       {"name": "home", "type": "object", "objectType": "Address", "optional": true, "indexed": false},
       {"name": "friend", "type": "object", "objectType": "person", "optional": true, "indexed": false}]},
     {"name": "order", "embedded": false, "primaryKey": "select", "properties": [
       {"name": "select", "type": "string", "optional": false, "indexed": true},
       {"name": "_key", "type": "int", "optional": false, "indexed": false},
       {"name": "Name", "type": "string", "optional": false, "indexed": false},
       {"name": "name", "type": "string", "optional": true, "indexed": false},
       {"name": "first \\"name\\"", "type": "string", "optional": false, "indexed": false},
       {"name": "m", "type": "mixed", "optional": true, "indexed": false},
       {"name": "m_type", "type": "string", "optional": false, "indexed": false},
       {"name": "group", "type": "list", "objectType": "int", "optional": false, "indexed": false},
       {"name": "where", "type": "object", "objectType": "Person", "optional": true, "indexed": false},
       {"name": "addresses", "type": "dictionary", "objectType": "Address", "optional": true, "indexed": false},
       {"name": "tags", "type": "set", "objectType": "string", "optional": true, "indexed": false}]},
     {"name": "order.group", "embedded": false, "primaryKey": null, "properties": [
       {"name": "x", "type": "int", "optional": false, "indexed": false}]},
     {"name": "person", "embedded": false, "primaryKey": null, "properties": [
       {"name": "nick", "type": "string", "optional": true, "indexed": false}]},
     {"name": "sqlite_master", "embedded": false, "primaryKey": null, "properties": [
       {"name": "sql", "type": "string", "optional": false, "indexed": false}]}
    ]}
    """

  static let oddData = """
    {"$class":"Person","$key":0,"name":"Ada","home":{"$class":"Address","street":"1 Main St","geo":{"$class":"Geo","lat":1.5},"history":[{"$class":"Geo","lat":2.5},{"$class":"Geo","lat":-0.0}]},"friend":{"$ref":"person","$key":0}}
    {"$class":"Person","$key":1,"name":"Bob","home":null,"friend":null}
    {"$class":"order","$key":0,"select":"a","_key":7,"Name":"N","name":null,"first \\"name\\"":"x'); DROP TABLE \\"order\\"; --","m":{"$ref":"Person","$key":1},"m_type":"text","group":[3,1,2],"where":{"$ref":"Person","$key":0},"addresses":{"home":{"$class":"Address","street":"2 Side St","geo":null,"history":[{"$class":"Geo","lat":3.5}]},"none":null},"tags":["x","y",null]}
    {"$class":"order","$key":1,"select":"b","_key":8,"Name":"M","name":"m","first \\"name\\"":"","m":[1,{"k":{"$ref":"order","$key":0}}],"m_type":"","group":[],"where":null,"addresses":{},"tags":[]}
    {"$class":"order.group","$key":0,"x":1}
    {"$class":"person","$key":0,"nick":"bo"}
    {"$class":"sqlite_master","$key":0,"sql":"SELECT 1"}
    """

  @Test func namesThatAreKeywordsOrCollideAreQuotedAndMadeUnique() throws {
    try Support.inScratchDirectory { dir in
      let path = try Self.makeRealm(schema: Self.oddSchema, data: Self.oddData, in: dir)
      var (trip, script) = try Self.export(path)
      #expect(trip.foreignKeyProblems.isEmpty, "\(trip.foreignKeyProblems)")
      try Self.expectSameObjects(&trip, as: path)
      let plan = trip.plan
      let names = plan.tables.map(\.name)
      // Class tables keep their names; the one SQLite reserves gets a '_'; child tables that
      // meet a class of the same name, or classes differing in case, take a suffix.
      #expect(names.contains("order") && names.contains("Person") && names.contains("_sqlite_master"))
      #expect(names.contains("order.group") && names.contains("order.group_2"))
      #expect(names.contains("person_2"))
      let order = try #require(plan.tables.first { $0.name == "order" })
      // Properties keep their names; the generated key and type columns move around them.
      #expect(
        order.columns.map(\.name) == [
          "_key_2", "select", "_key", "Name", "name_2", "first \"name\"", "m", "m_type_2", "m_type", "where",
        ])
      // Address is held by Person and by order: one parent column for each.
      let address = try #require(plan.tables.first { $0.name == "Address" })
      expectEqual(address.columns.prefix(4).map(\.name), ["_key", "_parent_Person", "_parent_order", "_parent_property"])
      expectEqual(script.contains("CREATE TABLE \"first \"\"name\"\"\""), false)
      #expect(script.contains("\"first \"\"name\"\"\" TEXT NOT NULL"))
      #expect(script.contains("'x''); DROP TABLE \"order\"; --'"))
    }
  }

  @Test func classOptionExportsOneClassWithItsEmbeddedClasses() throws {
    let path = fixturePath("format-samples/v24_commit.realm")
    var (trip, script) = try Self.export(path, ["--class", "AllTypes"], classNames: ["AllTypes"])
    #expect(trip.foreignKeyProblems.isEmpty, "\(trip.foreignKeyProblems)")
    try Self.expectSameObjects(&trip, as: path, classNames: ["AllTypes"])
    expectEqual(trip.plan.topLevelClasses, ["AllTypes"])
    #expect(trip.plan.classes["Embedded"] != nil)
    expectEqual(trip.plan.classesLeftOut, ["Target"])
    #expect(script.contains("-- Not exported: Target (links to their objects keep the key, without a foreign key)."))
    #expect(script.contains("\"link\" INTEGER, -- Target (class not exported: no foreign key)"))
    #expect(!script.contains("CREATE TABLE \"Target\""))
  }

  @Test func anEmbeddedClassIsExportedWithTheClassesThatHoldIt() {
    let run = CommandRun(["dump", fixturePath("embedded/before.realm"), "--format", "sql", "--class", "Geo"])
    expectEqual(run.status, 65)
    #expect(run.output.isEmpty)
    #expect(
      run.errors.contains(
        "class 'Geo' is embedded: the SQL export writes its objects with those of the classes that hold them (--class Contact)"))
  }

  @Test func partialExportsSayThatLinksMayNameObjectsLeftOut() throws {
    let path = fixturePath("format-samples/v24_commit.realm")
    let (trip, script) = try Self.export(path, ["--limit", "1"])
    #expect(script.contains("-- Only some objects were exported (--limit, --offset or --where)"))
    expectEqual(trip.rows[trip.plan.classes["Big"]!.table].count, 1)
    let full = CommandRun(["dump", path, "--format", "sql"])
    #expect(!full.text.contains("Only some objects"))
  }

  /// Doubles that SQLite 3.40 misreads in their shortest form, extremes, dates outside
  /// SQLite's years, strings SQL text cannot hold as they are.
  static let edgeSchema = """
    {"schemaVersion": 1, "fileFormat": 24, "classes": [
     {"name": "V", "embedded": false, "primaryKey": null, "properties": [
       {"name": "d", "type": "double", "optional": true, "indexed": false},
       {"name": "f", "type": "float", "optional": true, "indexed": false},
       {"name": "i", "type": "int", "optional": true, "indexed": false},
       {"name": "s", "type": "string", "optional": true, "indexed": false},
       {"name": "t", "type": "date", "optional": true, "indexed": false},
       {"name": "m", "type": "mixed", "optional": true, "indexed": false}]}]}
    """

  static var edgeData: String {
    // Parsed at run time: the compiler's own conversion of literals is not always correctly
    // rounded (it reads 9619.019002 one unit in the last place off).
    var doubles: [Double] = [
      "9619.019002", "9.2156630561e+33", "84.05053049152", "466.373024666389", "0.06660108", "5.462641e-05",
      "8.9437e+25", "0.0565886138922253", "4.62859947715e-10", "6.92566106134e-06", "0.1", "0.30000000000000004",
      "-2.2606631148481385e-299", "1.829402849984213e-298", "5e-324", "2.2250738585072014e-308",
      "1.7976931348623157e308", "-1.7976931348623157e308", "1e22", "1e300", "123456.0",
    ].map { Double($0)! }
    doubles += [0x1p53 + 2, 0x1p62, -0x1p63, .infinity, -.infinity, -0.0]
    var random = SeededRandom(seed: 11)
    for _ in 0..<300 {
      let d = Double(bitPattern: random.next())
      if d.isFinite { doubles.append(d) }
    }
    let floats: [Float] = [0.1, .leastNonzeroMagnitude, 3.4028235e38, 16_777_216, 0.3, -7.5, 1.1754944e-38]
    let dates: [(Int64, Int32)] = [
      (-62_167_219_200, 0), (-62_167_219_201, -1), (253_402_300_800, 123_456_789), (1_700_000_000, 999_999_999),
      (-1, -500_000_000), (Int64.min, -999_999_999), (Int64.max, 999_999_999),
    ]
    var lines: [String] = []
    var key = 0
    func line(_ members: String) {
      lines.append("{\"$class\":\"V\",\"$key\":\(key),\(members)}")
      key += 1
    }
    func json(_ d: Double) -> String {
      if d.isNaN { return "{\"$double\":\"NaN\"}" }
      if d.isInfinite { return d < 0 ? "{\"$double\":\"-Infinity\"}" : "{\"$double\":\"Infinity\"}" }
      return d == 0 && d.sign == .minus ? "-0.0" : "\(d)"
    }
    for d in doubles + [.nan] {
      let mixed = d.isFinite ? "{\"$double\":\(json(d))}" : json(d)
      line("\"d\":\(json(d)),\"f\":null,\"i\":null,\"s\":null,\"t\":null,\"m\":\(mixed)")
    }
    for f in floats {
      line("\"d\":null,\"f\":\(f),\"i\":null,\"s\":null,\"t\":null,\"m\":{\"$float\":\(f)}")
    }
    for i in [Int64.min, Int64.max, 0, -1] {
      line("\"d\":null,\"f\":null,\"i\":\(i),\"s\":null,\"t\":null,\"m\":\(i)")
    }
    for s in ["a\\u0000b", "it's", "line\\nbreak\\r\\n", "\\u0000", "😀 e\\u0301", "; SELECT 1; --", ""] {
      line("\"d\":null,\"f\":null,\"i\":null,\"s\":\"\(s)\",\"t\":null,\"m\":\"\(s)\"")
    }
    for (s, ns) in dates {
      let date = "{\"$date\":{\"seconds\":\(s),\"nanoseconds\":\(ns)}}"
      line("\"d\":null,\"f\":null,\"i\":null,\"s\":null,\"t\":\(date),\"m\":\(date)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func edgeValuesReadBackExactly() throws {
    try Support.inScratchDirectory { dir in
      let path = try Self.makeRealm(schema: Self.edgeSchema, data: Self.edgeData, in: dir)
      var (trip, script) = try Self.export(path)
      try Self.expectSameObjects(&trip, as: path)
      let table = trip.plan.tables[trip.plan.classes["V"]!.table]
      let d = table.columns.firstIndex { $0.name == "d" }!
      let m = table.columns.firstIndex { $0.name == "m" }!
      let rows = trip.rows[trip.plan.classes["V"]!.table]
      // Bit for bit, whatever SQLite's conversion does with the decimals.
      #expect(rows.contains { $0[d] == .real(Double("9619.019002")!) })
      #expect(rows.contains { $0[d] == .text(Array("NaN".utf8)) })
      #expect(rows.contains { $0[d] == .real(.infinity) } && rows.contains { $0[d] == .real(-.infinity) })
      // SQLite keeps a negative zero only where the column has no REAL affinity (mixed).
      let negativeZero = rows.first { row in
        if case .real(let v) = row[m] { return v == 0 && v.sign == .minus }
        return false
      }
      #expect(negativeZero != nil)
      #expect(script.contains("CAST(X'610062' AS TEXT)"))
      #expect(script.contains("'0000-01-01T00:00:00.000000000Z'"))
      #expect(script.contains("'-0001-12-31T23:59:58.999999999Z'"))
      #expect(script.contains("'+10000-01-01T00:00:00.123456789Z'"))
    }
  }

  @Test func shellSQLModePrintsWhatDumpPrints() throws {
    let result = try ShellTests.script([".mode sql", "User WHERE age > 95"])
    let dump = CommandTestSupport.run([
      "dump", ShellTests.tutorial, "--format", "sql", "--class", "User", "--where", "age > 95",
    ])
    expectEqual(result.stdout, dump.stdout)
    #expect(result.stdout.contains("-- Only some objects were exported"))
    #expect(result.stdout.hasSuffix("COMMIT;\n"))
  }

  @Test func sqliteDateFunctionsReadTheDates() throws {
    let path = fixturePath("alltypes/before.realm")
    let run = CommandRun(["dump", path, "--format", "sql", "--limit", "3"])
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("realmctl-dates-\(UUID().uuidString).sql")
    try Data(run.output + Array("""
      SELECT _key, date_req, datetime(date_req), strftime('%Y-%m-%dT%H:%M:%fZ', date_req), unixepoch(date_req)
      FROM "AllTypes" ORDER BY _key;

      """.utf8)).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = try #require(ExternalTool.sqlite3).run([":memory:"], input: url)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    let dump = try RealmDumper.dumpJSONL(path).split(separator: 0x0A).prefix(3).map {
      try JSONParser.parse(Array($0))
    }
    expectEqual(lines.count, 3)
    for (line, object) in zip(lines, dump) {
      let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
      guard case .string(let text)? = object["date_req"]?["$date"], let t = Timestamp(text: text) else {
        // Dates outside years 1-9999 have no text form; SQLite's functions give NULL for them.
        #expect(fields[2].isEmpty)
        continue
      }
      expectEqual(fields[1], text, "the stored text is the canonical date")
      expectEqual(fields[3], String(text.prefix(23)) + "Z", "milliseconds, as SQLite computes them")
      let floored = t.flooredSecondsAndNanoseconds!.seconds
      expectEqual(fields[4], String(floored))
    }
  }
}
