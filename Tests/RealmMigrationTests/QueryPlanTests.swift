import Foundation
import RealmTestSupport
import Testing

@testable import RealmMigration
import RealmJSON

/// `where` in migration plans is Realm Query Language; with SORT, DISTINCT or LIMIT it
/// selects among the class's objects as they are in the file.
@Suite struct QueryPlanTests {
  typealias S = ExecTestSupport

  /// The people of the fixture with their keys and ages, in key order.
  static func people(_ objects: [JSONValue]) -> [(key: Int64, age: Int64)] {
    objects.compactMap { o in
      guard case .int(let k)? = o["$key"], case .int(let a)? = o["age"] else { return nil }
      return (k, a)
    }
  }

  @Test func deleteTheOldestThree() throws {
    let (path, _) = try S.copyOfFixture()
    let before = Self.people(try S.objects(path))
    let plan = try S.plan(steps: #"{"op": "deleteObjects", "class": "Person", "where": "TRUEPREDICATE SORT(age DESC) LIMIT(3)"}"#)
    _ = try Migrator.migrate(path: path, plan: plan)
    // Realm's order: by age descending, ties in key order.
    let oldest = before.enumerated().sorted { a, b in
      a.element.age != b.element.age ? a.element.age > b.element.age : a.offset < b.offset
    }.prefix(3).map(\.element.key)
    let after = Self.people(try S.objects(path))
    expectEqual(after.count, before.count - 3)
    expectEqual(Set(before.map(\.key)).subtracting(after.map(\.key)), Set(oldest))
  }

  @Test func transformTheFirstOfEachAge() throws {
    let (path, _) = try S.copyOfFixture()
    let before = Self.people(try S.objects(path))
    let plan = try S.plan(steps: #"{"op": "transform", "class": "Person", "where": "age >= 50 DISTINCT(age)", "set": {"age": "old.age + 1000"}}"#)
    _ = try Migrator.migrate(path: path, plan: plan)
    var seen: Set<Int64> = []
    var expected: Set<Int64> = []
    for p in before where p.age >= 50 && seen.insert(p.age).inserted { expected.insert(p.key) }
    let changed = Set(Self.people(try S.objects(path)).filter { $0.age >= 1000 }.map(\.key))
    expectEqual(changed, expected)
    #expect(!expected.isEmpty)
  }

  @Test func aSelectionAfterAChangeToTheClassIsRefused() throws {
    let (path, _) = try S.copyOfFixture()
    let steps = [
      #"{"op": "transform", "class": "Person", "set": {"age": "old.age + 1"}}"#,
      #"{"op": "deleteObjects", "class": "Person", "where": "TRUEPREDICATE LIMIT(5)"}"#,
    ].joined(separator: ", ")
    let (message, unchanged) = try S.failingMigration(try S.plan(steps: steps), path: path)
    #expect(unchanged)
    #expect(message.contains("migrations[0].steps[1].where"), "\(message)")
    #expect(message.contains("SORT, DISTINCT and LIMIT select among the objects of 'Person' as they are in the file"), "\(message)")
  }

  @Test func plainQueriesFollowRealm() throws {
    let (path, _) = try S.copyOfFixture()
    let before = Self.people(try S.objects(path))
    let plan = try S.plan(steps: #"{"op": "deleteObjects", "class": "Person", "where": "age BETWEEN {20, 29} OR lastName ==[c] 'SMITH'"}"#)
    _ = try Migrator.migrate(path: path, plan: plan)
    let after = try S.objects(path)
    #expect(after.count < before.count)
    for o in after {
      guard case .int(let age)? = o["age"], case .string(let last)? = o["lastName"] else { continue }
      #expect(!(20...29).contains(age) && last.lowercased() != "smith")
    }
  }

  @Test func valueLanguageInWhereIsRefusedWithAHint() throws {
    let (path, _) = try S.copyOfFixture()
    let plan = try S.plan(steps: #"{"op": "deleteObjects", "class": "Person", "where": "old.age > 3"}"#)
    let (message, unchanged) = try S.failingMigration(plan, path: path)
    #expect(unchanged)
    #expect(message.contains("'Person' has no property 'old'"), "\(message)")
  }
}
