import Foundation
import RealmJSON
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

/// A file with indexes of every kind and the values that are hard to index, from a seed: the
/// schema, JSON Lines in the dump format, Realm's own file of them (`oracle create`), and
/// random values of each property for the writers' inputs.
///
/// - `Item` (primary key `id`, int): indexed `name` (words, accented and mixed case,
///   duplicates), `code` (optional, some sharing more than 200 bytes), `flag`, `when`
///   (dates before 1970 with fractions), `oid`, `uid`, `count`; `m`, an indexed `mixed` whose
///   type alternates by object key over every type, with values that share index data (`0`
///   and `false`, `"a"` and binary `a`, an ObjectId of zeros and the date 0, `2` and
///   the decimal 2.5) and links; an unindexed `plain` date, `tags`, an `owner` link;
///   with `fullText`, a full-text indexed `text`.
/// - `Person` (primary key `_id`, ObjectId): indexed `name`, `born`, a list of items (so
///   `Item` has backlinks).
/// - `Code` (primary key `code`, string) and `Tag` (primary key `u`, UUID).
struct IndexedSample {
  var random: SeededRandom
  let fullText: Bool

  init(seed: UInt64, fullText: Bool = false) {
    random = SeededRandom(seed: seed)
    self.fullText = fullText
  }

  func schema(format: Int = 24) -> String {
    let text = fullText ? #", {"name": "text", "type": "string", "optional": true, "indexed": "full-text"}"# : ""
    return """
      {"schemaVersion": 1, "fileFormat": \(format), "classes": [
       {"name": "Code", "embedded": false, "primaryKey": "code", "properties": [
         {"name": "code", "type": "string", "optional": false, "indexed": true},
         {"name": "n", "type": "int", "optional": false, "indexed": false}]},
       {"name": "Item", "embedded": false, "primaryKey": "id", "properties": [
         {"name": "id", "type": "int", "optional": false, "indexed": true},
         {"name": "name", "type": "string", "optional": false, "indexed": true},
         {"name": "code", "type": "string", "optional": true, "indexed": true},
         {"name": "flag", "type": "bool", "optional": false, "indexed": true},
         {"name": "when", "type": "date", "optional": true, "indexed": true},
         {"name": "plain", "type": "date", "optional": false, "indexed": false},
         {"name": "oid", "type": "objectId", "optional": false, "indexed": true},
         {"name": "uid", "type": "uuid", "optional": true, "indexed": true},
         {"name": "m", "type": "mixed", "optional": true, "indexed": true},
         {"name": "count", "type": "int", "optional": true, "indexed": true},
         {"name": "tags", "type": "list", "objectType": "string", "optional": false, "indexed": false},
         {"name": "owner", "type": "object", "objectType": "Person", "optional": true, "indexed": false}\(text)]},
       {"name": "Person", "embedded": false, "primaryKey": "_id", "properties": [
         {"name": "_id", "type": "objectId", "optional": false, "indexed": true},
         {"name": "name", "type": "string", "optional": false, "indexed": true},
         {"name": "born", "type": "date", "optional": true, "indexed": false},
         {"name": "items", "type": "list", "objectType": "Item", "optional": false, "indexed": false}]},
       {"name": "Tag", "embedded": false, "primaryKey": "u", "properties": [
         {"name": "u", "type": "uuid", "optional": false, "indexed": true},
         {"name": "label", "type": "string", "optional": true, "indexed": true}]}]}
      """
  }

  // MARK: - Values

  mutating func int(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }

  static let words = [
    "lorem", "ipsum", "Dolor", "café", "CAFE", "Zoë", "naïve", "Ångström", "über", "straße", "a", "A", "",
    "日本語", "emoji 👍🏽", "crème brûlée", "e\u{301}", "é", "x\u{0}y", "Lorem-Ipsum", "déjà vu", "ÉLAN",
  ]

  mutating func word() -> String { Self.words[int(Self.words.count)] }

  mutating func sentence() -> String { (0..<(1 + int(5))).map { _ in word() }.joined(separator: [" ", ", ", " — ", "/"][int(4)]) }

  /// A date around 1970 (often before, often with a fraction), or far away.
  mutating func date() -> String {
    let seconds: Int64
    switch int(4) {
    case 0: seconds = Int64(int(7)) - 4
    case 1: seconds = -Int64(int(3_000_000_000))
    case 2: seconds = Int64(int(3_000_000_000))
    default: seconds = [-1, 0, -62_135_596_800, 253_402_300_799][int(4)]
    }
    let nanos = [0, 250_000_000, 999_999_999, 1, Int64(int(1_000_000_000))][int(5)]
    let t = Timestamp(seconds: seconds, addingNanoseconds: nanos)!
    if let text = t.text { return "{\"$date\":\"\(text)\"}" }
    return "{\"$date\":{\"seconds\":\(t.seconds),\"nanoseconds\":\(t.nanoseconds)}}"
  }

  static func string(_ s: String) -> String {
    var w = JSONWriter(capacity: 64)
    w.value(s)
    return String(decoding: w.buffer, as: UTF8.self)
  }

  mutating func objectId() -> String {
    int(3) == 0 ? "{\"$oid\":\"000000000000000000000000\"}" : String(format: "{\"$oid\":\"%024llx\"}", random.next() % 5000)
  }

  mutating func uuid() -> String {
    String(format: "{\"$uuid\":\"00000000-0000-4000-8000-%012llx\"}", random.next() % 3000)
  }

  /// A value of `m` for object `key`: the type follows the key, so types alternate.
  mutating func mixed(_ key: Int, persons: Int) -> String {
    switch key % 14 {
    case 0: return ["0", "1", "2", "-1", "3000000000"][int(5)]
    case 1: return ["false", "true"][int(2)]
    case 2: return Self.string(["a", "", "lorem", "0"][int(4)])
    case 3: return "{\"$binary\":\"\(["YQ==", "", "bG9yZW0="][int(3)])\"}"
    case 4: return ["{\"$date\":\"1970-01-01T00:00:00.000000000Z\"}", date()][int(2)]
    case 5: return objectId()
    case 6: return "{\"$double\":\([0.0, 0.5, 3e9, 2.0, -1.25][int(5)])}"
    case 7: return "{\"$float\":\(["0.0", "0.5", "2.0", "1e+10"][int(4)])}"
    case 8: return "{\"$decimal\":\"\(["0", "2.5", "2", "-7.9", "1E+30"][int(5)])\"}"
    case 9: return uuid()
    case 10: return "null"
    case 11: return persons > 0 ? "{\"$ref\":\"Person\",\"$key\":\(int(persons))}" : "null"
    case 12: return int(2) == 0 ? "0" : "false"
    default: return Self.string(word())
    }
  }

  // MARK: - Objects

  /// Item `id` with key `id`, owned by one of `persons` persons.
  mutating func item(_ id: Int, persons: Int) -> String {
    let code = int(4) == 0 ? "null" : Self.string(int(5) == 0 ? String(repeating: "p", count: 203) + word() : "c\(int(40))")
    let uid = int(5) == 0 ? "null" : uuid()
    let count = int(4) == 0 ? "null" : "\(int(9) - 4)"
    let tags = "[" + (0..<int(3)).map { _ in Self.string(word()) }.joined(separator: ",") + "]"
    let owner = persons > 0 && int(3) > 0 ? "{\"$ref\":\"Person\",\"$key\":\(int(persons))}" : "null"
    let text = fullText ? ",\"text\":\(int(6) == 0 ? "null" : Self.string(sentence()))" : ""
    return "{\"$class\":\"Item\",\"$key\":\(id),\"id\":\(id),\"name\":\(Self.string(word() + (int(2) == 0 ? "" : " \(int(5))"))),"
      + "\"code\":\(code),\"flag\":\(int(2) == 0),\"when\":\(int(6) == 0 ? "null" : date()),\"plain\":\(date()),"
      + "\"oid\":\(objectId()),\"uid\":\(uid),\"m\":\(mixed(id, persons: persons)),\"count\":\(count),"
      + "\"tags\":\(tags),\"owner\":\(owner)\(text)}"
  }

  mutating func person(_ key: Int, items: Int) -> String {
    let links = (0..<int(3)).map { _ in "{\"$ref\":\"Item\",\"$key\":\(int(max(1, items)))}" }.joined(separator: ",")
    return "{\"$class\":\"Person\",\"$key\":\(key),\"_id\":{\"$oid\":\"\(String(format: "%024llx", UInt64(key + 1)))\"},"
      + "\"name\":\(Self.string(word())),\"born\":\(int(3) == 0 ? "null" : date()),\"items\":[\(items > 0 ? links : "")]}"
  }

  /// The lines of `items` items, `persons` persons, and a few codes and tags (in the dump's
  /// order: classes by name, objects by key).
  mutating func lines(items: Int, persons: Int) -> [String] {
    var out: [String] = []
    for i in 0..<6 { out.append("{\"$class\":\"Code\",\"$key\":\(i),\"code\":\(Self.string(["c\(i)", "é\(i)", "C\(i)"][i % 3])),\"n\":\(i)}") }
    for i in 0..<items { out.append(item(i, persons: persons)) }
    for p in 0..<persons { out.append(person(p, items: items)) }
    for i in 0..<5 { out.append("{\"$class\":\"Tag\",\"$key\":\(i),\"u\":{\"$uuid\":\"00000000-0000-4000-8000-00000000000\(i)\"},\"label\":\(i == 2 ? "null" : Self.string(word()))}") }
    return out
  }

  // MARK: - Files

  /// Realm's own file of `lines`, written by the Realm Core of `format`.
  func realmsFile(_ lines: [String], in dir: URL, as name: String, format: Int = 24) throws -> String {
    let schema = try CommandTestSupport.write(schema(format: format), to: dir, as: "\(name).schema.json")
    let data = try CommandTestSupport.write(lines.joined(separator: "\n") + "\n", to: dir, as: "\(name).jsonl")
    let path = dir.appendingPathComponent(name).path
    let oracle = RealmOracle.ownCore(ofFormat: format) ?? .core14
    let r = try oracle.run(["create", "--schema", schema, "--version", "1", "--data", data, path])
    try #require(r.status == 0, "\(r.output)\(r.errorOutput)")
    return path
  }
}
