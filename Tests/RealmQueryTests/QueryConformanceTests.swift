import Foundation
import RealmFormat
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmQuery

/// Two corners of Realm's query language checked against Realm itself (`oracle query`) on the
/// alltypes fixture (600 objects, clusters of 256): `dict.@keys` comparisons (including the
/// keys Realm compares for a dictionary never created, and dictionaries of links), and
/// readable Timestamp literals (fields read as decimal, 32-bit seconds, before 1970 too).
@Suite struct QueryConformanceTests {
  static let path = Fixtures.url("alltypes/before.realm").path

  static let dictionaryQueries: [String] = {
    var out: [String] = []
    for p in ["int_dictionary", "string_dictionary_opt", "double_dictionary", "mixed_dictionary"] {
      out += [
        "ANY \(p).@keys == 'a'", "\(p).@keys == 'key1'", "\(p).@keys != 'a'", "ALL \(p).@keys == 'a'",
        "NONE \(p).@keys == 'a'", "\(p).@keys ==[c] 'KEY2'", "ANY \(p).@keys BEGINSWITH 'k'", "\(p).@keys == nil",
        "\(p).@keys != nil", "\(p).@keys > 'b'", "NONE \(p).@keys == nil", "ALL \(p).@keys == nil",
      ]
    }
    for p in ["targetDict", "embeddedDict"] {
      out += ["ANY \(p).@keys == 't0'", "\(p).@keys != 't0'", "ALL \(p).@keys == 't0'", "\(p).@keys == nil", "\(p).@keys IN {'t1', 'zz'}"]
    }
    return out
  }()

  static let timestampQueries = [
    "date_req > 2038-01-19@03:14:08", "date_req > 2038-01-19@03:14:09", "date_req > 2038-01-19T03:14:07",
    "date_req < 1960-01-01@00:00:00", "date_req > 1969-12-31@23:59:59:5", "date_req < 1970-01-01@00:00:00:1",
    "date_req == 1918-09-29@02:55:50:775000000", "date_req == 1918-09-29@02:55:50:0775000000",
    "date_opt == 1900-01-01@00:00:00", "date_opt > 1901-12-13@20:45:52", "date_req > 1901-01-01@00:00:09",
    "date_req between {1969-12-31@23:59:59:1, 1970-01-01@00:00:00:1}", "date_req > 2039-01-19@03:14:09",
  ]

  /// Issue 32: a first DISTINCT of each single property of the fixture (every type, nulls,
  /// a link, a mixed), alone, cut by a LIMIT (which our scan stops at), and sorted after the
  /// LIMIT: Realm's keys in Realm's order.
  static let distinctQueries: [String] = [
    "_id", "bool_req", "bool_opt", "int_req", "int_opt", "float_req", "float_opt", "double_req", "double_opt",
    "decimal128_req", "decimal128_opt", "objectId_req", "objectId_opt", "uuid_req", "uuid_opt", "string_req",
    "string_opt", "data_req", "data_opt", "date_req", "date_opt", "mixed_val", "target",
  ].flatMap { p in
    ["TRUEPREDICATE DISTINCT(\(p))", "int_req > 0 DISTINCT(\(p)) LIMIT(3)", "TRUEPREDICATE DISTINCT(\(p)) LIMIT(5) SORT(_id DESC)"]
  }

  @Test(RealmOracle.enabled, arguments: distinctQueries)
  func distinctGivesRealmsKeysInRealmsOrder(_ text: String) throws {
    let file = try RealmFile.open(path: Self.path)
    let schema = try file.group.schema()
    let realm = try #require(try RealmOracle.core14.queryKeys(Self.path, className: "AllTypes", where: text), "Realm rejects \(text)")
    let query = try RealmQuery(text, className: "AllTypes", schema: schema, group: file.group)
    let ours = try query.objectKeys(in: file.group)
    expectEqual(ours, realm, "\(text): \(ours.prefix(10)) (\(ours.count)), Realm \(realm.prefix(10)) (\(realm.count))")
  }

  @Test(RealmOracle.enabled, arguments: dictionaryQueries + timestampQueries)
  func givesRealmsAnswer(_ text: String) throws {
    let file = try RealmFile.open(path: Self.path)
    let schema = try file.group.schema()
    let realm = try #require(try RealmOracle.core14.queryKeys(Self.path, className: "AllTypes", where: text), "Realm rejects \(text)")
    let query = try RealmQuery(text, className: "AllTypes", schema: schema, group: file.group)
    let ours = try query.objectKeys(in: file.group)
    #expect(Set(ours) == Set(realm) && ours.count == realm.count, "\(text): \(ours.count) objects, Realm \(realm.count)")
  }

  /// The fixture has what the checks need: never-created dictionaries next to filled ones
  /// across cluster boundaries, and dates before 1970.
  @Test func theFixtureHasWhatTheChecksNeed() throws {
    let file = try RealmFile.open(path: Self.path)
    let schema = try file.group.schema()
    let empty = try RealmQuery("int_dictionary.@count == 0", className: "AllTypes", schema: schema, group: file.group)
    #expect(try empty.objectKeys(in: file.group).count > 100)
    let old = try RealmQuery("date_req < T0:0", className: "AllTypes", schema: schema, group: file.group)
    #expect(try old.objectKeys(in: file.group).count > 100)
  }
}
