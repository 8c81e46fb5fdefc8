import Foundation
import RealmJSON
import RealmStorage
import RealmTestSupport
import Testing

import RealmFormat
@testable import RealmQuery

/// Every query of `Tests/Fixtures/queries/queries.jsonl` (Realm Core 14.14.0's own answers on
/// the alltypes, embedded and nested-links fixtures) gives Realm's object keys, in Realm's
/// order when the query sorts, or is rejected when Realm rejects it. One test per family, so
/// that a failure names the family.
@Suite struct QueryFixtureTests {
  struct Case: Sendable, CustomStringConvertible {
    var file: String
    var className: String
    var query: String
    var keys: [Int64]?
    var error: String?
    var ordered: Bool
    var family: String
    var description: String { "\(family): [\(className)] \(query)" }
  }

  static let cases: [Case] = {
    guard let bytes = try? Fixtures.bytes("queries/queries.jsonl") else { return [] }
    var out: [Case] = []
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.isEmpty {
      guard let json = try? JSONParser.parse(Array(line.utf8)) else { continue }
      var keys: [Int64]?
      if case .array(let items)? = json["keys"] {
        keys = items.compactMap { if case .int(let i) = $0 { return i } else { return nil } }
      }
      var error: String?
      if case .string(let e)? = json["error"] { error = e }
      var ordered = false
      if case .bool(let b)? = json["ordered"] { ordered = b }
      func string(_ k: String) -> String { if case .string(let s)? = json[k] { return s } else { return "" } }
      out.append(
        Case(
          file: string("file"), className: string("class"), query: string("where"), keys: keys, error: error,
          ordered: ordered, family: string("family")))
    }
    return out
  }()

  static let families: [String] = Array(Set(cases.map(\.family))).sorted()

  /// The open fixture files, by path below `Tests/Fixtures`.
  static let files: [String: RealmFile] = {
    var out: [String: RealmFile] = [:]
    for path in Set(cases.map(\.file)) {
      out[path] = try? RealmFile.open(path: Fixtures.url(path).path)
    }
    return out
  }()

  /// The problem with one case, nil when it gives Realm's answer.
  static func check(_ c: Case) -> String? {
    guard let file = files[c.file] else { return "\(c): cannot open \(c.file)" }
    do {
      let schema = try file.group.schema()
      let query = try RealmQuery(c.query, className: c.className, schema: schema, group: file.group)
      let keys = try query.objectKeys(in: file.group)
      guard let expected = c.keys else {
        return "\(c): accepted (\(keys.count) objects), but Realm rejects it: \(c.error ?? "")"
      }
      if c.ordered ? keys != expected : Set(keys) != Set(expected) || keys.count != expected.count {
        let missing = Set(expected).subtracting(keys).sorted().prefix(8)
        let extra = Set(keys).subtracting(expected).sorted().prefix(8)
        return "\(c): \(keys.count) objects, Realm has \(expected.count); missing \(Array(missing)), extra \(Array(extra))"
          + (c.ordered ? "; first \(Array(keys.prefix(8))) vs \(Array(expected.prefix(8)))" : "")
      }
      return nil
    } catch {
      if c.keys == nil { return nil }
      return "\(c): rejected (\(error)), but Realm answers \(c.keys?.count ?? 0) objects"
    }
  }

  @Test("every query of a family gives Realm's answer", arguments: families)
  func family(_ name: String) {
    let problems = Self.cases.filter { $0.family == name }.compactMap(Self.check)
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test func allQueriesAreLoaded() {
    expectEqual(Self.cases.count, 144)
    expectEqual(Self.files.values.count, 3)
  }
}
