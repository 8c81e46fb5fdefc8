import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmFormat
import RealmModel
import RealmQuery
import RealmStorage

/// The in-place column path (`Migrator+Columns.swift`, `ColumnEditor`): every plan it takes must
/// give the same file contents as the rewrite, Realm's results where the fixtures have them,
/// and a clean integrity check; unchanged column data must stay where it was.
@Suite struct InPlaceColumnTests {
  /// Migrates a copy of `input` both ways and returns the in-place result's path and result.
  @discardableResult
  func migrateBothWays(
    _ input: String, plan json: String, expectInPlace: Bool = true, sourceLabel: Comment? = nil
  ) throws -> (path: String, result: MigrationResult) {
    let plan = try PlanDecoder.decode(Array(json.utf8))
    let inPlace = try copy(input)
    let rewritten = try copy(input)
    let a = try Migrator.migrate(path: inPlace, plan: plan)
    var options = MigrationOptions()
    options.inPlaceColumnChanges = false
    let b = try Migrator.migrate(path: rewritten, plan: plan, options: options)
    #expect(a.method == (expectInPlace ? .inPlace : .rewritten), sourceLabel ?? "\(json)")
    #expect(b.method != .inPlace || !expectInPlace)
    expectEqual(a.classes, b.classes, "reports of both paths")
    try expectSameContents(inPlace, rewritten)
    let problems = try RealmFile.open(path: inPlace).group.check()
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    return (inPlace, a)
  }

  func copy(_ input: String) throws -> String {
    let dest = try Fixtures.temporaryDirectory().appendingPathComponent("test.realm")
    if input.hasPrefix("/") {
      try FileManager.default.copyItem(at: URL(fileURLWithPath: input), to: dest)
    } else {
      try FileManager.default.copyItem(at: Fixtures.url(input), to: dest)
    }
    return dest.path
  }

  func expectSameContents(_ actual: String, _ expected: String) throws {
    let schema = try RealmDumper.schemaJSON(expected)
    let schemaDiff = DumpComparison.compareSchemas(expected: schema, actual: try RealmDumper.schemaJSON(actual), anyPropertyOrder: false)
    #expect(schemaDiff.isEmpty, "\(schemaDiff.prefix(10))")
    let dumpDiff = DumpComparison.compareDumps(
      expected: try RealmDumper.dumpJSONL(expected), actual: try RealmDumper.dumpJSONL(actual), schema: schema)
    #expect(dumpDiff.isEmpty, "\(dumpDiff.prefix(10))")
  }

  func expectLikeRealm(_ path: String, fixture dir: String) throws {
    let diff = try DumpComparison.compareRealm(at: path, withFixture: "\(dir)/after")
    #expect(diff.isEmpty, "\(diff.prefix(10))")
  }

  @Test(arguments: ["person-add-email", "person-remove-age", "person-required-email-default", "person-fullname-then-string-age"])
  func fixturePlansRunInPlaceLikeRealm(_ dir: String) throws {
    let plan = String(decoding: try Fixtures.bytes("\(dir)/plan.json"), as: UTF8.self)
    let (path, result) = try migrateBothWays("\(dir)/before.realm", plan: plan)
    try expectLikeRealm(path, fixture: dir)
    expectEqual(result.classes.map(\.objectsAfter), [1000])
    expectEqual(result.classes.map(\.objectsTouched), [1000])
  }

  static let person = "person-add-email/before.realm"

  /// The raw slot of `column` in the first cluster leaf of `className` (a ref to its leaf),
  /// and the depth of the cluster tree.
  func firstLeafSlot(_ path: String, _ className: String, _ column: String) throws -> (slot: Int64, depth: Int) {
    let group = try RealmFile.open(path: path).group
    let table = try #require(group.table(forClass: className))
    let leafIndex = try #require(table.column(named: column)).leafIndex
    var node = try ArrayNode(group.reader, table.clusterRoot)
    var depth = 0
    while node.isInner {
      node = try ArrayNode(group.reader, try node.ref(3))
      depth += 1
    }
    return (try node.get(1 + leafIndex), depth)
  }

  @Test func keptColumnsStayWhereTheyAre() throws {
    let plan = """
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "age": "int", "email": "string?"}}]}
      """
    let input = try copy(Self.person)
    let before = try firstLeafSlot(input, "Person", "age")
    expectEqual(before.depth, 1, "1000 objects: an inner root over 4 leaves")
    let (path, _) = try migrateBothWays(input, plan: plan)
    try expectEqual(firstLeafSlot(path, "Person", "age").slot, before.slot, "the age leaf is not copied")
  }

  @Test func addsRequiredAndOptionalColumnsOfManyTypes() throws {
    let plan = """
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "lastName": "string", "age": "int",
        "email": "string?", "score": {"type": "int", "default": 7}, "nickname": "string",
        "flag": "bool", "ratio": "double?", "when": "date?", "id": "uuid?", "oid": "objectId",
        "amount": {"type": "decimal128", "default": {"$decimal": "1.5"}}, "blob": "data?", "any": "mixed",
        "f": {"type": "float", "default": 2.5}, "tags": "int[]", "names": "string<>", "scores": "int{}"}}]}
      """
    let (path, _) = try migrateBothWays(Self.person, plan: plan)
    let group = try RealmFile.open(path: path).group
    var seen = 0
    try group.forEachObject(in: try #require(group.table(forClass: "Person"))) { _, values in
      if seen == 0 {
        expectEqual(values[3], .null)
        expectEqual(values[4], .int(7))
        expectEqual(values[5], .string(""))
      }
      seen += 1
    }
    expectEqual(seen, 1000)
  }

  @Test func removesThenAddsReusingTheLeafIndex() throws {
    let plan = """
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "age": "int", "email": "string?"}}]}
      """
    let (path, result) = try migrateBothWays(Self.person, plan: plan)
    expectEqual(result.classes.first?.removed, ["lastName"])
    let table = try #require(try RealmFile.open(path: path).group.table(forClass: "Person"))
    let email = try #require(table.column(named: "email"))
    expectEqual(email.leafIndex, 1, "the lowest free leaf index (§4.3)")
    expectEqual(email.specIndex, 2)
    // A second in-place migration on the result: the sequence and holes carry over.
    let second = """
      {"schemaVersion": 3, "schema": [{"name": "Person", "properties": {
        "age": "int", "email": "string?", "note": {"type": "string", "default": "n"}}}]}
      """
    try migrateBothWays(path, plan: second)
  }

  @Test func addsAndRenamesInOnePlan() throws {
    let plan = """
      {"schemaVersion": 3, "schema": [{"name": "Human", "properties": {
        "firstName": "string", "lastName": "string", "years": "int", "email": "string?"}}],
       "migrations": [{"version": 3, "steps": [
         {"op": "renameClass", "from": "Person", "to": "Human"},
         {"op": "renameProperty", "class": "Human", "from": "age", "to": "years"}]}]}
      """
    let (path, result) = try migrateBothWays(Self.person, plan: plan)
    expectEqual(result.toVersion, 3)
    try expectEqual(RealmFile.open(path: path).group.schema().schemaVersion, 3)
  }

  @Test func plansWithPerObjectWorkAreRewrittenOrComputed() throws {
    let indexed = """
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "lastName": "string", "age": "int",
        "email": {"type": "string", "optional": true, "indexed": true}}}]}
      """
    try migrateBothWays(Self.person, plan: indexed, expectInPlace: false)
    // Optionality changes are computed column by column (a new column with the same values).
    let optional = """
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "lastName": "string", "age": "int?"}}]}
      """
    let (_, result) = try migrateBothWays(Self.person, plan: optional)
    expectEqual(result.writePath, .columns)
  }

  /// A file with a two-level cluster tree, links and backlinks, lists and an index.
  @Test func deepTreesWithLinksAndIndexes() throws {
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "Dog", properties: [
        Property(name: "name", type: .string), Property(name: "owner", type: .object, objectType: "Person", isOptional: true),
      ]),
      ObjectSchema(name: "Person", properties: [
        Property(name: "name", type: .string, isIndexed: true), Property(name: "age", type: .int),
        Property(name: "tags", type: .int, collection: .list),
      ]),
    ])
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    let count = 70_000  // > 256 * 256: the cluster root has depth 2 (§5.3)
    var keys: [Int64] = []
    for i in 0..<count {
      keys.append(try builder.append(
        className: "Person", key: nil,
        values: [.string("p\(i % 977)"), .int(Int64(i)), .list(i % 5 == 0 ? [.int(Int64(i))] : [])]))
    }
    for i in 0..<300 {
      try builder.append(className: "Dog", key: nil, values: [.string("d\(i)"), .link(ObjectLink(className: "Person", key: keys[i * 200]))])
    }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    let input = try Fixtures.temporaryDirectory().appendingPathComponent("deep.realm").path
    #expect(FileManager.default.createFile(atPath: input, contents: Data(builder.sink.bytes)))
    let plan = """
      {"schemaVersion": 2, "schema": [
        {"name": "Dog", "properties": {"title": "string", "owner": "Person?"}},
        {"name": "Person", "properties": {"age": "int", "tags": "int[]", "email": "string?", "level": {"type": "int", "default": 3}}}],
       "migrations": [{"version": 2, "steps": [{"op": "renameProperty", "class": "Dog", "from": "name", "to": "title"}]}]}
      """
    let dogRoot = try #require(try RealmFile.open(path: input).group.table(forClass: "Dog")).clusterRoot
    try expectEqual(firstLeafSlot(input, "Person", "age").depth, 2)
    let (path, result) = try migrateBothWays(input, plan: plan)
    expectEqual(result.classes.map(\.name), ["Dog", "Person"])
    expectEqual(result.classes.map(\.objectsAfter), [300, count])
    let table = try #require(try RealmFile.open(path: path).group.table(forClass: "Person"))
    expectEqual(table.columns.last?.isBacklink, true, "public columns before backlink columns (§4.2)")
    let dog = try #require(try RealmFile.open(path: path).group.table(forClass: "Dog"))
    expectEqual(dog.clusterRoot, dogRoot, "a class with renames only keeps its cluster tree")
    #expect(dog.column(named: "title") != nil)
  }

  /// Corrupt files: the editor either works or throws, never traps or hangs.
  @Test func corruptFilesThrowOrWork() throws {
    let original = try Fixtures.bytes(Self.person)
    var edit = ColumnEditor.TableEdit()
    edit.removed = ["age"]
    edit.added = [ColumnEditor.NewColumn(property: Property(name: "email", type: .string, isOptional: true), value: .null)]
    edit.renamed = ["firstName": "first"]
    var random = SeededRandom(seed: 0xC0_1D)
    var applied = 0
    for _ in 0..<400 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let at = Int.random(in: 24..<bytes.count, using: &random)
        bytes[at] = UInt8.random(in: 0...255, using: &random)
      }
      guard let group = try? Group(reader: ByteReader(bytes: bytes)) else { continue }
      var sink = BufferNodeSink()
      if (try? ColumnEditor.apply(["class_Person": edit], to: group, sink: &sink)) != nil { applied += 1 }
    }
    #expect(applied > 0, "most single-byte changes leave the edited structures readable")
  }


  /// A failing write at any system call of the in-place commit leaves the old or the new
  /// version, readable and clean (the commit engine's guarantee, checked on this path).
  /// Both kinds of the column path: a constant column, and computed ones (a transform).
  @Test(arguments: [
    """
    {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
      "firstName": "string", "age": "int", "email": "string?"}}]}
    """,
    """
    {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
      "firstName": "string", "lastName": "string", "age": "string", "fullName": "string"}}],
     "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person",
       "set": {"fullName": "old.firstName + ' ' + old.lastName", "age": "string(old.age)"}}]}]}
    """,
  ])
  func failedWritesLeaveOldOrNewVersion(_ planText: String) throws {
    let plan = try PlanDecoder.decode(Array(planText.utf8))
    let recorder = FaultPointRecorder()
    var options = MigrationOptions()
    options.faultInjection = recorder.hook
    let reference = try copy(Self.person)
    try expectEqual(Migrator.migrate(path: reference, plan: plan, options: options).method, .inPlace)
    let newDump = try RealmDumper.dumpJSONL(reference)
    let oldDump = try RealmDumper.dumpJSONL(Fixtures.url(Self.person).path)
    #expect(recorder.points.filter(\.isBefore).count >= 3)
    // Every kind of system call of the commit made to fail (every one in the full sweep).
    for k in FaultPointSweep.failurePositions(recorder.points) {
      let path = try copy(Self.person)
      let failing = FaultCounter(failAt: k)
      var o = MigrationOptions()
      o.faultInjection = { failing.hook($0) }
      let outcome = Result { try Migrator.migrate(path: path, plan: plan, options: o) }
      let dump = try RealmDumper.dumpJSONL(path)
      if case .success = outcome { expectEqual(dump, newDump) } else { #expect(dump == oldDump || dump == newDump, "fault \(k)") }
      #expect(try RealmFile.open(path: path).group.check().isEmpty, "fault \(k)")
    }
  }
}
