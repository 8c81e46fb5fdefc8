import Foundation
import RealmFormat
import RealmModel
import RealmTestSupport
import Testing

/// The check itself (`IndexAgreement`, RealmTestSupport): it finds nothing on the files Realm
/// writes, and it finds what a stale index, a misbuilt `mixed` index, a timestamp in the wrong
/// form and a dropped or changed index do to Realm's answers.
@Suite struct IndexAgreementTests {
  typealias T = CommandTestSupport

  /// Realm's own files (its fixtures, written by Realm Core, with indexes of every kind the
  /// SDKs declare) agree with themselves.
  @Test(IndexAgreement.enabled, arguments: [
    "alltypes/before.realm", "strings/before.realm", "embedded/before.realm",
    "change-primary-key/before.realm", "user-tutorial/before.realm", "optionality/before.realm",
  ])
  func realmsFixturesAgree(_ fixture: String) throws {
    let report = try IndexAgreement.check(Fixtures.url(fixture).path)
    #expect(report.problems.isEmpty, "\(fixture): \(report)")
    #expect(report.queries > 0 || report.checked.isEmpty, "\(fixture)")
  }

  /// Real files of every SDK, formats 10 to 24 (Realm Core 14 reads the older ones by
  /// upgrading a copy), the four with full-text indexes among them.
  @Test(
    .enabled(if: SharedFixtures.isAvailable && RealmOracle.core14.isAvailable, SharedFixtures.absentNote),
    arguments: (try? wildFiles()) ?? [])
  func wildFilesAgree(_ file: String) throws {
    let report = try IndexAgreement.check(file)
    #expect(report.problems.isEmpty, "\(file): \(report)")
  }

  /// Words are tried on the full-text indexes of the wild files that have them.
  @Test(.enabled(if: SharedFixtures.isAvailable && RealmOracle.core14.isAvailable, SharedFixtures.absentNote))
  func wildFullTextIndexesAreTried() throws {
    let files = try Self.wildFiles()
    #expect(files.count >= 40)
    let notes = try #require(files.first { $0.hasSuffix("799f88449bd893c1.realm") })
    let report = try IndexAgreement.check(notes)
    #expect(report.problems.isEmpty, "\(report)")
    #expect(report.checked.contains { $0.hasPrefix("Note.noteText (full-text") && !$0.hasSuffix(": 0 words") }, "\(report)")
  }

  /// The wild files Realm Core 14 reads (formats 10-24, answers present, not encrypted).
  static func wildFiles() throws -> [String] {
    guard let root = SharedFixtures.url("wild") else { return [] }
    let manifest = try String(contentsOf: root.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
    var out: [String] = []
    for line in manifest.split(separator: "\n") {
      let text = String(line)
      guard text.contains("\"kind\": \"realm\""),
        let range = text.range(of: "\"current_format\": "),
        let format = Int(text[range.upperBound...].prefix { $0.isNumber }), format >= 10,
        let name = text.split(separator: "\"").dropFirst(3).first.map(String.init)
      else { continue }
      let id = String(name.dropLast(".realm".count))
      guard FileManager.default.fileExists(atPath: root.appendingPathComponent("answers/\(id)/dump.jsonl").path) else { continue }
      out.append(root.appendingPathComponent("files/\(name)").path)
    }
    return out
  }

  /// A string changed in its leaf, behind the index's back: Realm's `==` misses it.
  @Test(IndexAgreement.enabled)
  func aStaleIndexIsFound() throws {
    try T.inScratchDirectory { dir in
      let schema = Schema(schemaVersion: 0, fileFormat: 24, classes: [
        ObjectSchema(name: "S", properties: [Property(name: "s", type: .string, isIndexed: true)])
      ])
      let values = ["alpha-one", "bravo-two", "charlie-3", "delta-four"]
      var bytes = try RealmFileBuilder.build(schema: schema, objects: values.map { ("S", nil, [.string($0)]) })
      // "charlie-3" becomes "dharlie-3" in the leaf; the index still files it under "char"
      // (a value whose first 4 bytes differ from every other is one tagged entry, which
      // Realm checks against the stored value: found under "char", missed under "dhar").
      let needle = Array("charlie-3".utf8)
      let at = try #require((0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle })
      bytes[at] = UInt8(ascii: "d")
      let path = dir.appendingPathComponent("stale.realm").path
      try T.write(bytes, to: path)
      // Every value tried (the default tries the first and the last of a property's values).
      let report = try IndexAgreement.check(path, samples: values.count)
      #expect(report.problems.contains { $0.contains("S.s == ") }, "\(report)")
    }
  }

  /// A date stored as seconds -1 and nanoseconds +250,000,000 (what `date()` wrote before
  /// 1970): Realm's `SORT` and `==` disagree with the instant its dump prints.
  @Test(IndexAgreement.enabled)
  func aTimestampInTheWrongFormIsFound() throws {
    try T.inScratchDirectory { dir in
      let schema = Schema(schemaVersion: 0, fileFormat: 24, classes: [
        ObjectSchema(name: "D", properties: [Property(name: "u", type: .date, isIndexed: true)])
      ])
      let dates = [Timestamp(seconds: -1, nanoseconds: 250_000_000), Timestamp(seconds: 0, nanoseconds: -900_000_000), Timestamp(seconds: 1, nanoseconds: 0)]
      let bytes = try RealmFileBuilder.build(schema: schema, objects: dates.map { ("D", nil, [.date($0)]) })
      let path = dir.appendingPathComponent("dates.realm").path
      try T.write(bytes, to: path)
      let report = try IndexAgreement.check(path)
      #expect(report.problems.contains { $0.contains("SORT(u ASC)") }, "\(report)")
      #expect(report.problems.contains { $0.contains("u == T0:-750000000") }, "\(report)")
    }
  }

  /// The kinds of index are compared with the original file's: a full-text index that
  /// became a general one, and an index that is gone, are reported.
  @Test(IndexAgreement.enabled)
  func changedAndDroppedIndexesAreFound() throws {
    try T.inScratchDirectory { dir in
      func realms(_ name: String, _ s: String, _ g: String) throws -> String {
        let schema = try T.write("""
          {"schemaVersion": 0, "classes": [{"name": "N", "primaryKey": null, "properties": [
            {"name": "s", "type": "string", "optional": true, "indexed": \(s)},
            {"name": "g", "type": "string", "optional": true, "indexed": \(g)}]}]}
          """, to: dir, as: "\(name).json")
        let data = try T.write("{\"$class\":\"N\",\"$key\":0,\"s\":\"lorem ipsum\",\"g\":\"a\"}\n", to: dir, as: "\(name).jsonl")
        let path = dir.appendingPathComponent(name).path
        let r = try RealmOracle.core14.run(["create", "--schema", schema, "--version", "0", "--data", data, path])
        try #require(r.status == 0, "\(r.output)\(r.errorOutput)")
        return path
      }
      let original = try realms("original.realm", "\"full-text\"", "true")
      try expectEqual(IndexAgreement.indexKinds(original), ["N.s": "full-text", "N.g": "general"])
      #expect(try IndexAgreement.check(original, indexesOf: original).problems.isEmpty)
      let changed = try realms("changed.realm", "true", "false")
      let problems = try IndexAgreement.check(changed, indexesOf: original).problems
      #expect(problems.contains("N.s: a general index, where the original file has a full-text index"), "\(problems)")
      #expect(problems.contains("N.g: no index, where the original file has a general index"), "\(problems)")
    }
  }
}
