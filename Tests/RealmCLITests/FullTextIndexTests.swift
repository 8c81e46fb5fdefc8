import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

/// Full-text indexes (issue 27): `TEXT` queries give Realm's objects in Realm's order, and every
/// command that writes a file leaves full-text indexes that Realm's own queries answer from as
/// from the index Realm builds itself.
///
/// Golden answers: `Tests/Fixtures/fulltext` (objects, the files Realm Core 14 and 13 created
/// from them, and Realm's answers to 93 queries, `scripts/fulltext_fixture.py`), Realm Core
/// itself through the oracle (`FullTextOracle`: its answers on the written file against its
/// answers on the file it builds from the same objects), and the wild notes app file of
/// `../shared/wild` with the exact commands of the issue.
@Suite struct FullTextIndexTests {
  typealias T = CommandTestSupport

  /// One recorded query of `fulltext/answers.jsonl`: Realm Core 14's keys or message.
  struct Answer: CustomStringConvertible, Sendable {
    var className: String
    var query: String
    var keys: [Int64]?
    var error: String?
    /// Realm Core 13's on the format-23 file (nil where it crashes).
    var keys23: [Int64]?
    var description: String { "\(className): \(query)" }
  }

  static let answers: [Answer] = {
    guard let bytes = try? Fixtures.bytes("fulltext/answers.jsonl") else { return [] }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line -> Answer? in
      guard let json = try? JSONParser.parse(Array(line.utf8)), case .string(let c)? = json["class"],
        case .string(let w)? = json["where"]
      else { return nil }
      func keys(_ name: String) -> [Int64]? {
        guard case .array(let items)? = json[name] else { return nil }
        return items.compactMap { if case .int(let k) = $0 { k } else { nil } }
      }
      var error: String?
      if case .string(let e)? = json["error24"] { error = e }
      return Answer(className: c, query: w, keys: keys("keys24"), error: error, keys23: keys("keys23"))
    }
  }()

  /// The full-text indexed properties of the fixture.
  static let indexed = [("Note", "body"), ("Author", "name")]

  /// Searches asked of Realm after every command: accents, case, prefixes with and without the
  /// Latin-1 letters Realm's prefix lookup misses, exclusions, the words that Realm's lookup of
  /// a 4- or 8-byte word in a list answers too, and the word the edits add.
  static let searches = [
    "zebraword", "café", "CAFE", "caf*", "straße", "straß*", "ærø*", "aerø", "naive", "the", "the -a", "-the", "a*",
    "abcd", "abcdefgh", "abcdzz", "mnopqrst", "mnopqrstuv", "inte*", "inter*", "lorem ipsum", "×", "zoe", "þ*",
  ]

  /// `dump FILE --class C --where Q --keys-only`: the keys, or the message.
  static func keys(_ path: String, _ className: String, _ query: String) -> Result<[Int64], Message> {
    let run = CommandRun(["dump", path, "--class", className, "--where", query, "--keys-only"])
    guard run.status == 0 else { return .failure(Message(text: run.errors)) }
    return .success(run.text.split(separator: "\n").compactMap { Int64($0) })
  }

  struct Message: Error { var text: String }

  /// Every recorded answer, asked of `path` with `dump --where`.
  static func expectRealmsAnswers(on path: String, sourceLocation: SourceLocation = #_sourceLocation) {
    expectEqual(answers.count, 93, sourceLocation: sourceLocation)
    for answer in answers {
      switch (keys(path, answer.className, answer.query), answer.keys, answer.error) {
      case (.success(let ours), let realms?, _):
        expectEqual(ours, realms, "\(answer)", sourceLocation: sourceLocation)
      case (.failure(let message), _, let realms?):
        #expect(message.text.contains(realms), "\(answer): \(message.text)", sourceLocation: sourceLocation)
      case (let ours, _, _):
        Issue.record("\(answer): realmctl \(ours), Realm \(answer.keys.map { "\($0)" } ?? answer.error ?? "?")", sourceLocation: sourceLocation)
      }
    }
  }

  // MARK: - TEXT queries on Realm's files

  /// `dump --where` with TEXT on the files Realm Core 14 and 13 built gives Realm's objects in
  /// Realm's order, and refuses what Realm refuses with Realm's message.
  @Test(arguments: ["fulltext/before-24.realm", "fulltext/before-23.realm"])
  func dumpWhereGivesRealmsAnswers(_ fixture: String) throws {
    try T.withCopy(of: fixture, as: "notes.realm") { path, _ in Self.expectRealmsAnswers(on: path) }
  }

  /// Realm Core 13 answers its own format-23 file as Realm Core 14 does (which realmctl
  /// follows), except for a TEXT through a list of links, on which it crashes.
  @Test func core13AnswersAsCore14() {
    for answer in Self.answers where answer.keys23 != nil || answer.error != nil {
      expectEqual(answer.keys23, answer.keys, "\(answer)")
    }
    expectEqual(Self.answers.filter { $0.keys23 == nil && $0.error == nil }.map(\.query), [#"notes.body TEXT "abcd""#])
  }

  /// Forms Realm Core crashes on (a non-string property, a constant or a collection on the
  /// left, `@links`) are refused with a message, as every query that does not compile (exit 65,
  /// docs/exit-codes.md).
  @Test(arguments: [
    #"id TEXT "a""#, #""a" TEXT body"#, #"@links.Author.notes.name TEXT "zoe""#, #"body TEXT {}"#,
  ])
  func formsRealmCrashesOnAreRefused(_ query: String) throws {
    try T.withCopy(of: "fulltext/before-24.realm", as: "notes.realm") { path, _ in
      let run = CommandRun(["dump", path, "--class", "Note", "--where", query])
      expectEqual(run.status, 65, "\(run.errors)")
      #expect(run.errors.contains("TEXT"), "\(run.errors)")
    }
  }

  /// The schema shows which index each property has (Realm's schema JSON of the fixture's
  /// schema, the file Realm built from it).
  @Test func schemaShowsFullTextIndexes() throws {
    try T.withCopy(of: "fulltext/before-24.realm", as: "notes.realm") { path, _ in
      let json = CommandRun(["schema", path, "--format", "json"])
      let expected = try JSONParser.parse(try Fixtures.bytes("fulltext/schema.json"))
      let actual = try JSONParser.parse(json.output)
      let indexes = { (doc: JSONValue) -> [String] in
        guard case .array(let classes)? = doc["classes"] else { return [] }
        return classes.flatMap { c -> [String] in
          guard case .array(let properties)? = c["properties"] else { return [] }
          return properties.map { "\(c["name"].map { "\($0)" } ?? "").\($0["name"].map { "\($0)" } ?? ""): \($0["indexed"].map { "\($0)" } ?? "")" }
        }.sorted()
      }
      expectEqual(indexes(actual), indexes(expected))
      let text = CommandRun(["schema", path]).text
      #expect(text.contains("body    string?  full-text index"), "\(text)")
      #expect(text.contains("name   string  full-text index"), "\(text)")
    }
  }

  /// Damaged copies of the fixture (nodes of its indexes among the others): TEXT queries end
  /// with the objects or exit status 65, never a crash, a hang or unbounded output.
  @Test func damagedFilesAnswerTextOrFailCleanly() throws {
    let mutator = try RobustnessMutator(path: Fixtures.url("fulltext/before-24.realm").path)
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("damaged.realm").path
      var random = SeededRandom(seed: 0x7E47)
      var outcomes: [Int32: Int] = [:]
      let kinds = RobustnessMutator.Kind.allCases
      for n in 0..<160 {
        let (bytes, description) = mutator.mutate(kinds[n % kinds.count], &random)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for query in [#"body TEXT "café the* -naive""#, #"body TEXT "inte*" OR author.name TEXT "z*""#, #"body TEXT "abcdefgh""#] {
          let run = CommandRun(["dump", path, "--class", "Note", "--where", query, "--keys-only"])
          outcomes[run.status, default: 0] += 1
          #expect([0, 65].contains(run.status), "#\(n) \(description): \(query): exit \(run.status): \(run.errors)")
          #expect(run.output.count <= 256 * bytes.count, "#\(n) \(description)")
        }
      }
      #expect((outcomes[0] ?? 0) > 0 && (outcomes[65] ?? 0) > 0, "\(outcomes)")
    }
  }

  // MARK: - Files realmctl writes

  /// `create` of the fixture's objects in formats 24 and 23 answers every recorded query as
  /// Realm's own files do.
  @Test(arguments: ["24", "23"])
  func createdFileGivesRealmsAnswers(_ format: String) throws {
    try T.inScratchDirectory { dir in
      let path = try Self.create(in: dir, format: format)
      Self.expectRealmsAnswers(on: path)
    }
  }

  /// Format 22 has no full-text index: `create` refuses it, naming the property.
  @Test func format22RefusesAFullTextIndex() throws {
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("notes.realm").path
      let run = CommandRun([
        "create", path, "--schema", Fixtures.url("fulltext/schema.json").path, "--data",
        Fixtures.url("fulltext/data.jsonl").path, "--file-format", "22",
      ])
      #expect(run.status != 0)
      #expect(run.errors.contains("full-text index (format 23 and later)"), "\(run.errors)")
      #expect(!FileManager.default.fileExists(atPath: path))
    }
  }

  /// A schema or a plan that asks a full-text index of what cannot have one is refused, naming
  /// the member; nothing is written.
  @Test(arguments: [
    (#"{"name": "n", "type": "int", "optional": false, "indexed": "full-text"}"#, "only a string property can have a full-text index"),
    (#"{"name": "n", "type": "list", "objectType": "string", "optional": false, "indexed": "full-text"}"#, "only a string property"),
    (#"{"name": "n", "type": "string", "optional": false, "indexed": "fulltext"}"#, #"expected true, false or "full-text""#),
  ])
  func schemasRefuseFullTextIndexesOfOtherKinds(_ property: String, _ message: String) throws {
    try T.inScratchDirectory { dir in
      let schema = try T.write(
        #"{"schemaVersion": 1, "classes": [{"name": "C", "embedded": false, "primaryKey": null, "properties": [\#(property)]}]}"#,
        to: dir, as: "schema.json")
      let out = dir.appendingPathComponent("c.realm").path
      let run = CommandRun(["create", out, "--schema", schema])
      #expect(run.status != 0)
      #expect(run.errors.contains("classes[0].properties[0].indexed") && run.errors.contains(message), "\(run.errors)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
  }

  @Test func plansRefuseFullTextIndexesOfOtherKinds() throws {
    try T.withCopy(of: "fulltext/before-24.realm", as: "notes.realm") { path, dir in
      let before = try T.bytes(path)
      for (spec, message) in [
        (#"{"type": "int", "indexed": "full-text"}"#, "only string properties can have a full-text index"),
        (#"{"type": "string", "indexed": "yes"}"#, #"must be true, false or "full-text""#),
      ] {
        let plan = try T.write(
          #"{"schemaVersion": 4, "schema": [{"name": "Note", "primaryKey": "id", "properties": {"id": "int", "extra": \#(spec)}}]}"#,
          to: dir, as: "plan.json")
        let run = CommandRun(["migrate", path, "--plan", plan])
        #expect(run.status != 0)
        #expect(run.errors.contains("extra.indexed") && run.errors.contains(message), "\(run.errors)")
        #expect(TestFiles.same(try T.bytes(path), before))
      }
    }
  }

  static func create(in dir: URL, format: String) throws -> String {
    let path = dir.appendingPathComponent("notes-\(format).realm").path
    let run = CommandRun([
      "create", path, "--schema", Fixtures.url("fulltext/schema.json").path, "--data", Fixtures.url("fulltext/data.jsonl").path,
      "--file-format", format,
    ])
    try #require(run.status == 0, "\(run.errors)")
    return path
  }

  /// Realm reads the created files as its own: `verify`, and every recorded answer (Realm Core
  /// 13 too on format 23).
  @Test(RealmOracle.enabled, arguments: ["24", "23"])
  func realmAnswersTheCreatedFileAsItsOwn(_ format: String) throws {
    try T.inScratchDirectory { dir in
      let path = try Self.create(in: dir, format: format)
      #expect(try RealmOracle.core14.verifyFailure(path) == nil)
      for answer in Self.answers {
        let realm = try FullTextOracle(.core14).answer(path, answer.className, answer.query)
        let recorded = answer.keys.map { "[" + $0.map(String.init).joined(separator: ", ") + "]" } ?? "error '\(answer.error ?? "")'"
        expectEqual(realm, recorded, "\(answer)")
        if format == "23", RealmOracle.core13.isAvailable, let keys23 = answer.keys23 {
          try expectEqual(RealmOracle.core13.queryKeys(path, className: answer.className, where: answer.query), keys23, "\(answer)")
        }
      }
    }
  }

  /// A command run on a copy of the fixture, with what Realm must then answer.
  struct Command: CustomStringConvertible, Sendable {
    var name: String
    /// The words after `realmctl`, `FILE` standing for the copy; files it needs (name, text).
    var words: [String]
    /// A second command run after the first (`convert` back).
    var then: [String]? = nil
    var inputs: [(String, String)] = []
    /// Realm's `TEXT` query that must then answer as Realm's `CONTAINS` query beside it, both
    /// on the written file (the words the edit added), with at least `least` objects.
    var added: (text: String, contains: String, least: Int)?
    /// The full-text indexed properties afterwards, when not the fixture's.
    var indexed = FullTextIndexTests.indexed
    var description: String { name }
  }

  static let plainSchema = """
    [{"name": "Author", "properties": {"name": {"type": "string", "indexed": "full-text"}, "notes": "Note[]"}},
     {"name": "Note", "primaryKey": "id", "properties": {"id": "int", "title": {"type": "string", "indexed": true},
      "body": {"type": "string?", "indexed": "full-text"}, "author": "Author?"}}]
    """

  static let commands: [Command] = [
    Command(
      name: "update", words: ["update", "FILE", "--class", "Note", "--set", "body = 'zebraword ' + old.body"],
      added: ("body TEXT 'zebraword'", "body BEGINSWITH 'zebraword '", 200)),
    Command(
      name: "update --where TEXT", words: ["update", "FILE", "--class", "Note", "--where", "body TEXT 'café -the'", "--set", "body = 'ZebraWord Ærø'"],
      added: ("body TEXT 'zebraword'", "body == 'ZebraWord Ærø'", 10)),
    Command(name: "delete --where TEXT", words: ["delete", "FILE", "--class", "Note", "--where", "body TEXT 'abcd* -the'"]),
    Command(name: "delete of objects of another class", words: ["delete", "FILE", "--class", "Author", "--where", "name TEXT 'zoe'"]),
    Command(
      name: "insert", words: ["insert", "FILE", "new.jsonl"],
      inputs: [("new.jsonl", #"{"$class":"Note","id":5000,"title":"new","body":"Zebraword café façade","author":null}"# + "\n")],
      added: ("body TEXT 'zebraword'", "body BEGINSWITH 'Zebraword'", 1)),
    Command(
      name: "insert --upsert changing the text", words: ["insert", "FILE", "up.jsonl", "--upsert"],
      inputs: [("up.jsonl", #"{"$class":"Note","id":1004,"title":"Note 4","body":"zebraword only"}"# + "\n")],
      added: ("body TEXT 'zebraword'", "body == 'zebraword only'", 1)),
    Command(
      name: "migrate transform", words: ["migrate", "FILE", "--plan", "plan.json"],
      inputs: [("plan.json", #"{"schemaVersion": 4, "schema": \#(plainSchema), "migrations": [{"version": 4, "steps": [{"op": "transform", "class": "Note", "set": {"body": "'zebraword ' + old.body"}, "where": "id < 1100"}]}]}"#)],
      added: ("body TEXT 'zebraword'", "body BEGINSWITH 'zebraword '", 50)),
    Command(
      name: "migrate deleteObjects", words: ["migrate", "FILE", "--plan", "plan.json"],
      inputs: [("plan.json", #"{"schemaVersion": 4, "schema": \#(plainSchema), "migrations": [{"version": 4, "steps": [{"op": "deleteObjects", "class": "Note", "where": "body TEXT 'the'"}]}]}"#)]),
    Command(
      name: "migrate moving the full-text index (same version)", words: ["migrate", "FILE", "--plan", "plan.json"],
      inputs: [("plan.json", #"{"schemaVersion": 3, "schema": \#(plainSchema.replacingOccurrences(of: #""name": {"type": "string", "indexed": "full-text"}"#, with: #""name": "string""#).replacingOccurrences(of: #""title": {"type": "string", "indexed": true}"#, with: #""title": {"type": "string", "indexed": "full-text"}"#))}"#)],
      indexed: [("Note", "body"), ("Note", "title")]),
    Command(name: "rename-property", words: ["rename-property", "FILE", "Note", "title", "heading"]),
    Command(name: "compact", words: ["compact", "FILE"]),
    Command(name: "convert to 24 and back to 23", words: ["convert", "FILE", "--file-format", "24"], then: ["convert", "FILE", "--file-format", "23"]),
    Command(name: "convert to 23 and back to 24", words: ["convert", "FILE", "--file-format", "23"], then: ["convert", "FILE", "--file-format", "24"]),
  ]

  /// Each command on copies of Realm's format-24 and format-23 files: Realm's `verify` passes
  /// and Realm answers the searches on the written file as on the file it builds itself from
  /// the same objects (Realm Core 13 too on a format-23 result); the words an edit added are
  /// found by Realm's TEXT as by its CONTAINS; a removed full-text index is gone for Realm.
  ///
  /// By default each case asks half of ``searches``, the two formats of a command and
  /// neighbouring commands the other halves, so that every search runs after every kind of
  /// write (`FixtureSample.share`); `REALMCTL_FULL_FIXTURES=1` asks every search every time.
  @Test(RealmOracle.enabled, arguments: ["24", "23"], FullTextIndexTests.commands)
  func everyCommandLeavesRealmsIndex(_ format: String, _ command: Command) throws {
    let index = Self.commands.firstIndex { $0.name == command.name } ?? 0
    let searches = FixtureSample.share(Self.searches, part: index + (format == "24" ? 0 : 1), of: 2)
    try T.withCopy(of: "fulltext/before-\(format).realm", as: "notes.realm") { path, dir in
      for (name, text) in command.inputs { try T.write(text, to: dir, as: name) }
      for words in [command.words] + (command.then.map { [$0] } ?? []) {
        let run = CommandRun(Self.resolve(words, path: path, inputs: command.inputs, dir: dir))
        try #require(run.status == 0, "\(command): \(run.errors)")
        try Self.expectRealmAgrees(
          path, indexed: command.indexed, command: "\(command): \(words.joined(separator: " "))", searches: searches)
      }
      if let added = command.added {
        let text = try #require(try RealmOracle.core14.queryKeys(path, className: "Note", where: added.text))
        try expectEqual(text, RealmOracle.core14.queryKeys(path, className: "Note", where: added.contains))
        #expect(text.count >= added.least, "\(command): \(text.count) objects")
      }
      for (c, p) in Self.indexed where !command.indexed.contains(where: { $0 == (c, p) }) {
        try expectEqual(FullTextOracle(.core14).answer(path, c, "\(p) TEXT 'zoe'"), "error 'Column has no fulltext index'")
      }
    }
  }

  /// `upgrade` of the format-23 file (to 24).
  @Test(RealmOracle.enabled) func upgradeKeepsRealmsIndex() throws {
    try T.withCopy(of: "fulltext/before-23.realm", as: "notes.realm") { path, _ in
      let run = CommandRun(["upgrade", path])
      try #require(run.status == 0, "\(run.errors)")
      expectEqual(RealmAnswerCheck.headerFormat(path), 24)
      try Self.expectRealmAgrees(path, indexed: Self.indexed, command: "upgrade")
    }
  }

  /// The shell's UPDATE and DELETE with TEXT in a transaction, committed.
  @Test(RealmOracle.enabled) func shellTransactionKeepsRealmsIndex() throws {
    try T.withCopy(of: "fulltext/before-24.realm", as: "notes.realm") { path, _ in
      let session = try ShellEditTests.script(
        [
          "BEGIN", "UPDATE Note SET body = 'zebraword ' + old.body WHERE body TEXT 'café'",
          "DELETE FROM Note WHERE body TEXT 'zebraword the'", "COMMIT",
        ], on: path)
      expectEqual(session.status, .success, "\(session.stderr)")
      try Self.expectRealmAgrees(path, indexed: Self.indexed, command: "shell")
      let found = try #require(try RealmOracle.core14.queryKeys(path, className: "Note", where: "body TEXT 'zebraword'"))
      try expectEqual(found, RealmOracle.core14.queryKeys(path, className: "Note", where: "body BEGINSWITH 'zebraword '"))
      #expect(!found.isEmpty)
    }
  }

  /// `words` with `FILE` as `path` and the names of the inputs as their paths in `dir`.
  static func resolve(_ words: [String], path: String, inputs: [(String, String)], dir: URL) -> [String] {
    words.map { w in
      if w == "FILE" { return path }
      return inputs.contains { $0.0 == w } ? dir.appendingPathComponent(w).path : w
    }
  }

  /// `diff --where` with TEXT compares the objects the search finds in either file: the notes
  /// an update gave a new word are the changed ones, those Realm finds with it in the new file.
  @Test(RealmOracle.enabled) func diffWhereTextComparesRealmsObjects() throws {
    try T.withCopy(of: "fulltext/before-24.realm", as: "old.realm") { old, dir in
      let new = try T.copy("fulltext/before-24.realm", to: dir, as: "new.realm")
      let update = CommandRun(["update", new, "--class", "Note", "--where", "body TEXT 'café -the'", "--set", "body = 'ZebraWord Ærø'"])
      try #require(update.status == 0, "\(update.errors)")
      let run = CommandRun(["diff", old, new, "--class", "Note", "--where", "body TEXT 'zebraword'", "--format", "jsonl"])
      expectEqual(run.status, 1, "\(run.errors)")
      var changed: [Int64] = []
      for line in run.text.split(separator: "\n") {
        let json = try JSONParser.parse(Array(line.utf8))
        if case .string("changed")? = json["change"], case .int(let id)? = json["$pk"] { changed.append(id) }
      }
      // The fixture's objects have the primary key 1000 + their key.
      let realm = try #require(try RealmOracle.core14.queryKeys(new, className: "Note", where: "body TEXT 'zebraword'"))
      #expect(!realm.isEmpty)
      expectEqual(changed.sorted(), realm.map { 1000 + $0 })
    }
  }

  /// Realm verifies `path` and answers the searches on it (by default every one of
  /// ``searches``) as on its own file of the same objects; Realm Core 13 as well on a
  /// format-23 file.
  static func expectRealmAgrees(
    _ path: String, indexed: [(String, String)], command: String, searches: [String] = searches,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(try RealmOracle.core14.verifyFailure(path) == nil, "\(command)", sourceLocation: sourceLocation)
    let problems = try FullTextOracle(.core14).disagreements(path, indexed: indexed, searches: searches)
    #expect(problems.isEmpty, "\(command): \(problems.prefix(5).joined(separator: "\n"))", sourceLocation: sourceLocation)
    if RealmAnswerCheck.headerFormat(path) == 23, RealmOracle.core13.isAvailable {
      #expect(try RealmOracle.core13.verifyFailure(path) == nil, "\(command)", sourceLocation: sourceLocation)
      let core13 = try FullTextOracle(.core13).disagreements(path, indexed: indexed, searches: searches)
      #expect(core13.isEmpty, "\(command), Realm Core 13: \(core13.prefix(5).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }
  }

  // MARK: - The wild file of the issue

  static let wildFile = "wild/files/799f88449bd893c1.realm"
  static let wildIndexed = [("Note", "noteText"), ("Note", "noteColor")]
  static let wildSearches = ["zebraword", "lorem", "Lorem", "lor*", "lorem ipsum", "lorem -ipsum", "-lorem", "pink", "default", "d*", "nulla*"]
  static let wildSchema = """
    [{"name": "Note", "primaryKey": "_id", "properties": {"_id": "objectId", "fontSize": "int", "fontStyle": "string",
      "fontsFamily": "string", "italicFont": "bool", "noteColor": {"type": "string", "indexed": "full-text"}, "date": "string",
      "noteText": {"type": "string", "indexed": "full-text"}}},
     {"name": "ToDo", "primaryKey": "_id", "properties": {"_id": "objectId", "date": "string", "todoText": "string", "done": "bool"}}]
    """

  /// The commands of the issue, on copies of the notes app's file (format 23).
  static let wildCommands: [Command] = [
    Command(
      name: "update", words: ["update", "FILE", "--class", "Note", "--set", "noteText = 'zebraword ' + old.noteText"],
      added: ("noteText TEXT 'zebraword'", "noteText CONTAINS 'zebraword'", 23)),
    Command(
      name: "migrate transform", words: ["migrate", "FILE", "--plan", "plan.json"],
      inputs: [("plan.json", #"{"schemaVersion": 2, "schema": \#(wildSchema), "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Note", "set": {"noteText": "'zebraword ' + old.noteText"}}]}]}"#)],
      added: ("noteText TEXT 'zebraword'", "noteText CONTAINS 'zebraword'", 23)),
    Command(
      name: "insert", words: ["insert", "FILE", "new.jsonl"],
      inputs: [("new.jsonl", #"{"$class":"Note","_id":{"$oid":"650000000000000000000001"},"fontSize":14,"fontStyle":"NORMAL","fontsFamily":"ROBOTO","italicFont":false,"noteColor":"PINK","date":"x","noteText":"zebraword Lorem"}"# + "\n")],
      added: ("noteText TEXT 'zebraword'", "noteText CONTAINS 'zebraword'", 1)),
    Command(
      name: "insert --upsert changing noteText", words: ["insert", "FILE", "up.jsonl", "--upsert"],
      inputs: [("up.jsonl", #"{"$class":"Note","_id":{"$oid":"64f945d4aa80cd21ddece113"},"noteText":"zebraword Lorem"}"# + "\n")],
      added: ("noteText TEXT 'zebraword'", "noteText CONTAINS 'zebraword'", 1)),
    Command(name: "delete of another class", words: ["delete", "FILE", "--class", "ToDo", "--where", "done == true"]),
    Command(
      name: "migrate deleteObjects", words: ["migrate", "FILE", "--plan", "plan.json"],
      inputs: [("plan.json", #"{"schemaVersion": 2, "schema": \#(wildSchema), "migrations": [{"version": 2, "steps": [{"op": "deleteObjects", "class": "Note", "where": "noteColor TEXT 'pink'"}]}]}"#)]),
    Command(name: "upgrade", words: ["upgrade", "FILE"]),
    Command(name: "compact", words: ["compact", "FILE"]),
    Command(name: "rename-property", words: ["rename-property", "FILE", "Note", "date", "day"]),
  ]

  /// The issue's commands on the wild file: Realm answers as on its own file afterwards, and
  /// finds the added word with TEXT as with CONTAINS. (By default each command asks half of
  /// ``searches``, the next command the other half; `REALMCTL_FULL_FIXTURES=1` every one.)
  @Test(SharedFixtures.enabled, RealmOracle.enabled, arguments: FullTextIndexTests.wildCommands)
  func wildFileKeepsRealmsIndex(_ command: Command) throws {
    let index = Self.wildCommands.firstIndex { $0.name == command.name } ?? 0
    let searches = FixtureSample.share(Self.searches, part: index, of: 2)
    let source = try #require(SharedFixtures.url(Self.wildFile))
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("notes.realm").path
      try T.write(try T.bytes(source.path), to: path)
      for (name, text) in command.inputs { try T.write(text, to: dir, as: name) }
      let run = CommandRun(Self.resolve(command.words, path: path, inputs: command.inputs, dir: dir))
      try #require(run.status == 0, "\(command): \(run.errors)")
      try Self.expectRealmAgrees(path, indexed: Self.wildIndexed, command: "\(command)", searches: searches)
      if let added = command.added {
        let text = try #require(try RealmOracle.core14.queryKeys(path, className: "Note", where: added.text))
        try expectEqual(text, RealmOracle.core14.queryKeys(path, className: "Note", where: added.contains))
        #expect(text.count >= added.least, "\(command): \(text.count) objects")
      }
    }
  }

  /// `convert 23 -> 24 -> 23` of the wild file, checked after each step.
  @Test(SharedFixtures.enabled, RealmOracle.enabled) func wildFileConvertedThereAndBack() throws {
    let source = try #require(SharedFixtures.url(Self.wildFile))
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("notes.realm").path
      try T.write(try T.bytes(source.path), to: path)
      for format in ["24", "23"] {
        let run = CommandRun(["convert", path, "--file-format", format])
        try #require(run.status == 0, "\(run.errors)")
        try Self.expectRealmAgrees(path, indexed: Self.wildIndexed, command: "convert to \(format)")
      }
    }
  }

  /// `dump --where` with TEXT on the wild file gives Realm's objects, in Realm's order.
  @Test(SharedFixtures.enabled, RealmOracle.enabled) func wildFileDumpWhereGivesRealmsObjects() throws {
    let source = try #require(SharedFixtures.url(Self.wildFile))
    for (c, p) in Self.wildIndexed {
      for search in Self.wildSearches + ["zebraword -lorem", "purple", "-pink", "ipsum* -dolor"] {
        let query = "\(p) TEXT \"\(search)\""
        let realm = try RealmOracle.core14.queryKeys(source.path, className: c, where: query)
        if search == "zebraword" { expectEqual(realm, []) }
        expectEqual((try? Self.keys(source.path, c, query).get()), realm, "\(query)")
        let sorted = query + " SORT(fontSize DESC, date ASC)"
        expectEqual((try? Self.keys(source.path, c, sorted).get()), (try RealmOracle.core14.queryKeys(source.path, className: c, where: sorted)), "\(sorted)")
      }
    }
  }
}
