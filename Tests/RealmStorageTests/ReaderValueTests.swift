import Foundation
import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage
import RealmTestSupport
import Testing

/// Concrete values read from the fixtures, checked one by one against Realm's dump.jsonl (the
/// exhaustive comparison is in ``ReaderFixtureTests``; these pin the edge cases by name).
@Suite struct ReaderValueTests {
  struct Object {
    var values: [String: RealmValue]
    var line: JSONValue
    subscript(_ name: String) -> RealmValue? { values[name] }
    func matches(_ name: String) -> Bool {
      guard let v = values[name], let j = line[name] else { return false }
      return ReaderDumpMatcher.mismatch(v, j, path: name) == nil
    }
  }

  /// alltypes/dump.jsonl, parsed once.
  static let allTypesLines: [JSONValue]? = try? fixtureLines("alltypes/dump.jsonl")

  /// The object with `key` of `className` in the fixture `dir`, with its dump line.
  static func object(_ dir: String, _ className: String, key: Int64) throws -> Object {
    let file = try RealmFile.open(path: Fixtures.url("\(dir)/before.realm").path)
    let table = try #require(file.group.table(forClass: className))
    let values = try #require(try file.group.object(in: table, key: key))
    let lines = try #require(dir == "alltypes" ? allTypesLines : try fixtureLines("\(dir)/dump.jsonl"))
    let line = try #require(lines.first { $0["$class"] == .string(className) && $0["$key"] == .int(key) })
    var named: [String: RealmValue] = [:]
    for (c, v) in zip(table.publicColumns, values) { named[c.name] = v }
    return Object(values: named, line: line)
  }

  @Test func integerExtremes() throws {
    let first = try Self.object("alltypes", "AllTypes", key: 0)
    expectEqual(first["_id"], .int(.min))
    let second = try Self.object("alltypes", "AllTypes", key: 1)
    expectEqual(second["_id"], .int(.max))
    expectEqual(first["int_opt"], .null)
    expectEqual(first["bool_opt"], .null)
    #expect(first.matches("int_list"))
    expectEqual(first["int_list"], .list([.int(783_454_597_004_632), .int(-6276), .int(.max)]))
  }

  @Test func floatingPointSpecials() throws {
    let nan = try Self.object("alltypes", "AllTypes", key: 21)
    guard case .double(let d)? = nan["double_req"] else { Issue.record("not a double"); return }
    #expect(d.isNaN)
    let negativeZero = try Self.object("alltypes", "AllTypes", key: 39)
    guard case .double(let z)? = negativeZero["double_req"] else { Issue.record("not a double"); return }
    #expect(z == 0 && z.sign == .minus)
    guard case .double(let mz)? = negativeZero["mixed_val"] else { Issue.record("mixed is not a double"); return }
    #expect(mz == 0 && mz.sign == .minus)
    try expectEqual(Self.object("alltypes", "AllTypes", key: 9)["double_req"], .double(-.infinity))
    try expectEqual(Self.object("alltypes", "AllTypes", key: 3)["double_req"], .double(.greatestFiniteMagnitude))
    let obj1 = try Self.object("alltypes", "AllTypes", key: 1)
    expectEqual(obj1["float_req"], .float(-63687.914))
    #expect(obj1.matches("float_list"))
  }

  @Test func scalarsOfEveryType() throws {
    let o = try Self.object("alltypes", "AllTypes", key: 1)
    for name in ["decimal128_req", "date_req", "objectId_req", "uuid_req", "data_req", "string_req", "mixed_val"] {
      #expect(o.matches(name), "\(name)")
    }
    let o2 = try Self.object("alltypes", "AllTypes", key: 2)
    // 1582-10-15T12:00:00.000000001Z
    // Nanoseconds take the sign of the seconds (§6.5).
    expectEqual(o2["date_req"], .date(Timestamp(seconds: -12_219_249_599, nanoseconds: -999_999_999)))
    let o3 = try Self.object("alltypes", "AllTypes", key: 3)
    // 1E-6176: coefficient 1, biased exponent 0.
    expectEqual(o3["decimal128_req"], .decimal128(Decimal128(low: 1, high: 0)))
  }

  @Test func stringWithNul() throws {
    let o = try Self.object("alltypes", "AllTypes", key: 4)
    expectEqual(o["string_req"], .string("\u{0}nul inside"))
    expectEqual(o["mixed_val"], .float(1.6956432e+18))
  }

  @Test func nestedMixedCollections() throws {
    let o = try Self.object("alltypes", "AllTypes", key: 13)
    #expect(o.matches("mixed_val"))
    guard case .list(let items)? = o["mixed_val"] else { Issue.record("not a list"); return }
    expectEqual(items.count, 7)
    expectEqual(items[0], .int(1))
    expectEqual(items[1], .string("two"))
    expectEqual(items[4], .list([.int(4), .list([.int(5), .string("six")])]))
    expectEqual(items[6], .link(ObjectLink(className: "Target", key: 13)))
    let d = try Self.object("alltypes", "AllTypes", key: 14)
    #expect(d.matches("mixed_val"))
    guard case .dictionary(let entries)? = d["mixed_val"] else { Issue.record("not a dictionary"); return }
    expectEqual(entries.map(\.key), ["a", "b", "c", "date", "h", "link"])
    expectEqual(entries[4].value, .dictionary([]))
  }

  @Test func embeddedObjectsInline() throws {
    let o = try Self.object("embedded", "Contact", key: 1)
    #expect(o.matches("address"))
    guard case .embedded(let address)? = o["address"] else { Issue.record("address is not embedded"); return }
    expectEqual(address.className, "Address")
    expectEqual(address.properties.map(\.name), ["street", "city", "zip", "geo"])
    expectEqual(address.properties[0].value, .string("10 Backus Street"))
    guard case .embedded(let geo) = address.properties[3].value else { Issue.record("geo is not embedded"); return }
    expectEqual(geo.properties[2].value, .float(5.5))
    #expect(o.matches("phones"))
    #expect(o.matches("byLabel"))
  }

  @Test func linksInNestedCollections() throws {
    let file = try RealmFile.open(path: Fixtures.url("nested-links/before.realm").path)
    let lines = try fixtureLines("nested-links/dump.jsonl")
    var checked = 0
    for table in file.group.tables where table.className != nil && !table.isEmbedded {
      try file.group.forEachObject(in: table) { key, values in
        let line = try #require(lines.first { $0["$class"] == .string(table.className ?? "") && $0["$key"] == .int(key) })
        #expect(ReaderDumpMatcher.mismatch(line: line, key: key, columns: table.publicColumns, values: values) == nil)
        checked += 1
      }
    }
    expectEqual(checked, lines.count)
  }

  @Test func everyStringLeafForm() throws {
    let file = try RealmFile.open(path: Fixtures.url("strings/before.realm").path)
    let lines = try fixtureLines("strings/dump.jsonl")
    #expect(lines.count > 5000)
    var n = 0
    for table in file.group.tables where table.className != nil {
      try file.group.forEachObject(in: table) { key, values in
        let line = lines[n]
        #expect(ReaderDumpMatcher.mismatch(line: line, key: key, columns: table.publicColumns, values: values) == nil)
        n += 1
      }
    }
    expectEqual(n, lines.count)
  }

  @Test func matcherNoticesDifferences() throws {
    let o = try Self.object("alltypes", "AllTypes", key: 1)
    let j = try #require(o.line["int_req"])
    #expect(ReaderDumpMatcher.mismatch(.int(-2_821_932_054), j, path: "x") == nil)
    #expect(ReaderDumpMatcher.mismatch(.int(-2_821_932_055), j, path: "x") != nil)
    #expect(ReaderDumpMatcher.mismatch(.double(0.0), .double(-0.0), path: "x") != nil)
    #expect(ReaderDumpMatcher.mismatch(.list([.int(1)]), .array([.int(1), .int(2)]), path: "x") != nil)
    let dec = try #require(o.line["decimal128_req"])
    guard case .decimal128(let d)? = o["decimal128_req"] else { Issue.record("not a decimal"); return }
    #expect(ReaderDumpMatcher.mismatch(.decimal128(d), dec, path: "x") == nil)
    #expect(ReaderDumpMatcher.mismatch(.decimal128(Decimal128(low: d.low &+ 1, high: d.high)), dec, path: "x") != nil)
  }
}
