import Foundation
import RealmCLI
import RealmJSON
import RealmTestSupport
import Testing

/// Issue 28's stumbles of a newcomer's first hour, one test each: table output never cuts an
/// object key, a query error is one line and the same exit code as a misspelled class, and
/// `dump --where` without `--class` filters the classes that have what the query names.
@Suite struct NewcomerStumbleTests {
  typealias T = CommandTestSupport
  static let tutorial = fixturePath("user-tutorial/before.realm")

  @Test func tableOutputNeverCutsAnObjectKey() throws {
    // User's first 50 keys (the rows that size the columns) have 1 or 2 digits; the key
    // inserted after them has 11, and the terminal is narrow.
    try T.withCopy(of: "user-tutorial/before.realm", as: "a.realm") { file, dir in
      let data = try T.write(#"{"$class": "User", "$key": 12345678901, "name": "Zed", "age": 3}"# + "\n", to: dir, as: "z.jsonl")
      let inserted = T.run(["insert", file, data])
      try #require(inserted.status == 0, "\(inserted.stderr)")
      let run = CommandRun(["dump", file, "--format", "table"], terminal: Terminal(isStandardOutputTerminal: true, width: 30))
      expectEqual(run.status, 0, "\(run.errors)")
      let lines = run.text.split(separator: "\n").map(String.init)
      let row = try #require(lines.first { $0.contains("Zed") }, "\(run.text)")
      #expect(row.hasPrefix("12345678901 "), "\(row)")
      // Every key of the class is printed whole, right-aligned in one column.
      let keyRows = lines.filter { $0.first?.isNumber == true || $0.first == " " }
      #expect(keyRows.allSatisfy { !$0.prefix(11).contains("…") }, "\(keyRows.prefix(3))")
    }
  }

  @Test func aQueryErrorIsOneLineAndADataErrorLikeAMisspelledClass() {
    let property = CommandRun(["dump", Self.tutorial, "--class", "User", "--where", "agee > 3"])
    expectEqual(property.status, 65)
    expectEqual(property.errors, "Error: --where: column 1: 'User' has no property 'agee' (did you mean 'age'?)\n", "\(property.errors)")
    #expect(!property.errors.contains("Usage:") && !property.errors.contains("Help:"))
    let cls = CommandRun(["dump", Self.tutorial, "--class", "Usr"])
    expectEqual(cls.status, property.status)
    #expect(!cls.errors.contains("Usage:"))
    // A real usage error keeps its usage line.
    let usage = CommandRun(["dump", Self.tutorial, "--limt", "3"])
    expectEqual(usage.status, 64)
    #expect(usage.errors.contains("Usage: realmctl dump"), "\(usage.errors)")
  }

  @Test func whereWithoutClassFiltersTheClassesThatHaveWhatItNames() throws {
    // to-embedded-ok: Address has a city, Person has none.
    let answers = try RealmAnswers("to-embedded-ok")
    let run = CommandRun(["dump", fixturePath("to-embedded-ok/before.realm"), "--where", "city == 'City 2'"])
    expectEqual(run.status, 0, "\(run.errors)")
    let expected = answers.lines(of: "Address").filter { $0["city"] == .string("City 2") }
    #expect(!expected.isEmpty)
    #expect(answers.compare(run.output, with: expected).isEmpty)
    expectEqual(run.errors, "realmctl: note: --where filters Address; it leaves out Person, which lacks a property it names\n", "\(run.errors)")
    // No class has every property: one line, the likeliest typo.
    let none = CommandRun(["dump", fixturePath("to-embedded-ok/before.realm"), "--where", "cty == 'City 2'"])
    expectEqual(none.status, 65)
    #expect(none.errors.hasPrefix("Error: --where: column 1: no class has every property the query names: "), "\(none.errors)")
    #expect(none.errors.contains("did you mean 'city'?"), "\(none.errors)")
  }

  @Test func diffOfASyncedRealmAndItsUnsyncedCopyNamesWhatSyncHeld() throws {
    try T.withFile(try SyncedFiles.build(SyncedFiles.flexibleShape(asymmetricEvents: 3)), as: "app.realm") { path, dir in
      let local = dir.appendingPathComponent("local.realm").path
      try T.write(try T.bytes(path), to: local)
      let unsynced = T.run(["unsync", local])
      try #require(unsynced.status == 0, "\(unsynced.stderr)")
      let run = CommandRun(["diff", path, local])
      expectEqual(run.status, 1, "\(run.errors)")
      let lines = run.text.split(separator: "\n").map(String.init)
      #expect(lines.contains { $0.hasPrefix("History: SyncClient (") }, "\(run.text)")
      #expect(
        lines.contains(
          "Sync: flexible sync, client file ident 7, 2 local changes never uploaded, 2 flexible-sync subscriptions (set version 1, complete) -> none (a local realm)"),
        "\(run.text)")
      #expect(!run.text.contains("The files are the same"))
      let json = CommandRun(["diff", path, local, "--format", "jsonl"])
      let first = try JSONParser.parse(String(json.text.split(separator: "\n").first { $0.contains("\"history\"") } ?? ""))
      expectEqual(first["new"]?["sync"], .null, "\(json.text)")
    }
  }
}
