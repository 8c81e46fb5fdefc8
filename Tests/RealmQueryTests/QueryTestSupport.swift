import RealmModel
import RealmTestSupport
import Testing

@testable import RealmQuery

extension PersonFixture {
  /// Evaluates a `where` query (Realm Query Language) on Person, links followed in
  /// ``objects``.
  static func filter(
    _ source: String, _ overrides: [String: RealmValue] = [:], className: String = "Person", key: Int64 = 0
  ) throws -> Bool {
    let query = try RealmQuery(source, className: className, schema: schema)
    let cls = schema.objectSchema(named: className) ?? person
    return try query.matches(values: values(overrides, of: cls), key: key, source: objects)
  }

  /// The objects links point to: Dogs 1 (Rex, owned by Person 7) and 2 (Fido), Person 7 (Grace
  /// Hopper).
  static var objects: InMemoryQuerySource {
    InMemoryQuerySource(schema: schema, objects: [
      "Dog": [
        1: values(["name": .string("Rex"), "age": .int(3), "owner": .link(ObjectLink(className: "Person", key: 7))], of: dog),
        2: values(["name": .string("Fido"), "age": .int(5)], of: dog),
      ],
      "Person": [7: values(["firstName": .string("Grace"), "lastName": .string("Hopper"), "bestFriend": .null])],
    ])
  }
}

/// Expects the query `marked` on Person (with `⟪` at the expected column, removed) to fail to
/// compile with `message`.
func expectQueryError(_ marked: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
  let parts = marked.split(separator: "⟪", omittingEmptySubsequences: false).map(String.init)
  let source = parts.joined()
  let column = parts.count > 1 ? parts[0].count + 1 : -1
  do {
    _ = try RealmQuery(source, className: "Person", schema: PersonFixture.schema)
    Issue.record("'\(marked)' compiled, expected: \(message)", sourceLocation: sourceLocation)
  } catch {
    // The initializer throws only QueryError (typed throws).
    expectEqual(error.message, message, sourceLocation: sourceLocation)
    expectEqual(error.column, column, "column of '\(marked)'", sourceLocation: sourceLocation)
  }
}

/// Objects held in memory for queries that follow links and backlinks.
final class InMemoryQuerySource: QueryObjectSource {
  let schema: Schema
  let objects: [String: [Int64: [RealmValue]]]

  init(schema: Schema, objects: [String: [Int64: [RealmValue]]]) {
    self.schema = schema
    self.objects = objects
  }

  func values(ofClass className: String, key: Int64, properties: Set<Int>?) throws -> [RealmValue]? {
    objects[className]?[key]
  }

  func backlinks(from originClass: String, property: String, to targetClass: String, key: Int64) throws -> [Int64] {
    guard let cls = schema.objectSchema(named: originClass), let pi = cls.properties.firstIndex(where: { $0.name == property }) else {
      return []
    }
    var out: [Int64] = []
    for (originKey, values) in (objects[originClass] ?? [:]).sorted(by: { $0.key < $1.key }) {
      GroupQuerySource.forEachLink(in: values[pi], deep: false) { link in
        if link.className == targetClass && link.key == key { out.append(originKey) }
      }
    }
    return out
  }

  func backlinkCount(to className: String, key: Int64) throws -> Int {
    var count = 0
    for cls in schema.classes {
      for (pi, p) in cls.properties.enumerated() where p.type == .object || p.type == .mixed {
        for (_, values) in objects[cls.name] ?? [:] {
          GroupQuerySource.forEachLink(in: values[pi], deep: p.type == .mixed) { link in
            if link.className == className && link.key == key { count += 1 }
          }
        }
      }
    }
    return count
  }

  func objectKey(ofClass className: String, primaryKey value: RealmValue) throws -> Int64? {
    guard let cls = schema.objectSchema(named: className), let pk = cls.primaryKey,
      let pi = cls.properties.firstIndex(where: { $0.name == pk })
    else { return nil }
    return objects[className]?.first { $0.value[pi] == value }?.key
  }
}
