import Foundation
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

import RealmJSON
@testable import RealmExport

/// Feeds a fixture dump (decoded with the canonical decoder) through a writer.
func runWriter(
  _ format: DumpFormat, fixture: String, classes: [String]? = nil, limit: Int = .max,
  width: Int = 100
) throws -> String {
  let schema = try SchemaJSON.decode(try Fixtures.bytes("\(fixture)/schema.json"))
  let decoder = CanonicalDecoder(schema: schema)
  var objects: [DecodedObject] = []
  var n = 0
  for line in TestFiles.lines(try Fixtures.bytes("\(fixture)/dump.jsonl")) {
    n += 1
    objects.append(try decoder.decodeLine(Array(line), line: n))
  }
  var output: [UInt8] = []
  var chunks = 0
  var writer = format.makeWriter(
    sink: {
      output += $0
      chunks += 1
    }, terminalWidth: width)
  try writer.begin(schema: schema)
  for cls in schema.classes where !cls.isEmbedded && (classes?.contains(cls.name) ?? true) {
    try writer.beginClass(cls)
    for o in objects.filter({ $0.className == cls.name }).prefix(limit) {
      try writer.writeObject(key: o.key ?? 0, values: o.values)
    }
    try writer.endClass()
  }
  try writer.finish()
  return String(decoding: output, as: UTF8.self)
}

@Suite struct DumpWriterTests {
  @Test func jsonlIsTheCanonicalDump() throws {
    for fixture in ["alltypes", "embedded", "nested-links", "strings"] {
      let out = try runWriter(.jsonl, fixture: fixture)
      #expect(
        out == String(decoding: try Fixtures.bytes("\(fixture)/dump.jsonl"), as: UTF8.self),
        "\(fixture)")
    }
  }

  @Test func jsonIsOnePrettyDocumentOfTheSameObjects() throws {
    let out = try runWriter(.json, fixture: "embedded")
    let doc = try JSONParser.parse(out)
    guard case .object(let groups) = doc else {
      Issue.record("not an object")
      return
    }
    let schema = try SchemaJSON.decode(try Fixtures.bytes("embedded/schema.json"))
    expectEqual(groups.map(\.key), schema.classes.filter { !$0.isEmbedded }.map(\.name))
    // Flattened, the groups are exactly the JSON Lines dump.
    var lines: [UInt8] = []
    for g in groups {
      guard case .array(let objects) = g.value else { continue }
      for o in objects {
        var w = JSONWriter()
        w.value(o)
        lines += w.buffer + [0x0A]
      }
    }
    #expect(
      DumpComparison.compareDumps(
        expected: try Fixtures.bytes("embedded/dump.jsonl"), actual: lines,
        schema: try Fixtures.bytes("embedded/schema.json")) == [])
    #expect(
      out.hasPrefix(
        "{\n  \"Contact\": [\n    {\n      \"$class\": \"Contact\",\n      \"$key\": 0,\n"))
    #expect(out.contains(#""_id": {"$oid":"650000000000000000000000"}"#))
  }

  @Test func jsonOfEveryValueKindParsesBackToTheCanonicalObjects() throws {
    for fixture in ["alltypes", "nested-links"] {
      let out = try runWriter(.json, fixture: fixture, limit: 40)
      guard case .object(let groups) = try JSONParser.parse(out) else {
        Issue.record("\(fixture): not an object")
        continue
      }
      let expected = try Fixtures.bytes("\(fixture)/dump.jsonl").split(separator: 0x0A)
      var lines = 0
      for g in groups {
        guard case .array(let objects) = g.value else { continue }
        for o in objects {
          var w = JSONWriter()
          w.value(o)
          let match = expected.contains { $0.elementsEqual(w.buffer) }
          #expect(match, "\(fixture): \(String(decoding: w.buffer.prefix(120), as: UTF8.self))")
          lines += 1
        }
      }
      #expect(lines > 0)
    }
  }

  @Test func csvHasAHeaderAndQuotesPerRFC4180() throws {
    let out = try runWriter(.csv, fixture: "embedded", classes: ["Contact"], limit: 2)
    let rows = out.components(separatedBy: "\r\n")
    expectEqual(rows[0], "$key,_id,name,address,phones,previous,byLabel")
    expectEqual(rows[1], "0,650000000000000000000000,Ada Lovelace,,[],[],{}")
    #expect(
      rows[2].hasPrefix(
        #"1,6500000000000000000003d1,Alan Turing,"{""$class"":""Address"",""street"":""10 Backus Street"","#
      ))
    expectEqual(rows.last, "")
    expectEqual(rows.count, 4)
  }

  @Test func csvRefusesSeveralClasses() throws {
    #expect(throws: DumpOutputError.self) { try runWriter(.csv, fixture: "nested-links") }
  }

  @Test func csvKeepsEmptyStringsApartFromNull() throws {
    let cls = ObjectSchema(
      name: "S",
      properties: [
        Property(name: "a", type: .string, isOptional: true), Property(name: "b", type: .double),
        Property(name: "c", type: .mixed, isOptional: true),
      ])
    var output: [UInt8] = []
    var w = CSVDumpWriter(sink: { output += $0 })
    try w.begin(schema: Schema(schemaVersion: nil, fileFormat: 24, classes: [cls]))
    try w.beginClass(cls)
    try w.writeObject(key: 1, values: [.string(""), .double(.nan), .string("x,\"y\"\nz")])
    try w.writeObject(key: 2, values: [.null, .double(-0.0), .list([.double(1)])])
    try w.endClass()
    try w.finish()
    #expect(
      String(decoding: output, as: UTF8.self)
        == "$key,a,b,c\r\n1,\"\",NaN,\"x,\"\"y\"\"\nz\"\r\n2,,-0.0,\"[{\"\"$double\"\":1}]\"\r\n")
  }

  @Test func tableFitsTheTerminalWidth() throws {
    for width in [40, 80, 120] {
      let out = try runWriter(.table, fixture: "alltypes", limit: 60, width: width)
      for line in out.split(separator: "\n") {
        #expect(DisplayWidth.of(String(line)) <= width, "\(width): \(line)")
      }
      #expect(out.contains("(60 objects)"))
    }
  }

  @Test func tableShowsValuesForPeople() throws {
    let out = try runWriter(.table, fixture: "embedded", classes: ["Contact"], limit: 3, width: 200)
    let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    expectEqual(lines[0], "Contact")
    #expect(lines[1].hasPrefix("$key │ _id                      │ name         │ address"))
    #expect(lines[2].hasPrefix("─────┼──────────────────────────┼──────────────┼─"))
    #expect(lines[3].hasPrefix("   0 │ 650000000000000000000000 │ Ada Lovelace │ null"))
    #expect(
      lines[4].contains(
        #"│ Address{street: "10 Backus Street"… │ [Phone{kind: "home", number: "+47 … │"#))
    expectEqual(lines[6], "(3 objects)")
  }

  @Test func tableLeavesOutColumnsThatDoNotFit() throws {
    let out = try runWriter(.table, fixture: "alltypes", limit: 3, width: 120)
    let lines = out.split(separator: "\n").map(String.init)
    expectEqual(lines[0], "AllTypes  (8 of 94 columns shown; the others do not fit in 120 columns)")
    #expect(
      lines[1]
        == "$key │ _id                  │ bool_req │ bool_opt │ int_req     │ int_opt │ float_req      │ float_opt"
    )
    // Int64 extremes are never cut.
    #expect(lines[3].hasPrefix("   0 │ -9223372036854775808 │ true     │ null     │"))
    #expect(lines[4].hasPrefix("   1 │  9223372036854775807 │ false    │ true     │"))
    #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
  }

  @Test func tableShrinksTheWidestColumnsFirst() {
    // Separators take 3 columns each.
    #expect(
      TableDumpWriter.layout(natural: [4, 40, 10], minimum: [4, 10, 10], total: 40) == [4, 20, 10])
    #expect(
      TableDumpWriter.layout(natural: [4, 40, 10], minimum: [4, 10, 10], total: 100) == [4, 40, 10])
    // Columns that do not fit at their minimum are left out from the right.
    #expect(
      TableDumpWriter.layout(natural: [20, 30, 30], minimum: [20, 10, 10], total: 40) == [20, 17])
    expectEqual(TableDumpWriter.layout(natural: [30], minimum: [20], total: 10), [20])
  }
}
