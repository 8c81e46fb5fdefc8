import Foundation
import HTTPServer
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// The page's reading API against Realm's answers: the oracle's dump, schema and query of the
/// same files (`../shared/tools/realm-oracle`).
@Suite struct StudioReadTests {
  /// Every object of every top-level class, walked in pages by key and by position, is Realm's
  /// dump in its order; each object's canonical values equal Realm's line by meaning.
  @Test(RealmOracle.enabled, arguments: ["alltypes", "embedded", "nested-links", "person-rename-age"])
  func pagesWalkEveryClassInRealmsOrderWithRealmsValues(fixture: String) throws {
    let h = try StudioHarness("\(fixture)/before.realm")
    let realm = try RealmAnswers.dump(h.path)
    let schema = try JSONParser.parse(try RealmOracle.core14.schema(h.path))
    for cls in schema["classes"]?.array ?? [] where cls["embedded"]?.bool != true {
      let name = try #require(cls["name"]?.string)
      let expected = RealmAnswers.keys(realm, of: name)
      try expectEqual(keys(h, name, step: "after", limit: 23), expected, "\(fixture) \(name) by key ranges")
      try expectEqual(keys(h, name, step: "offset", limit: 23), expected, "\(fixture) \(name) by positions")
      // The values of the first objects, as an edit starts from them.
      var ours: [JSONValue] = []
      var theirs: [JSONValue] = []
      for key in expected.prefix(12) {
        let object = try h.get(StudioHarness.classPath(name, "objects/\(key)"))
        expectEqual(object.status, 200)
        let properties = (cls["properties"]?.array ?? []).compactMap { $0["name"]?.string }
        let canonical = object.json?["canonical"]?.array ?? []
        var members = [JSONMember("$class", .string(name)), JSONMember("$key", .int(key))]
        for (p, text) in zip(properties, canonical) { members.append(JSONMember(p, try JSONParser.parse(text.string ?? "null"))) }
        ours.append(.object(members))
        theirs.append(try #require(RealmAnswers.line(realm, name, key)))
      }
      let problems = DumpComparison.compareDumps(expected: theirs, actual: ours, schema: schema)
      #expect(problems.isEmpty, "\(fixture) \(name): \(problems.prefix(5))")
    }
  }

  /// The objects of a page walk: by `after` (the last key of the page before) or by `offset`.
  private func keys(_ h: StudioHarness, _ className: String, step: String, query: String = "", limit: Int = 7) throws -> [Int64] {
    var keys: [Int64] = []
    var next = step == "after" ? "after=-1" : "offset=0"
    for _ in 0..<10_000 {
      let page = try h.get(StudioHarness.classPath(className, "objects?\(next)&limit=\(limit)\(query)"))
      expectEqual(page.status, 200, "\(page.text)")
      let objects = page.json?["objects"]?.array ?? []
      keys += objects.compactMap { $0["key"]?.string.flatMap { Int64($0) } }
      guard page.json?["hasMore"]?.bool == true, let last = keys.last else { break }
      next = step == "after" ? "after=\(last)" : "offset=\(keys.count)"
    }
    return keys
  }

  static let queries: [(fixture: String, className: String, query: String)] = [
    ("alltypes", "AllTypes", "int_req > 0"),
    ("alltypes", "AllTypes", "bool_req == true AND string_opt != nil"),
    ("alltypes", "AllTypes", "_id >= 200 AND _id < 330"),
    ("alltypes", "AllTypes", "target.value > 5"),
    ("alltypes", "AllTypes", "ANY targetList.name BEGINSWITH 't'"),
    ("alltypes", "AllTypes", "string_req CONTAINS[c] 'a'"),
    ("embedded", "Contact", "address.city BEGINSWITH 'S' OR phones.@count > 1"),
    ("person-rename-age", "Person", "age > 40"),
  ]

  /// A filter's pages (by key and by position, far positions included), its count, and a
  /// column sort are Realm's result for the same query.
  /// (Each walks its pages one request at a time, eleven objects a page: `make test` takes
  /// every other query, REALMCTL_FULL_FIXTURES=1 all of them.)
  @Test(RealmOracle.enabled, arguments: FixtureSample.spread(Array(0..<queries.count), every: 2))
  func filteredAndSortedPagesAreRealmsResult(index: Int) throws {
    let (fixture, className, query) = Self.queries[index]
    let h = try StudioHarness("\(fixture)/before.realm")
    let expected = try #require(try RealmOracle.core14.queryKeys(h.path, className: className, where: query))
    let filter = "&where=" + (query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    try expectEqual(keys(h, className, step: "after", query: filter, limit: 11), expected, "\(query) by key")
    try expectEqual(keys(h, className, step: "offset", query: filter, limit: 11), expected, "\(query) by position")
    for offset in [0, 1, 255, 256, 257, 300] where offset < expected.count {
      let page = try h.get(StudioHarness.classPath(className, "objects?offset=\(offset)&limit=9\(filter)"))
      let got = (page.json?["objects"]?.array ?? []).compactMap { $0["key"]?.string.flatMap { Int64($0) } }
      expectEqual(got, Array(expected.dropFirst(offset).prefix(9)), "\(query) at \(offset)")
    }
    let count = try h.get(StudioHarness.classPath(className, "count?where=\(filter.dropFirst(7))"))
    expectEqual(count.json?["count"]?.int, Int64(expected.count))
    // A column sort is the query with SORT(...).
    let property = className == "Person" ? "age" : className == "Contact" ? "name" : "int_req"
    for order in ["asc", "desc"] {
      let sorted = try #require(
        try RealmOracle.core14.queryKeys(
          h.path, className: className, where: "\(query) SORT(\(property) \(order == "asc" ? "ASC" : "DESC"))"))
      for offset in [0, 20] {
        let page = try h.get(StudioHarness.classPath(className, "objects?offset=\(offset)&limit=20&sort=\(property)&order=\(order)\(filter)"))
        let got = (page.json?["objects"]?.array ?? []).compactMap { $0["key"]?.string.flatMap { Int64($0) } }
        expectEqual(got, Array(sorted.dropFirst(offset).prefix(20)), "\(query) sorted \(order) at \(offset)")
      }
    }
  }

  /// A query's own SORT, DISTINCT and LIMIT give Realm's objects in Realm's order.
  @Test(RealmOracle.enabled, arguments: [
    "int_req > 0 SORT(double_req DESC) LIMIT(40)", "TRUEPREDICATE DISTINCT(bool_req)", "TRUEPREDICATE SORT(string_req ASC, _id DESC)",
  ])
  func queriesWithDescriptorsAreRealmsResult(query: String) throws {
    let h = try StudioHarness("alltypes/before.realm")
    let expected = try #require(try RealmOracle.core14.queryKeys(h.path, className: "AllTypes", where: query))
    let filter = "&where=" + (query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    try expectEqual(keys(h, "AllTypes", step: "offset", query: filter, limit: 17), expected)
    let count = try h.get(StudioHarness.classPath("AllTypes", "count?\(filter.dropFirst())"))
    expectEqual(count.json?["count"]?.int, Int64(expected.count))
  }

  /// A query that does not compile is a 400 naming its column, as `dump --where` reports it.
  @Test func badQueryNamesItsColumn() throws {
    let h = try StudioHarness("alltypes/before.realm")
    for (query, column) in [("int_req > ", 11), ("nosuch == 3", 1), ("int_req == 'text'", 9)] {
      let page = try h.get(StudioHarness.classPath("AllTypes", "objects?where=\(query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"))
      expectEqual(page.status, 400)
      expectEqual(page.json?["code"]?.string, "query")
      expectEqual(page.json?["column"]?.int, Int64(column), "\(query): \(page.text)")
      expectEqual((page.json?["error"]?.string ?? "").isEmpty, false)
    }
    let sortOfList = try h.get(StudioHarness.classPath("AllTypes", "objects?sort=int_list"))
    expectEqual(sortOfList.status, 400)
    let unknown = try h.get(StudioHarness.classPath("Nope", "objects"))
    expectEqual(unknown.status, 422)
    expectEqual(unknown.json?["error"]?.string?.contains("class 'Nope' not found"), true)
  }

  /// The objects linking to each Target ("linking objects") are Realm's links to it, once per
  /// link, per linking property.
  @Test(RealmOracle.enabled) func backlinksAreRealmsLinks() throws {
    let h = try StudioHarness("alltypes/before.realm")
    let realm = try RealmAnswers.dump(h.path)
    // Expected: for each Target key, the AllTypes keys linking to it, per property (multisets).
    var expected: [Int64: [String: [Int64]]] = [:]
    func links(_ v: JSONValue, into out: inout [Int64]) {
      switch v {
      case .object(let members):
        if members.first?.key == "$ref", v["$ref"]?.string == "Target", let k = v["$key"]?.int { out.append(k); return }
        if members.first?.key == "$class" { return }  // an embedded object: its links are its own
        for m in members { links(m.value, into: &out) }
      case .array(let items): for i in items { links(i, into: &out) }
      default: break
      }
    }
    for line in realm where line["$class"]?.string == "AllTypes" {
      let origin = try #require(line["$key"]?.int)
      for m in line.members ?? [] where !m.key.hasPrefix("$") {
        var found: [Int64] = []
        links(m.value, into: &found)
        for target in found { expected[target, default: [:]][m.key, default: []].append(origin) }
      }
    }
    #expect(!expected.isEmpty)
    for key in RealmAnswers.keys(realm, of: "Target") {
      let object = try h.get(StudioHarness.classPath("Target", "objects/\(key)"))
      // Per property: the number of links, and the keys listed (the first 100) among them.
      var counts: [String: Int] = [:]
      let want = expected[key] ?? [:]
      for b in object.json?["backlinks"]?.array ?? [] where b["class"]?.string == "AllTypes" {
        let property = b["property"]?.string ?? "?"
        let keys = (b["keys"]?.array ?? []).compactMap { $0.string.flatMap { Int64($0) } }
        counts[property] = Int(b["n"]?.int ?? 0)
        expectEqual(keys.count, min(100, counts[property]!))
        var left = want[property] ?? []
        for k in keys {
          if let i = left.firstIndex(of: k) { left.remove(at: i) } else { Issue.record("Target \(key): \(property) lists \(k), which does not link there") }
        }
      }
      expectEqual(counts, want.mapValues(\.count), "Target \(key)")
    }
  }

  /// Expanding a value: the items of a list from an offset, a nested collection inside a mixed
  /// value by its path, an embedded object's properties.
  @Test func valuesExpandByPath() throws {
    let h = try StudioHarness([("nested-links/before.realm", "nested.realm"), ("embedded/before.realm", "embedded.realm")])
    let list = try h.get(StudioHarness.classPath("Holder", "objects/0/value?property=ml&path=%5B%5D"))
    expectEqual(list.json?["value"]?["t"]?.string, "list")
    expectEqual(list.json?["value"]?["n"]?.int, 2)
    // Holder 0: md = {"a": [Target 1], "b": {"c": Target 2}}.
    let inner = try h.get(StudioHarness.classPath("Holder", "objects/0/value?property=md&path=%5B%22b%22%5D"))
    let c = inner.json?["value"]?["entries"]?.array?.first
    expectEqual(c?["k"]?.string, "c")
    expectEqual(c?["v"]?["t"]?.string, "link")
    expectEqual(c?["v"]?["class"]?.string, "Target")
    expectEqual(c?["v"]?["key"]?.string, "2")
    let deep = try h.get(StudioHarness.classPath("Holder", "objects/0/value?property=m&path=%5B1%5D"))
    expectEqual(deep.json?["value"]?["items"]?.array?.first?["key"]?.string, "1")
    let missing = try h.get(StudioHarness.classPath("Holder", "objects/0/value?property=m&path=%5B9%5D"))
    expectEqual(missing.status, 404)
    // An embedded object and a list slice from an offset.
    let contacts = try h.get(StudioHarness.classPath("Contact", "objects?limit=60", file: 1))
    let withPhones = try #require(
      contacts.json?["objects"]?.array?.first { ($0["values"]?.array?[3]["n"]?.int ?? 0) >= 2 }?["key"]?.string)
    let phones = try h.get(StudioHarness.classPath("Contact", "objects/\(withPhones)/value?property=phones&offset=1&limit=1", file: 1))
    expectEqual(phones.json?["value"]?["offset"]?.int, 1)
    expectEqual(phones.json?["value"]?["items"]?.array?.count, 1)
    expectEqual(phones.json?["value"]?["items"]?.array?.first?["t"]?.string, "embedded")
  }

  /// The schema of the page is Realm's schema.
  @Test(RealmOracle.enabled) func schemaIsRealmsSchema() throws {
    let h = try StudioHarness("alltypes/before.realm")
    let realm = try JSONParser.parse(try RealmOracle.core14.schema(h.path))
    let ours = try h.get("/api/files/0/schema")
    let realmClasses = realm["classes"]?.array ?? []
    let ourClasses = ours.json?["classes"]?.array ?? []
    expectEqual(realmClasses.compactMap { $0["name"]?.string }, ourClasses.compactMap { $0["name"]?.string })
    for (r, o) in zip(realmClasses, ourClasses) {
      expectEqual(r["primaryKey"]?.string, o["primaryKey"]?.string)
      let rp = r["properties"]?.array ?? []
      let op = o["properties"]?.array ?? []
      expectEqual(rp.count, op.count)
      for (a, b) in zip(rp, op) {
        expectEqual(a["name"]?.string, b["name"]?.string)
        expectEqual(a["indexed"]?.bool, b["indexed"]?.bool, "\(a["name"]?.string ?? "")")
        expectEqual(a["optional"]?.bool, b["optional"]?.bool, "\(a["name"]?.string ?? "")")
        let collection = b["collection"]?.string ?? "single"
        expectEqual(a["type"]?.string, (collection == "single" ? b["type"]?.string : collection))
        expectEqual(a["objectType"]?.string, (collection == "single" ? b["objectType"]?.string : (b["objectType"]?.string ?? b["type"]?.string)))
      }
    }
    for language in ["swift", "kotlin", "java", "javascript", "typescript", "dart", "csharp"] {
      let code = try h.get("/api/files/0/models/\(language)")
      expectEqual(code.status, 200)
      #expect(code.text.contains("AllTypes"), "\(language)")
    }
    try expectEqual(h.get("/api/files/0/models/cobol").status, 404)
  }

  /// Each property's index kind is the one Realm has: a full-text index (Realm answers `TEXT`)
  /// is `full-text`, a search index `general`, and both count as indexed.
  @Test(RealmOracle.enabled, arguments: ["fulltext/before-24.realm", "fulltext/before-23.realm"])
  func indexKindsAreRealms(_ fixture: String) throws {
    let h = try StudioHarness(fixture)
    let realm = try IndexAgreement.indexKinds(h.path)
    #expect(realm.values.contains("full-text"))
    var ours: [String: String] = [:]
    for c in try h.get("/api/files/0/schema").json?["classes"]?.array ?? [] {
      for p in c["properties"]?.array ?? [] {
        let name = "\(c["name"]?.string ?? "").\(p["name"]?.string ?? "")"
        let kind = p["indexKind"]?.string ?? "?"
        expectEqual(p["indexed"]?.bool, (kind != "none"), "\(name)")
        if kind != "none" { ours[name] = kind }
      }
    }
    expectEqual(ours, realm)
  }

  /// What `open` shows: the format, the classes with Realm's counts, whether editing is possible.
  @Test(RealmOracle.enabled) func infoIsWhatOpenShows() throws {
    let h = try StudioHarness("embedded/before.realm")
    let info = try h.get("/api/files/0")
    let realm = try RealmAnswers.dump(h.path)
    expectEqual(info.json?["fileFormat"]?.int, 24)
    expectEqual(info.json?["editable"]?.bool, true)
    expectEqual(info.json?["readOnlyReason"], .null)
    let contact = info.json?["classes"]?.array?.first { $0["name"]?.string == "Contact" }
    expectEqual(contact?["objects"]?.int, Int64(RealmAnswers.keys(realm, of: "Contact").count))
    expectEqual(contact?["primaryKey"]?.string, "_id")
    expectEqual(info.json?["classes"]?.array?.first { $0["name"]?.string == "Address" }?["embedded"]?.bool, true)
    try expectEqual(h.get("/api/files/1").status, 404)
    try expectEqual(h.get("/api/files").json?["files"]?.array?.count, 1)
  }

  /// A class exported as JSON Lines is Realm's dump of that class; a query's export holds the
  /// query's objects; CSV and SQL come out as `dump` writes them.
  @Test(RealmOracle.enabled) func exportsAreTheDumpOfTheClass() throws {
    let h = try StudioHarness("alltypes/before.realm")
    let realm = try RealmAnswers.dump(h.path)
    let schema = try JSONParser.parse(try RealmOracle.core14.schema(h.path))
    let jsonl = try h.get(StudioHarness.classPath("Target", "export?format=jsonl"))
    expectEqual(jsonl.status, 200)
    expectEqual(jsonl.response.header("Content-Disposition")?.contains("attachment; filename=\"test-Target.jsonl\""), true)
    let lines = try jsonl.text.split(separator: "\n").map { try JSONParser.parse(String($0)) }
    let problems = DumpComparison.compareDumps(
      expected: realm.filter { $0["$class"]?.string == "Target" }, actual: lines, schema: schema)
    #expect(problems.isEmpty, "\(problems.prefix(3))")
    let query = "value > 3"
    let expected = try #require(try RealmOracle.core14.queryKeys(h.path, className: "Target", where: query))
    let filtered = try h.get(StudioHarness.classPath("Target", "export?format=jsonl&where=value%20%3E%203"))
    try expectEqual(filtered.text.split(separator: "\n").map { try JSONParser.parse(String($0))["$key"]?.int }, expected.map { $0 })
    let csv = try h.get(StudioHarness.classPath("Target", "export?format=csv"))
    #expect(csv.text.hasPrefix("$key,name,value,note"))
    expectEqual(csv.text.split(whereSeparator: \.isNewline).count, RealmAnswers.keys(realm, of: "Target").count + 1)
    let sql = try h.get(StudioHarness.classPath("Target", "export?format=sql"))
    #expect(sql.text.contains("CREATE TABLE"))
    try expectEqual(h.get(StudioHarness.classPath("Target", "export?format=xml")).status, 400)
    try expectEqual(h.get(StudioHarness.classPath("Target", "export?where=nosuch%20%3D%3D%201")).status, 400)
  }

  /// An encrypted file: the page is asked for the key, a wrong key is refused, the right one
  /// opens the file; no answer ever carries the key.
  @Test(RealmOracle.enabled) func encryptedFileAsksForItsKey() throws {
    let h = try StudioHarness("encrypted/alltypes.realm", name: "secret.realm")
    let key = try String(contentsOf: Fixtures.url("encrypted/alltypes.key"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    let first = try h.get("/api/files/0")
    expectEqual(first.json?["needsKey"]?.bool, true)
    #expect(try h.get(StudioHarness.classPath("AllTypes", "objects")).status != 200)
    let wrong = String(repeating: "ab", count: 64)
    let refused = try h.post("/api/files/0/key", json: #"{"key":"\#(wrong)"}"#)
    expectEqual(refused.status, 422)
    expectEqual(refused.json?["field"]?.string, "key")
    #expect(!refused.text.contains(wrong))
    try expectEqual(h.post("/api/files/0/key", json: #"{"key":"12"}"#).status, 422)
    let accepted = try h.post("/api/files/0/key", json: #"{"key":"\#(key)"}"#)
    expectEqual(accepted.status, 200)
    #expect(!accepted.text.contains(key))
    let info = try h.get("/api/files/0")
    expectEqual(info.json?["encrypted"]?.bool, true)
    #expect(!info.text.contains(key))
    let realm = try RealmOracle.core14.dump(h.path, key: key)
    let expected = realm.split(separator: "\n").filter { $0.contains(#""$class":"Target""#) }.count
    let page = try h.get(StudioHarness.classPath("Target", "objects?limit=100"))
    expectEqual(page.json?["objects"]?.array?.count, expected)
  }

  /// The generation the page watches advances when the file changes on disk, and the next
  /// page shows the file as it is then.
  @Test func changesOnDiskAdvanceTheGeneration() throws {
    let h = try StudioHarness([("person-rename-age/before.realm", "a.realm"), ("alltypes/before.realm", "b.realm")])
    let before = try h.get("/api/files/0/changes").json?["generation"]?.int ?? 0
    try expectEqual(h.get("/api/files/0/changes").json?["generation"]?.int, before)
    let firstPage = try h.get(StudioHarness.classPath("Person", "objects?limit=1"))
    expectEqual(firstPage.json?["total"]?.int, 1000)
    // Another program replaces the file (as an atomic rewrite does).
    let replacement = h.directory.appendingPathComponent("new.realm")
    try FileManager.default.copyItem(at: Fixtures.url("user-tutorial/before.realm"), to: replacement)
    _ = rename(replacement.path, h.paths[0])
    let after = try h.get("/api/files/0/changes").json?["generation"]?.int ?? 0
    #expect(after > before)
    let classes = try h.get("/api/files/0/schema").json?["classes"]?.array?.compactMap { $0["name"]?.string }
    expectEqual(classes, ["User"])
    try expectEqual(h.get("/api/files/1/changes").json?["generation"]?.int, 1)
  }
}
