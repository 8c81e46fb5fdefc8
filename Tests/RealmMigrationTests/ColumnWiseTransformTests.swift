import Foundation
import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmFormat
import RealmModel
import RealmQuery
import RealmStorage

/// Column-wise transforms (`Migrator+Columns.swift`, `ColumnEditor+Computed.swift`): transforms,
/// type and optionality changes computed cluster by cluster and committed in place must give
/// the same file contents as the rewrite, a clean integrity check, and leave the columns they
/// do not change where they are.
@Suite struct ColumnWiseTransformTests {
  let helper = InPlaceColumnTests()
  static let person = InPlaceColumnTests.person

  /// Migrates both ways, expects the column path, returns the migrated file.
  @discardableResult
  func columnWise(_ plan: String, input: String = Self.person) throws -> (path: String, result: MigrationResult) {
    try columnWise(input: input, plan: plan)
  }

  @discardableResult
  func columnWise(input: String, plan: String) throws -> (path: String, result: MigrationResult) {
    let out = try helper.migrateBothWays(input, plan: plan)
    expectEqual(out.result.writePath, .columns, "\(plan)")
    return out
  }

  func values(_ path: String, _ className: String) throws -> [[RealmValue]] {
    let group = try RealmFile.open(path: path).group
    var out: [[RealmValue]] = []
    try group.forEachObject(in: try #require(group.table(forClass: className))) { _, v in out.append(v) }
    return out
  }

  @Test func combinesFieldsIntoANewProperty() throws {
    let plan = """
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "lastName": "string", "age": "int", "fullName": "string"}}],
       "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person",
         "set": {"fullName": "old.firstName + ' ' + old.lastName"}}]}]}
      """
    let input = try helper.copy(Self.person)
    let before = try helper.firstLeafSlot(input, "Person", "lastName")
    let (path, result) = try columnWise(plan, input: input)
    expectEqual(result.classes.first?.objectsTouched, 1000)
    try expectEqual(helper.firstLeafSlot(path, "Person", "lastName").slot, before.slot, "unchanged columns are not copied")
    let rows = try values(path, "Person")
    expectEqual(rows[0], [.string("Niklaus"), .string("王"), .int(45), .string("Niklaus 王")])
  }

  @Test func fillsANewRequiredPropertyAndRemovesTheOldOnes() throws {
    try columnWise("""
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "initials": "string", "age": "int"}}],
       "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person",
         "set": {"initials": "substring(old.firstName, 0, 1) + substring(old.lastName, 0, 1)"}}]}]}
      """)
  }

  @Test func changesATypeInItsPlace() throws {
    let (path, _) = try columnWise("""
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "lastName": "string", "age": "string"}}],
       "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person", "set": {"age": "string(old.age) + ' years'"}}]}]}
      """)
    let table = try #require(try RealmFile.open(path: path).group.table(forClass: "Person"))
    expectEqual(table.columns.filter { !$0.isBacklink }.map { $0.name }, ["firstName", "lastName", "age"], "the final schema's order")
    try expectEqual(values(path, "Person")[0][2], .string("45 years"))
  }

  @Test func recomputesAColumnInPlaceWithAFilter() throws {
    let input = try helper.copy(Self.person)
    let ageBefore = try helper.firstLeafSlot(input, "Person", "age")
    let nameBefore = try helper.firstLeafSlot(input, "Person", "firstName")
    let keyBefore = try #require(try RealmFile.open(path: input).group.table(forClass: "Person")?.column(named: "age")).key
    let (path, _) = try columnWise(input: input, plan: """
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "lastName": "string", "age": "int"}}],
       "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person",
         "where": "age >= 50", "set": {"age": "old.age - 50"}}]}]}
      """)
    let table = try #require(try RealmFile.open(path: path).group.table(forClass: "Person"))
    expectEqual(table.column(named: "age")?.key, keyBefore, "a recomputed column keeps its key")
    #expect(try helper.firstLeafSlot(path, "Person", "age").slot != ageBefore.slot)
    try expectEqual(helper.firstLeafSlot(path, "Person", "firstName").slot, nameBefore.slot)
    let rows = try values(path, "Person")
    #expect(rows[0][2] == .int(45) && rows[1][2] == .int(50))
  }

  /// A later step reads what an earlier step of the same migration wrote.
  @Test func stepsReadWhatEarlierStepsWrote() throws {
    let (path, _) = try columnWise("""
      {"schemaVersion": 3, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "lastName": "string", "age": "int", "label": "string", "next": "int"}}],
       "migrations": [
         {"version": 2, "steps": [{"op": "transform", "class": "Person", "set": {"age": "old.age * 2", "next": "new.age + 1"}}]},
         {"version": 3, "steps": [{"op": "transform", "class": "Person", "where": "age > 100",
           "set": {"label": "old.firstName + ':' + string(old.age)"}}]}]}
      """)
    let names = try #require(try RealmFile.open(path: path).group.schema().objectSchema(named: "Person")).properties.map(\.name)
    let rows = try values(path, "Person").map { Dictionary(uniqueKeysWithValues: zip(names, $0)) }
    #expect(rows[0]["age"] == .int(90) && rows[0]["next"] == .int(91) && rows[0]["label"] == .string(""))
    #expect(rows[1]["age"] == .int(200) && rows[1]["label"] == .string("Niklaus:200"))
  }

  /// A recomputed indexed column gets a new search index equal to the one the rewrite builds.
  @Test func rebuildsTheSearchIndexOfARecomputedColumn() throws {
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "Tag", properties: [
        Property(name: "name", type: .string, isIndexed: true), Property(name: "n", type: .int, isIndexed: true),
      ]),
    ])
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    for i in 0..<3000 { try builder.append(className: "Tag", key: nil, values: [.string("t\(i % 700)"), .int(Int64(i % 13))]) }
    let file = try builder.finish()
    builder.sink.finish(header: file.header, fileSize: file.fileSize)
    let input = try Fixtures.temporaryDirectory().appendingPathComponent("tags.realm").path
    #expect(FileManager.default.createFile(atPath: input, contents: Data(builder.sink.bytes)))
    let plan = """
      {"schemaVersion": 2, "schema": [{"name": "Tag", "properties": {
        "name": {"type": "string", "indexed": true}, "n": {"type": "int", "indexed": true},
        "code": {"type": "string", "indexed": true}}}],
       "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Tag",
         "set": {"name": "old.name + '!'", "code": "string(old.n)"}}]}]}
      """
    let (path, _) = try columnWise(plan, input: input)
    let rewritten = try helper.copy(input)
    var options = MigrationOptions()
    options.inPlaceColumnChanges = false
    _ = try Migrator.migrate(path: rewritten, plan: try PlanDecoder.decode(Array(plan.utf8)), options: options)
    for column in ["name", "n", "code"] {
      try expectEqual(indexBytes(path, column), indexBytes(rewritten, column), "search index of \(column)")
    }
  }

  /// The search index of `column` of Tag, copied into a buffer (equal trees give equal bytes).
  func indexBytes(_ path: String, _ column: String) throws -> [UInt8] {
    let group = try RealmFile.open(path: path).group
    let ref = try #require(group.table(forClass: "Tag")?.column(named: column)).searchIndexRef
    #expect(!ref.isNull)
    var copier = NodeTreeCopier(reader: group.reader)
    var sink = BufferNodeSink()
    _ = try copier.copy(ref, into: &sink)
    return sink.bytes
  }

  @Test func primaryKeyLinkAndMixedChangesAreRewritten() throws {
    let pk = """
      {"schemaVersion": 2, "schema": [{"name": "Person", "primaryKey": "code", "properties": {
        "code": "string", "firstName": "string", "lastName": "string", "age": "int"}}],
       "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person", "set": {"code": "string(old.age) + old.firstName + old.lastName + string(uuid())"}}]}]}
      """
    var dryRun = MigrationOptions()
    dryRun.dryRun = true
    let pkResult = try Migrator.migrate(path: try helper.copy(Self.person), plan: try PlanDecoder.decode(Array(pk.utf8)), options: dryRun)
    expectEqual(pkResult.writePath, .rewrite)
    let mixed = """
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "lastName": "string", "age": "int", "any": "mixed"}}],
       "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person", "set": {"any": "old.age"}}]}]}
      """
    try helper.migrateBothWays(Self.person, plan: mixed, expectInPlace: false)
    let deletes = """
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "lastName": "string", "age": "int", "x": "int"}}],
       "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person", "set": {"x": "old.age"}},
         {"op": "deleteObjects", "class": "Person", "where": "age < 10"}]}]}
      """
    try helper.migrateBothWays(Self.person, plan: deletes, expectInPlace: false)
  }

  /// A transform that fails on some object leaves the file exactly as it was.
  @Test func aFailingTransformLeavesTheFileUntouched() throws {
    let path = try helper.copy(Self.person)
    let original = try Data(contentsOf: URL(fileURLWithPath: path))
    let plan = try PlanDecoder.decode(Array("""
      {"schemaVersion": 2, "schema": [{"name": "Person", "properties": {
        "firstName": "string", "lastName": "string", "age": "int", "n": "int"}}],
       "migrations": [{"version": 2, "steps": [{"op": "transform", "class": "Person", "set": {"n": "int(old.lastName)"}}]}]}
      """.utf8))
    #expect(throws: (any Error).self) { try Migrator.migrate(path: path, plan: plan) }
    try expectEqual(Data(contentsOf: URL(fileURLWithPath: path)), original)
  }

  /// Only the properties an expression reads are decoded.
  @Test func expressionsRecordWhatTheyRead() throws {
    let cls = ObjectSchema(name: "P", properties: [
      Property(name: "a", type: .string), Property(name: "b", type: .int), Property(name: "c", type: .int),
    ])
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [cls])
    let compiler = ExpressionCompiler(schema: schema, objectSchema: cls)
    try expectEqual(compiler.compileValue("old.a + string(old.c)").readsOld, [0, 2])
    try expectEqual(compiler.compileValue("'x'").readsOld, [])
    #expect(try compiler.compileValue("string(uuid())").drawsFromEnvironment)
    #expect(try !compiler.compileValue("string(now())").drawsFromEnvironment)
    let engine = MigrationExpressionEngine()
    let filter = try engine.compileFilter("b > 3 AND a BEGINSWITH 'q'", in: cls, schema: schema)
    expectEqual(filter.readsOld, [0, 1])
    #expect(!filter.isOrderSensitive)
  }
}
