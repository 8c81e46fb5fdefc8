import Foundation
import HTTPServer
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// Bad input from the page gets the commands' errors (the words of `realmctl insert`, `update`
/// and `delete`), with the property it is about, and nothing is written: the file is byte for
/// byte as before.
@Suite struct StudioBadInputTests {
  /// One refused request: its status, field and the end of its message.
  private func refused(
    _ h: StudioHarness, _ path: String, _ body: String, status: Int = 422, field: String?, says text: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = try h.bytes()
    let answer = try h.post(path, json: body)
    expectEqual(answer.status, status, "\(answer.text)", sourceLocation: sourceLocation)
    expectEqual(answer.json?["field"]?.string, field, "\(answer.text)", sourceLocation: sourceLocation)
    expectEqual(answer.json?["error"]?.string?.contains(text), true, "\(answer.text)", sourceLocation: sourceLocation)
    #expect(TestFiles.same(try h.bytes(), before), "the file changed", sourceLocation: sourceLocation)
  }

  @Test func aWrongTypeIsRefusedWithTheInsertMessage() throws {
    let h = try StudioHarness("alltypes/before.realm")
    let edit = StudioHarness.classPath("AllTypes", "objects/6")
    try refused(h, edit, #"{"values":{"int_req":"abc"}}"#, field: "int_req", says: "AllTypes.int_req: expected an integer, found a string 'abc'")
    try refused(h, edit, #"{"values":{"date_req":{"$date":"yesterday"}}}"#, field: "date_req", says: "AllTypes.date_req")
    try refused(h, edit, #"{"values":{"target":{"$ref":"Target","$key":999}}}"#, field: "target", says: "999")
    try refused(h, edit, #"{"values":{"int_req":null}}"#, field: "int_req", says: "AllTypes.int_req")
    try refused(h, edit, #"{"values":{"nosuch":1}}"#, field: "nosuch", says: "no property 'nosuch'")
    try refused(h, edit, #"{"values":{"_id":1}}"#, field: "_id", says: "primary key")
    try refused(h, edit, #"{"values":{}}"#, status: 400, field: nil, says: "names no property")
    try refused(h, edit, "not json", status: 400, field: nil, says: "not JSON")
  }

  @Test func aDuplicatePrimaryKeyIsRefused() throws {
    let h = try StudioHarness("alltypes/before.realm")
    try refused(
      h, StudioHarness.classPath("AllTypes", "objects"),
      #"{"values":{"_id":5993,"bool_req":true,"int_req":1,"float_req":1,"double_req":1,"decimal128_req":{"$decimal":"1"},"objectId_req":{"$oid":"0123456789abcdef01234567"},"uuid_req":{"$uuid":"0f8fad5b-d9cb-469f-a165-70867728950e"},"string_req":"x","data_req":{"$binary":""},"date_req":{"$date":"2000-01-01T00:00:00Z"}}}"#,
      field: "_id", says: "AllTypes._id: an object of 'AllTypes' with primary key '5993' already exists")
  }

  @Test func aMissingRequiredValueIsRefused() throws {
    let h = try StudioHarness("alltypes/before.realm")
    try refused(
      h, StudioHarness.classPath("AllTypes", "objects"), #"{"values":{"_id":123456789}}"#,
      field: "bool_req", says: "AllTypes.bool_req: the property is required and has no value")
  }

  @Test func aBadImportIsRefusedWithItsRow() throws {
    let h = try StudioHarness("person-rename-age/before.realm")
    let before = try h.bytes()
    let csv = "firstName,lastName,age\nAda,Lovelace,36\nBad,Row,old\n"
    let answer = try h.request("POST", StudioHarness.classPath("Person", "import?format=csv&name=people.csv"), body: Array(csv.utf8))
    expectEqual(answer.status, 422)
    expectEqual(answer.json?["error"]?.string?.contains("'people.csv' row 3"), true, "\(answer.text)")
    expectEqual(answer.json?["field"]?.string, "age")
    let jsonl = #"{"$class":"Person","firstName":"A","lastName":"B","age":1}"# + "\n{oops\n"
    let second = try h.request("POST", StudioHarness.classPath("Person", "import?format=jsonl&name=x.jsonl"), body: Array(jsonl.utf8))
    expectEqual(second.status, 422)
    expectEqual(second.json?["error"]?.string?.contains("'x.jsonl' line 2"), true, "\(second.text)")
    #expect(TestFiles.same(try h.bytes(), before))
  }

  /// A file whose lock an app holds: shown read-only with the reason, and an edit that races
  /// the app gets the commands' "locked" error with nothing written.
  @Test(.enabled(if: FlockHolder.isInstalled, "util-linux's flock is not installed: skipped"))
  func aFileLockedByAnAppIsReadOnly() throws {
    let h = try StudioHarness("alltypes/before.realm")
    let app = try FlockHolder(sharedLockOn: h.path + ".lock")
    defer { app.release() }
    let info = try h.get("/api/files/0")
    expectEqual(info.json?["editable"]?.bool, false)
    expectEqual(info.json?["readOnlyReason"]?.string?.contains("an app has the file open"), true)
    let before = try h.bytes()
    let answer = try h.post(StudioHarness.classPath("AllTypes", "objects/6"), json: #"{"values":{"int_req":1}}"#)
    expectEqual(answer.status, 409)
    expectEqual(answer.json?["code"]?.string, "locked")
    #expect(TestFiles.same(try h.bytes(), before))
    app.release()
    try expectEqual(h.get("/api/files/0").json?["editable"]?.bool, true)
  }

  /// `--read-only`: every change is refused and the file is never written.
  @Test func aReadOnlyStudioWritesNothing() throws {
    let h = try StudioHarness("alltypes/before.realm", readOnly: true)
    try expectEqual(h.get("/api/files/0").json?["readOnlyReason"]?.string, "the studio was started with --read-only")
    try expectEqual(h.get("/api/files").json?["readOnly"]?.bool, true)
    let before = try h.bytes()
    for (path, body) in [
      (StudioHarness.classPath("AllTypes", "objects/6"), #"{"values":{"int_req":1}}"#),
      (StudioHarness.classPath("AllTypes", "objects"), #"{"values":{"_id":1}}"#),
      (StudioHarness.classPath("AllTypes", "delete"), #"{"keys":["6"]}"#),
      (StudioHarness.classPath("AllTypes", "import?format=csv"), "_id\n99\n"),
      ("/api/files/0/unsync", #"{"name":"x.realm"}"#),
    ] {
      let answer = try h.post(path, json: body)
      expectEqual(answer.status, 409, "\(path)")
      expectEqual(answer.json?["code"]?.string, "readOnly")
    }
    #expect(TestFiles.same(try h.bytes(), before))
  }
}
