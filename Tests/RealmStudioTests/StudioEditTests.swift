import Foundation
import HTTPServer
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// Edits through the page's API: after each, Realm Core verifies the file and reads the
/// objects the edit meant (`../shared/tools/realm-oracle`); the other objects are unchanged.
@Suite struct StudioEditTests {
  /// Realm's dump of the file without the lines of `className` objects `except`.
  private func others(_ lines: [JSONValue], _ className: String, except keys: Set<Int64>) -> [String] {
    lines.filter { !($0["$class"]?.string == className && keys.contains($0["$key"]?.int ?? -1)) }.map { DumpComparison.canon($0) }
  }

  private func verified(_ path: String) throws {
    let failure = try RealmOracle.core14.verifyFailure(path)
    #expect(failure == nil, "Realm's verify: \(failure ?? "")")
  }

  /// A cell of each kind of value, edited in the dump's JSON (one object each): Realm reads
  /// each new value and the rest of the file as it was; the format stays 24.
  @Test(RealmOracle.enabled) func editingACellChangesThatValueOnly() throws {
    let edits: [(property: String, value: String, realmReads: String)] = [
      ("int_req", "-42", "-42"), ("string_opt", #""héllo\nworld""#, #""héllo\nworld""#), ("string_req", #""changed""#, #""changed""#),
      ("date_req", #"{"$date":"2024-02-29T12:34:56.5Z"}"#, #"{"$date":"2024-02-29T12:34:56.500000000Z"}"#),
      ("double_opt", #"{"$double":"NaN"}"#, #"{"$double":"NaN"}"#), ("target", #"{"$ref":"Target","$key":3}"#, #"{"$ref":"Target","$key":3}"#),
      ("int_list", "[1,2,3]", "[1,2,3]"), ("mixed_val", #"{"a":[1,"x"]}"#, #"{"a":[1,"x"]}"#), ("string_opt", "null", "null"),
      ("embedded", #"{"$class":"EmbeddedThing","label":"new","count":1,"tags":["t"],"when":null,"target":null}"#,
       #"{"$class":"EmbeddedThing","label":"new","count":1,"tags":["t"],"when":null,"target":null}"#),
    ]
    let h = try StudioHarness("alltypes/before.realm")
    let before = try RealmAnswers.dump(h.path)
    let keys = (0..<edits.count).map { Int64(5 + $0) }
    for (key, edit) in zip(keys, edits) {
      let answer = try h.post(StudioHarness.classPath("AllTypes", "objects/\(key)"), json: #"{"values":{"\#(edit.property)":\#(edit.value)}}"#)
      expectEqual(answer.status, 200, "\(edit.property): \(answer.text)")
      expectEqual(answer.json?["updated"]?.int, 1)
    }
    try verified(h.path)
    let after = try RealmAnswers.dump(h.path)
    expectEqual(others(after, "AllTypes", except: Set(keys)), others(before, "AllTypes", except: Set(keys)))
    for (key, edit) in zip(keys, edits) {
      let line = try #require(RealmAnswers.line(after, "AllTypes", key))
      let old = try #require(RealmAnswers.line(before, "AllTypes", key))
      let expected = try JSONParser.parse(edit.realmReads)
      expectEqual(DumpComparison.canon(line[edit.property] ?? .null), DumpComparison.canon(expected), "\(edit.property)")
      for m in old.members ?? [] where m.key != edit.property {
        expectEqual(DumpComparison.canon(line[m.key] ?? .null), DumpComparison.canon(m.value), "\(m.key) of \(key) changed")
      }
    }
    try expectEqual(h.get("/api/files/0").json?["fileFormat"]?.int, 24)
  }

  /// An object of a class without a primary key is named by its key; the edit reaches it.
  @Test(RealmOracle.enabled) func editingAnObjectWithoutPrimaryKey() throws {
    let h = try StudioHarness("person-rename-age/before.realm")
    let answer = try h.post(StudioHarness.classPath("Person", "objects/999"), json: #"{"values":{"age":7,"lastName":"Zed"}}"#)
    expectEqual(answer.status, 200, "\(answer.text)")
    try verified(h.path)
    let line = try #require(RealmAnswers.line(try RealmAnswers.dump(h.path), "Person", 999))
    expectEqual(line["age"]?.int, 7)
    expectEqual(line["lastName"]?.string, "Zed")
    try expectEqual(h.post(StudioHarness.classPath("Person", "objects/5000"), json: #"{"values":{"age":7}}"#).status, 404)
  }

  /// An object added from the form: Realm reads it with the values given, nulls and empty
  /// collections for the others.
  @Test(RealmOracle.enabled) func addingAnObject() throws {
    let h = try StudioHarness("alltypes/before.realm")
    let body = #"{"values":{"_id":777777,"bool_req":true,"int_req":12,"float_req":1.5,"double_req":2.5,"decimal128_req":{"$decimal":"3.25"},"objectId_req":{"$oid":"0123456789abcdef01234567"},"uuid_req":{"$uuid":"0f8fad5b-d9cb-469f-a165-70867728950e"},"string_req":"added","data_req":{"$binary":"AAEC"},"date_req":{"$date":"2000-01-01T00:00:00Z"},"target":{"$ref":"Target","$key":1}}}"#
    let answer = try h.post(StudioHarness.classPath("AllTypes", "objects"), json: body)
    expectEqual(answer.status, 200, "\(answer.text)")
    expectEqual(answer.json?["inserted"]?.int, 1)
    try verified(h.path)
    let keys = try #require(try RealmOracle.core14.queryKeys(h.path, className: "AllTypes", where: "_id == 777777"))
    expectEqual(keys.count, 1)
    let line = try #require(RealmAnswers.line(try RealmAnswers.dump(h.path), "AllTypes", keys[0]))
    expectEqual(line["string_req"]?.string, "added")
    expectEqual(line["string_opt"], .null)
    expectEqual(line["int_list"]?.array?.isEmpty, true)
    expectEqual(line["target"]?["$key"]?.int, 1)
  }

  /// Selected objects deleted: Realm no longer has them, links to them are null; objects owning
  /// embedded objects need the page to confirm (409 `cascade`, file untouched), then go with them.
  @Test(RealmOracle.enabled) func deletingSelectedObjects() throws {
    let h = try StudioHarness([("person-rename-age/before.realm", "people.realm"), ("embedded/before.realm", "contacts.realm")])
    let answer = try h.post(StudioHarness.classPath("Person", "delete"), json: #"{"keys":["3","10",998]}"#)
    expectEqual(answer.status, 200, "\(answer.text)")
    expectEqual(answer.json?["deleted"]?.int, 3)
    try verified(h.paths[0])
    let people = RealmAnswers.keys(try RealmAnswers.dump(h.paths[0]), of: "Person")
    expectEqual(people.count, 997)
    #expect(!people.contains(3) && !people.contains(10) && !people.contains(998))
    // A key that is not an object: nothing deleted.
    let before = try h.bytes(0)
    try expectEqual(h.post(StudioHarness.classPath("Person", "delete"), json: #"{"keys":["1","3"]}"#).status, 422)
    #expect(TestFiles.same(try h.bytes(0), before))

    let contacts = try RealmAnswers.dump(h.paths[1])
    let owner = try #require(contacts.first { $0["$class"]?.string == "Contact" && $0["address"] != .null }?["$key"]?.int)
    let untouched = try h.bytes(1)
    let refused = try h.post(StudioHarness.classPath("Contact", "delete", file: 1), json: #"{"keys":["\#(owner)"]}"#)
    expectEqual(refused.status, 409)
    expectEqual(refused.json?["code"]?.string, "cascade")
    #expect(TestFiles.same(try h.bytes(1), untouched))
    let cascaded = try h.post(StudioHarness.classPath("Contact", "delete", file: 1), json: #"{"keys":["\#(owner)"],"cascade":true}"#)
    expectEqual(cascaded.status, 200, "\(cascaded.text)")
    #expect((cascaded.json?["embeddedDeleted"]?.int ?? 0) > 0)
    try verified(h.paths[1])
    #expect(!RealmAnswers.keys(try RealmAnswers.dump(h.paths[1]), of: "Contact").contains(owner))
  }

  /// A CSV file and a JSON Lines file imported into a class, as `insert` imports them.
  @Test(RealmOracle.enabled) func importingCSVAndJSONLines() throws {
    let h = try StudioHarness("person-rename-age/before.realm")
    let csv = "firstName,lastName,age\nAda,Lovelace,36\n\"Grace, Brewster\",Hopper,85\n"
    let answer = try h.request("POST", StudioHarness.classPath("Person", "import?format=csv&name=people.csv"), body: Array(csv.utf8))
    expectEqual(answer.status, 200, "\(answer.text)")
    expectEqual(answer.json?["inserted"]?.int, 2)
    try verified(h.path)
    try expectEqual(RealmOracle.core14.queryKeys(h.path, className: "Person", where: "firstName == 'Grace, Brewster' AND age == 85")?.count, 1)
    let jsonl = #"{"$class":"Person","firstName":"Alan","lastName":"Turing","age":41}"# + "\n\n" + #"{"$class":"Person","firstName":"Edsger","lastName":"Dijkstra","age":72}"# + "\n"
    let second = try h.request("POST", StudioHarness.classPath("Person", "import?format=jsonl&name=more.jsonl"), body: Array(jsonl.utf8))
    expectEqual(second.status, 200, "\(second.text)")
    try verified(h.path)
    expectEqual(RealmAnswers.keys(try RealmAnswers.dump(h.path), of: "Person").count, 1004)
  }

  /// A synced realm offers `unsync`'s conversion: the new local realm is what `realmctl unsync`
  /// writes, Realm reads it, and the synced file is not changed.
  @Test(RealmOracle.enabled) func unsyncWritesALocalRealmBeside() throws {
    let source = Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/seed/synced.realm")
    let h = try StudioHarness([(source.path, "synced.realm")])
    let info = try h.get("/api/files/0")
    #expect(info.json?["sync"]?["kind"]?.string != nil)
    expectEqual(info.json?["editable"]?.bool, false)
    let before = try h.bytes()
    let answer = try h.post("/api/files/0/unsync", json: #"{"name":"local.realm"}"#)
    expectEqual(answer.status, 200, "\(answer.text)")
    #expect(TestFiles.same(try h.bytes(), before))
    let output = h.directory.appendingPathComponent("local.realm").path
    try verified(output)
    try expectEqual(h.post("/api/files/0/unsync", json: #"{"name":"local.realm"}"#).status, 422)
    try expectEqual(h.post("/api/files/0/unsync", json: #"{"name":"../escape.realm"}"#).json?["field"]?.string, "name")
  }
}
