import Foundation
import RealmFormat
import RealmJSON
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

/// `update`, `delete`, `migrate` and the shell's `UPDATE` and `DELETE` on files whose inner
/// cluster root claims another number of objects than its leaves hold (the files of
/// ``InsertHostileFileTests``). The in-place column paths copied that count into the new root
/// and the rewrite walked the leaves, so both succeeded and one kept the bad count: an edit
/// must refuse the file (65, a message naming the count) and leave it byte for byte. Also
/// other damage these paths meet: a search index sharing a node, an inner root too narrow for
/// its refs.
@Suite struct EditHostileFileTests {
  typealias T = CommandTestSupport
  typealias H = InsertHostileFileTests

  static let absurd = H.absurd

  /// 300 `Item` objects (`_id` 0, 10, …, `value` 0, 1, …) whose root claims `claimed`.
  static func items(claimed: Int64?, primaryKey: PropertyType? = .int) throws -> [UInt8] {
    try H.file([H.Crafted(schema: H.item(primaryKey: primaryKey), objects: 300, claimed: claimed)])
  }

  static func refuses(_ words: [String], claimed: Int64, primaryKey: PropertyType? = .int, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try H.expectRefusal(words, on: try items(claimed: claimed, primaryKey: primaryKey), lines: "", claimed: claimed, sourceLocation: sourceLocation)
  }

  /// An update of a plain column (the column-wise in-place path) and of the primary key (the
  /// object-wise rewrite), each also as a dry run of the objects a query selects.
  @Test("update (in place and rewritten) refuses a count its leaves do not hold", arguments: absurd)
  func update(claimed: Int64) throws {
    for assignment in ["value = old.value + 1", "_id = old._id + 1000000"] {
      try Self.refuses(["update", "FILE", "--class", "Item", "--set", assignment], claimed: claimed)
      try Self.refuses(
        ["update", "FILE", "--class", "Item", "--set", assignment, "--where", "value < 5", "--dry-run"], claimed: claimed)
    }
  }

  @Test("delete, with and without a query, refuses a count its leaves do not hold", arguments: absurd)
  func delete(claimed: Int64) throws {
    try Self.refuses(["delete", "FILE", "--class", "Item", "--where", "value < 5"], claimed: claimed)
    try Self.refuses(["delete", "FILE", "--class", "Item"], claimed: claimed, primaryKey: nil)
    try Self.refuses(["delete", "FILE", "--class", "Item", "--where", "value < 5", "--dry-run"], claimed: claimed)
  }

  /// A plan whose one step is `step` on `Item`, whose properties after it are `_id` and
  /// `properties` (JSON members).
  static func plan(_ step: String, properties: String = #""value": "int""#) -> String {
    """
    {"schemaVersion": 2,
     "schema": [{"name": "Item", "primaryKey": "_id", "properties": {"_id": "int", \(properties)}}],
     "migrations": [{"version": 2, "steps": [\(step)]}]}
    """
  }

  /// Every write path of a migration: a transform computed in place, a constant column added
  /// in place, a rename of the metadata only (the trees kept as they are, counts included),
  /// and a rewrite that deletes objects; each also as a dry run.
  static let migrations: [(step: String, properties: String)] = [
    (#"{"op": "transform", "class": "Item", "set": {"value": "old.value + 1000"}}"#, #""value": "int""#),
    (#"{"op": "addProperty", "class": "Item", "name": "flag", "type": "bool", "default": true}"#, #""value": "int", "flag": "bool""#),
    (#"{"op": "renameProperty", "class": "Item", "from": "value", "to": "amount"}"#, #""amount": "int""#),
    (#"{"op": "deleteObjects", "class": "Item", "where": "value < 5"}"#, #""value": "int""#),
  ]

  @Test("migrate (in place, columns or metadata, and rewritten) refuses a count its leaves do not hold", arguments: absurd)
  func migrate(claimed: Int64) throws {
    for m in Self.migrations {
      for dryRun in [false, true] {
        try T.inScratchDirectory { dir in
          let plan = try T.write(Self.plan(m.step, properties: m.properties), to: dir, as: "plan.json")
          try Self.refuses(["migrate", "--plan", plan, "FILE"] + (dryRun ? ["--dry-run"] : []), claimed: claimed)
        }
      }
    }
  }

  /// Two classes claiming Int.max objects (the progress total once trapped adding them up):
  /// the column-wise transform refuses them, the file untouched.
  @Test func columnWiseTransformOfClassesClaimingIntMax() throws {
    let bytes = try H.file([
      H.Crafted(schema: H.item("A", primaryKey: nil), objects: 300, claimed: .max),
      H.Crafted(schema: H.item("B", primaryKey: nil), objects: 301, claimed: .max),
    ])
    let plan = """
      {"schemaVersion": 2,
       "schema": [{"name": "A", "properties": {"_id": "int", "value": "int"}},
                  {"name": "B", "properties": {"_id": "int", "value": "int"}}],
       "migrations": [{"version": 2, "steps": [
         {"op": "transform", "class": "A", "set": {"value": "old.value + 1000"}},
         {"op": "transform", "class": "B", "set": {"value": "old.value + 1000"}}]}]}
      """
    try T.inScratchDirectory { dir in
      let planPath = try T.write(plan, to: dir, as: "plan.json")
      try H.expectRefusal(["migrate", "--plan", planPath, "FILE"], on: bytes, lines: "", claimed: .max)
    }
  }

  @Test("the shell's UPDATE and DELETE refuse a count the leaves do not hold", arguments: absurd)
  func shellStatements(claimed: Int64) throws {
    let bytes = try Self.items(claimed: claimed)
    for statement in ["UPDATE Item SET value = old.value + 1", "UPDATE Item SET _id = old._id + 7 WHERE value < 5", "DELETE FROM Item WHERE value < 5"] {
      try T.inScratchDirectory { dir in
        let path = dir.appendingPathComponent("hostile.realm").path
        try T.write(bytes, to: path)
        let r = try ShellEditTests.script([statement], on: path)
        expectEqual(r.status.rawValue, 65, "\(statement): \(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("\(claimed) objects"), "\(statement): \(r.stderr)")
        #expect(TestFiles.same(try T.bytes(path), bytes), "\(statement) changed the file")
      }
    }
  }

  /// 2500 `Item`s whose `value` (0…2499) is indexed, the inner node of that index made to
  /// point twice at its first child: a node shared where Realm never shares one (§1.4).
  static func sharedIndexNode() throws -> [UInt8] {
    let schema = ObjectSchema(name: "Item", properties: [
      Property(name: "_id", type: .int), Property(name: "value", type: .int, isIndexed: true),
    ])
    let objects = (0..<2500).map { i in (className: "Item", values: [RealmValue.int(Int64(i) * 10), .int(Int64(i))]) }
    let (bytes, rewritten) = try CraftedFiles.file(classes: [schema], objects: objects) { node in
      guard let (header, elements) = try? RewritingNodeSink.elements(of: node), header.isInner, header.hasRefs,
        header.contextFlag, elements.count >= 3
      else { return nil }
      var shared = elements
      shared[2] = shared[1]
      return NodeEncoder.integerNode(shared, width: header.width, hasRefs: true, isInner: true, contextFlag: true)
    }
    try #require(rewritten == 1, "the index of 'value' has no inner node")
    return bytes
  }

  /// An update of the indexed column computes it in place and frees its old index: the write
  /// transaction's walk of the file's nodes finds the shared one reached twice, a damaged file
  /// (65, named), not an internal error (a node freed twice), and the file untouched. A delete
  /// (the rewrite, which reads no index and builds a new one) works.
  @Test func updateOfAColumnWhoseIndexSharesANode() throws {
    let bytes = try Self.sharedIndexNode()
    try Self.expectRefused([["update", "FILE", "--class", "Item", "--set", "value = old.value + 1"]], on: bytes) { stderr, _ in
      stderr.hasPrefix("Error: 'hostile.realm' is not a valid Realm file: a node is reached twice")
    }
    try T.inScratchDirectory { dir in
      let path = dir.appendingPathComponent("hostile.realm").path
      try T.write(bytes, to: path)
      let d = T.run(["delete", path, "--class", "Item", "--where", "value >= 2000"])
      expectEqual(d.status, 0, "\(d.stderr)")
      try expectEqual(T.problems(path), [])
      let found = T.run(["dump", path, "--class", "Item", "--where", "value == 1999 OR value == 2000", "--format", "jsonl"])
      #expect(found.stdout.split(separator: "\n").count == 1 && found.stdout.contains(#""_id":19990"#), "\(found.stdout)\(found.stderr)")
    }
  }

  /// The edits of `Item` the tests below run (column-wise, object-wise, delete, migrate with
  /// the plan `PLAN`).
  static let edits = [
    ["update", "FILE", "--class", "Item", "--set", "value = old.value + 1"],
    ["update", "FILE", "--class", "Item", "--set", "_id = old._id + 1000000", "--where", "value < 5"],
    ["delete", "FILE", "--class", "Item", "--where", "value < 5"],
    ["migrate", "--plan", "PLAN", "FILE"],
  ]

  /// Runs each of `commands` (`FILE` the path of a copy of `bytes`, `PLAN` a plan transforming
  /// `Item`): 65, a message `message` accepts (given the stderr and the path), the file
  /// unchanged.
  static func expectRefused(
    _ commands: [[String]], on bytes: [UInt8], message: (_ stderr: String, _ path: String) -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try T.inScratchDirectory { dir in
      let plan = try T.write(Self.plan(#"{"op": "transform", "class": "Item", "set": {"value": "old.value + 1000"}}"#), to: dir, as: "plan.json")
      let path = dir.appendingPathComponent("hostile.realm").path
      for words in commands {
        try T.write(bytes, to: path)
        let r = T.run(words.map { $0 == "FILE" ? path : $0 == "PLAN" ? plan : $0 })
        expectEqual(r.status, 65, "\(words): \(r.stdout)\(r.stderr)", sourceLocation: sourceLocation)
        #expect(message(r.stderr, path), "\(words): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(TestFiles.same(try T.bytes(path), bytes), "\(words) changed the file", sourceLocation: sourceLocation)
      }
    }
  }

  /// The inner cluster root of `Item` re-encoded `width` bits wide: too narrow for its refs
  /// (truncated to their low bits) or for its count. Every edit refuses the file (65, named)
  /// and leaves it as it was.
  @Test("an inner cluster root too narrow for its refs", arguments: [1, 2, 4, 8])
  func narrowInnerRoot(width: Int) throws {
    let objects = (0..<300).map { i in (className: "Item", values: [RealmValue.int(Int64(i) * 10), .int(Int64(i))]) }
    let (bytes, rewritten) = try CraftedFiles.file(classes: [H.item()], objects: objects) { node in
      guard let (header, elements) = try? RewritingNodeSink.elements(of: node),
        header.isInner, header.hasRefs, !header.contextFlag, elements.count >= 4, elements[1] == 3
      else { return nil }
      let mask = Int64(1) << width - 1
      return NodeEncoder.integerNode(elements.map { $0 & mask }, width: width, hasRefs: true, isInner: true)
    }
    try #require(rewritten == 1)
    // Refused as the file is opened, which names it by its path.
    try Self.expectRefused(Self.edits, on: bytes) { stderr, path in stderr.hasPrefix("Error: '\(path)' is not a valid Realm file: ") }
  }

  /// `Owner`s linking to `Item`s (a link and a list) and owning an embedded `Tag`, the
  /// `Item` root claiming `claimed`: a delete of owners (with `--cascade-embedded`) rewrites
  /// the file, walking `Item` too, and refuses it; so does a delete of items, which nulls the
  /// owners' links.
  @Test("delete beside links, lists and embedded objects refuses a linked class's bad count", arguments: absurd)
  func deleteWithLinks(claimed: Int64) throws {
    let classes = [
      H.item(),
      ObjectSchema(name: "Owner", properties: [
        Property(name: "name", type: .string),
        Property(name: "item", type: .object, objectType: "Item", isOptional: true),
        Property(name: "items", type: .object, collection: .list, objectType: "Item"),
        Property(name: "tag", type: .object, objectType: "Tag", isOptional: true),
      ]),
      ObjectSchema(name: "Tag", isEmbedded: true, properties: [Property(name: "label", type: .string)]),
    ]
    var objects = (0..<300).map { i in (className: "Item", values: [RealmValue.int(Int64(i) * 10), .int(Int64(i))]) }
    for i in 0..<10 {
      objects.append(("Owner", [
        .string("o\(i)"), .link(ObjectLink(className: "Item", key: Int64(i))),
        .list([.link(ObjectLink(className: "Item", key: Int64(i + 1)))]),
        .embedded(EmbeddedObject(className: "Tag", key: 0, properties: [NamedValue("label", .string("t\(i)"))])),
      ]))
    }
    let (bytes, rewritten) = try CraftedFiles.file(classes: classes, objects: objects) { node in
      guard let (header, elements) = try? RewritingNodeSink.elements(of: node),
        header.isInner, header.hasRefs, elements.count >= 4, elements[1] == 3, elements[2] == 300 << 1 | 1
      else { return nil }
      return try? RewritingNodeSink.widened(node, setting: 2, to: claimed == .max ? -1 : claimed << 1 | 1)
    }
    try #require(rewritten == 1)
    for words in [
      ["delete", "FILE", "--class", "Owner", "--where", "name == 'o1'", "--cascade-embedded"],
      ["delete", "FILE", "--class", "Item", "--where", "value < 5"],
    ] {
      try H.expectRefusal(words, on: bytes, lines: "", claimed: claimed)
    }
  }

  /// The same file with its true count is edited by every command above: the refusals are the
  /// count's doing. Each edit leaves a file that checks clean with the objects it should hold.
  @Test func theSameFileWithItsTrueCountIsEdited() throws {
    let bytes = try Self.items(claimed: 300)
    try T.inScratchDirectory { dir in
      var plans: [String] = []
      for (i, m) in Self.migrations.enumerated() {
        plans.append(try T.write(Self.plan(m.step, properties: m.properties), to: dir, as: "plan\(i).json"))
      }
      let cases: [(words: [String], query: String, expected: Int)] = [
        (["update", "FILE", "--class", "Item", "--set", "value = old.value + 1"], "value == 300", 1),
        (["update", "FILE", "--class", "Item", "--set", "_id = old._id + 1000000"], "_id >= 1000000", 300),
        (["delete", "FILE", "--class", "Item", "--where", "value < 5"], "value < 1000", 295),
        (["migrate", "--plan", plans[0], "FILE"], "value >= 1000", 300),
        (["migrate", "--plan", plans[1], "FILE"], "flag == true", 300),
        (["migrate", "--plan", plans[2], "FILE"], "amount < 5", 5),
        (["migrate", "--plan", plans[3], "FILE"], "value >= 5", 295),
      ]
      for c in cases {
        let path = dir.appendingPathComponent("sound.realm").path
        try T.write(bytes, to: path)
        let r = T.run(c.words.map { $0 == "FILE" ? path : $0 })
        expectEqual(r.status, 0, "\(c.words): \(r.stderr)")
        try expectEqual(T.problems(path), [], "\(c.words)")
        let found = T.run(["dump", path, "--class", "Item", "--where", c.query, "--format", "jsonl"])
        expectEqual(found.stdout.split(separator: "\n").count, c.expected, "\(c.words): \(found.stdout)\(found.stderr)")
      }
    }
  }
}
