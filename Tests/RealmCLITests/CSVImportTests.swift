import Foundation
import RealmJSON
import RealmMigration
import RealmTestSupport
import Testing
import RealmEdit

/// CSV into realms: `insert --class` and `create --data x.csv --class`, the reverse of
/// `dump --format csv`; results checked against Realm's dumps and Realm Core.
@Suite struct CSVImportTests {
  typealias T = CommandTestSupport
  typealias E = EditCommandTests

  /// `text` without the column `name` (CSV written back with every field quoted).
  static func droppingColumn(_ name: String, from text: String) throws -> String {
    let records = try CSVParser.records(Array(text.utf8))
    let drop = try #require(records.first?.fields.firstIndex { $0.text == name })
    return records.map { r in
      r.fields.enumerated().filter { $0.offset != drop }.map { f -> String in
        f.element.text.isEmpty && !f.element.quoted ? "" : "\"" + f.element.text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      }.joined(separator: ",")
    }.joined(separator: "\r\n") + "\r\n"
  }

  @Test func csvDumpsOfEveryClassInsertedIntoAnEmptyFileGiveTheSameObjects() throws {
    // alltypes: every property type, links (AllTypes -> Target) and embedded objects in cells.
    // A single mixed value's cell is plain text, which does not say its type (the string "5"
    // and the integer 5 look alike), so that column is left out: it reads as null.
    try T.withCopy(of: "alltypes/before.realm", as: "a.realm") { original, dir in
      let empty = try E.emptyFile("alltypes", in: dir)
      for cls in ["Target", "AllTypes"] {
        let csv = T.run(["dump", original, "--format", "csv", "--class", cls])
        expectEqual(csv.status, 0)
        let text = cls == "AllTypes" ? try Self.droppingColumn("mixed_val", from: csv.stdout) : csv.stdout
        let path = try T.write(text, to: dir, as: "\(cls).csv")
        let r = T.run(["insert", empty, path, "--class", cls])
        expectEqual(r.status, 0, "\(cls): \(r.stderr.prefix(500))")
      }
      let expected = try E.fixtureDump("alltypes").map { o in
        o["$class"] == .string("AllTypes") ? E.replacing(o, "mixed_val", with: .null) : o
      }
      try E.expectFile(empty, equals: expected, schema: "alltypes")
    }
  }

  @Test func createReadsSeveralCSVAndJSONLinesFiles() throws {
    try T.withCopy(of: "alltypes/before.realm", as: "a.realm") { original, dir in
      let schema = try T.copy("alltypes/schema.json", to: dir, as: "schema.json")
      let all = try E.fixtureDump("alltypes").map { o in
        o["$class"] == .string("AllTypes") ? E.replacing(o, "mixed_val", with: .null) : o
      }
      let targets = try T.write(E.text(all.filter { $0["$class"] == .string("Target") }), to: dir, as: "targets.jsonl")
      let csv = try T.write(
        try Self.droppingColumn("mixed_val", from: T.run(["dump", original, "--format", "csv", "--class", "AllTypes"]).stdout),
        to: dir, as: "all.csv")
      let out = dir.appendingPathComponent("new.realm").path
      let r = T.run(["create", out, "--schema", schema, "--data", targets, "--data", csv, "--class", "AllTypes"])
      expectEqual(r.status, 0, "\(r.stderr)")
      try E.expectFile(out, equals: all, schema: "alltypes")
      let noClass = T.run(["create", dir.appendingPathComponent("x.realm").path, "--schema", schema, "--data", csv])
      expectEqual(noClass.status, 64)
    }
  }

  @Test func quotesEscapedQuotesCRLFAndLineBreaksInFields() throws {
    try T.inScratchDirectory { dir in
      let file = try E.emptyFile("user-tutorial", in: dir)
      let csv = "\u{FEFF}name,age\r\n\"Smith, \"\"Jo\"\"\",30\r\n\"Two\nLines\",7\r\n\"\",6\nZoe,5"
      let path = try T.write(csv, to: dir, as: "people.csv")
      let r = T.run(["insert", file, path, "--class", "User"])
      expectEqual(r.status, 0, "\(r.stderr)")
      let expected = try E.lines(
        """
        {"$class":"User","$key":0,"name":"Smith, \\"Jo\\"","age":30}
        {"$class":"User","$key":1,"name":"Two\\nLines","age":7}
        {"$class":"User","$key":2,"name":"","age":6}
        {"$class":"User","$key":3,"name":"Zoe","age":5}
        """)
      try E.expectFile(file, equals: expected, schema: "user-tutorial")
    }
  }

  @Test(
    "malformed CSV and bad cells are refused naming the row and column",
    arguments: [
      ("name,age\nA,1\nB,2,3\n", "row 3: malformed CSV (line 3): the row has 3 fields, the header 2"),
      ("name,age\nA,x\n", "row 2: column 'age': expected an integer, found 'x'"),
      ("name,age\nA,\"1\n", "row 2: malformed CSV (line 2): a quoted field (column 2) is not closed"),
      ("name,age\nA\"b,1\n", "row 2: malformed CSV (line 2): a quote inside unquoted column 1"),
      ("name,age\n\"Ab\"x,1\n", "row 2: malformed CSV (line 2): text after the closing quote of column 1"),
      ("name,agee\nAb,1\n", "row 1: column 2: class 'User' has no property 'agee' (did you mean 'age'?)"),
      ("name,age,name\nAb,1,c\n", "row 1: column 3 repeats 'name'"),
      ("name,age\n,4\n", "row 2: column 'name': expected a string, found null"),
      ("name\nAb\n", "row 2: User.age: the property is required and has no value"),
    ])
  func malformedCSVIsRefused(_ csv: String, _ message: String) throws {
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, dir in
      let path = try T.write(csv, to: dir, as: "bad.csv")
      let stderr = try E.expectRefused(["insert", file, path, "--class", "User"], file: file)
      #expect(stderr.contains("'\(path)' \(message)"), "\(stderr)")
    }
  }
}
