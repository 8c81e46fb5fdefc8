import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmEdit
import RealmFormat
import RealmStorage
import RealmMigration
import RealmEdit

/// `insert`'s in-place paths (the append of new objects, the object-wise upsert, both streamed)
/// commit through the write transaction: a failing system call at any point of the commit
/// leaves the old or the new version, readable and clean.
@Suite struct InsertInPlaceFaultTests {
  static let fixture = "user-tutorial/before.realm"
  /// Realm's file of every type, int primary keys (not ascending with the keys).
  static let allTypes = "alltypes/before.realm"

  static let newUsers = (0..<300).map { "{\"$class\":\"User\",\"name\":\"new \($0)\",\"age\":\($0)}" }.joined(separator: "\n") + "\n"

  /// Existing objects of three leaves changed (keys 0, 1, 300, 599) and a new one: a streamed upsert.
  static let allTypesUpsert = """
    {"$class":"AllTypes","_id":-9223372036854775808,"double_req":2.5,"string_opt":"changed"}
    {"$class":"AllTypes","_id":9223372036854775807,"bool_opt":true}
    {"$class":"AllTypes","_id":299993,"int_req":-4}
    {"$class":"AllTypes","_id":598993,"date_opt":null,"float_req":1.5}
    {"$class":"AllTypes","_id":42,"bool_req":true,"int_req":1,"float_req":1,"double_req":1,"decimal128_req":{"$decimal":"1"},\
    "objectId_req":{"$oid":"aaaaaaaaaaaaaaaaaaaaaaaa"},"uuid_req":{"$uuid":"aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa"},\
    "string_req":"new","data_req":{"$binary":""},"date_req":{"$date":"2001-01-01T00:00:00.000000000Z"},"mixed_val":null}

    """

  /// The file, the input, the mode, the path expected, and whether the JSON Lines are streamed
  /// (``DataEditor/insert(path:jsonLines:mode:options:)``, which must take its streamed path)
  /// or checked whole first.
  static let cases: [(file: String, lines: String, mode: InsertMode, path: MigrationResult.WritePath, streamed: Bool)] = [
    (fixture, newUsers, .insert, .append, false),
    (fixture, "{\"$class\":\"User\",\"$key\":3,\"age\":77}\n{\"$class\":\"User\",\"$key\":99,\"name\":\"last\"}\n", .upsert, .objects, false),
    (fixture, newUsers, .insert, .append, true),
    (allTypes, allTypesUpsert, .upsert, .objects, true),
  ]

  func copy(_ path: String, in dir: URL, as name: String) throws -> String {
    let dest = dir.appendingPathComponent(name)
    try FileManager.default.copyItem(at: URL(fileURLWithPath: path), to: dest)
    return dest.path
  }

  func insert(_ path: String, _ data: String, _ mode: InsertMode, streamed: Bool, _ options: MigrationOptions) throws -> EditResult {
    if streamed { return try DataEditor.insert(path: path, jsonLines: data, mode: mode, options: options) }
    return try DataEditor.insert(path: path, mode: mode, options: options) { schema in try InsertObject.jsonLines(path: data, schema: schema) }
  }

  @Test(arguments: 0..<4)
  func aFailedWriteLeavesTheOldOrTheNewVersion(_ index: Int) throws {
    let (file, lines, mode, expectedPath, streamed) = Self.cases[index]
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let data = dir.appendingPathComponent("data.jsonl").path
    try TestFiles.write(Array(lines.utf8), to: data)
    let original = Fixtures.url(file).path
    let reference = try copy(original, in: dir, as: "reference.realm")
    let recorder = FaultPointRecorder()
    var options = MigrationOptions()
    options.faultInjection = recorder.hook
    let result = try insert(reference, data, mode, streamed: streamed, options)
    expectEqual(result.writePath, expectedPath)
    expectEqual(result.streamed, streamed)
    let oldDump = try RealmDumper.dumpJSONL(original)
    let newDump = try RealmDumper.dumpJSONL(reference)
    #expect(oldDump != newDump)
    #expect(recorder.points.filter(\.isBefore).count >= 3)
    var sawOld = false
    // Every kind of system call of the commit made to fail (every one in the full sweep).
    for k in FaultPointSweep.failurePositions(recorder.points) {
      let path = try copy(original, in: dir, as: "fault-\(k).realm")
      let failing = FaultCounter(failAt: k)
      var o = MigrationOptions()
      o.faultInjection = { failing.hook($0) }
      let outcome = Result { try insert(path, data, mode, streamed: streamed, o) }
      let dump = try RealmDumper.dumpJSONL(path)
      if case .success = outcome {
        expectEqual(dump, newDump, "fault \(k)")
      } else {
        #expect(dump == oldDump || dump == newDump, "fault \(k)")
        if dump == oldDump { sawOld = true }
      }
      #expect(try RealmFile.open(path: path).group.check().isEmpty, "fault \(k)")
    }
    #expect(sawOld)
  }
}
