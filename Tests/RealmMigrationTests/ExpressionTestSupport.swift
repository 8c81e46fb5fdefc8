import Testing
@testable import RealmMigration
@testable import RealmQuery
import RealmFormat

/// A schema with every kind of property, and helpers to compile and evaluate against it.
enum ExpressionFixture {
  static let person = ObjectSchema(
    name: "Person", primaryKey: "_id",
    properties: [
      Property(name: "_id", type: .objectId, isIndexed: true),
      Property(name: "firstName", type: .string),
      Property(name: "lastName", type: .string),
      Property(name: "age", type: .int),
      Property(name: "nickname", type: .string, isOptional: true),
      Property(name: "score", type: .double),
      Property(name: "weight", type: .float, isOptional: true),
      Property(name: "balance", type: .decimal128),
      Property(name: "active", type: .bool),
      Property(name: "created", type: .date),
      Property(name: "tags", type: .string, collection: .list),
      Property(name: "scores", type: .int, collection: .dictionary),
      Property(name: "labels", type: .string, collection: .set),
      Property(name: "dogs", type: .object, collection: .list, objectType: "Dog"),
      Property(name: "bestFriend", type: .object, objectType: "Person", isOptional: true),
      Property(name: "address", type: .object, objectType: "Address", isOptional: true),
      Property(name: "anything", type: .mixed, isOptional: true),
      Property(name: "photo", type: .data, isOptional: true),
      Property(name: "token", type: .uuid),
      Property(name: "maybeAge", type: .int, isOptional: true),
      Property(name: "ratings", type: .double, collection: .list),
      Property(name: "visits", type: .date, collection: .set),
      Property(name: "counts", type: .int, collection: .list, isOptional: true),
    ])
  static let dog = ObjectSchema(
    name: "Dog",
    properties: [
      Property(name: "name", type: .string),
      Property(name: "age", type: .int),
      Property(name: "owner", type: .object, objectType: "Person", isOptional: true),
    ])
  static let address = ObjectSchema(
    name: "Address", isEmbedded: true,
    properties: [
      Property(name: "street", type: .string),
      Property(name: "city", type: .string, isOptional: true),
    ])
  static let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [address, dog, person])

  static func compiler(_ className: String = "Person") -> ExpressionCompiler {
    ExpressionCompiler(schema: schema, className: className)!
  }

  /// Person's values: sensible defaults, replaced by `overrides`.
  static func values(_ overrides: [String: RealmValue] = [:], of cls: ObjectSchema = person) -> [RealmValue] {
    let defaults: [String: RealmValue] = [
      "_id": .objectId(ObjectId(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C)),
      "firstName": .string("Ada"), "lastName": .string("Lovelace"), "age": .int(36),
      "nickname": .null, "score": .double(1.5), "weight": .null,
      "balance": .decimal128(Decimal128(low: 15, high: 0x303E_0000_0000_0000)),  // 1.5
      "active": .bool(true), "created": .date(Timestamp(seconds: 1_704_164_645, nanoseconds: 0)),
      "tags": .list([.string("math"), .string("poetry")]),
      "scores": .dictionary([DictionaryEntry("a", .int(1)), DictionaryEntry("b", .int(2))]),
      "labels": .set([.string("x")]),
      "dogs": .list([.link(ObjectLink(className: "Dog", key: 1)), .link(ObjectLink(className: "Dog", key: 2))]),
      "bestFriend": .link(ObjectLink(className: "Person", key: 7)),
      "address": .embedded(
        EmbeddedObject(className: "Address", key: 0, properties: [NamedValue("street", .string("Main St")), NamedValue("city", .null)])),
      "anything": .int(5), "photo": .null,
      "token": .uuid(RealmUUID(high: 0x1234_5678_9abc_4def, low: 0x8123_4567_89ab_cdef)),
      "maybeAge": .null,
      "ratings": .list([.double(1.5), .double(2.5), .double(5)]),
      "visits": .set([.date(Timestamp(seconds: 100, nanoseconds: 0)), .date(Timestamp(seconds: 50, nanoseconds: 0))]),
      "counts": .list([.int(4), .null, .int(-2)]),
      "name": .string("Rex"), "owner": .null, "street": .string("Main St"), "city": .null,
    ]
    return cls.properties.map { overrides[$0.name] ?? defaults[$0.name] ?? .null }
  }

  /// Dogs 1 (Rex, 3, owner Person 7) and 2 (Fido, 5, no owner); Person 7 is Grace Hopper.
  struct Resolver: ObjectResolver {
    func values(of link: ObjectLink) throws -> [RealmValue]? {
      switch (link.className, link.key) {
      case ("Dog", 1): return ExpressionFixture.values(["name": .string("Rex"), "age": .int(3), "owner": .link(ObjectLink(className: "Person", key: 7))], of: dog)
      case ("Dog", 2): return ExpressionFixture.values(["name": .string("Fido"), "age": .int(5)], of: dog)
      case ("Person", 7): return ExpressionFixture.values(["firstName": .string("Grace"), "lastName": .string("Hopper"), "bestFriend": .null])
      case ("Person", 99): throw ResolverFailure()
      default: return nil
      }
    }
  }
  struct ResolverFailure: Error, CustomStringConvertible { var description: String { "storage read failed" } }

  static let environment = ExpressionEnvironment(now: Timestamp(seconds: 1_700_000_000, nanoseconds: 5), seed: 42)

  /// Compiles and evaluates a value expression on Person.
  static func eval(
    _ source: String, _ overrides: [String: RealmValue] = [:], newValues: [NewValue] = [], new: [RealmValue] = []
  ) throws -> RealmValue {
    let compiled = try compiler().compileValue(source, newValues: newValues)
    var context = EvaluationContext(old: values(overrides), new: new, resolver: Resolver(), environment: environment)
    return try compiled.evaluate(&context)
  }

  static func type(_ source: String, newValues: [NewValue] = []) throws -> ExpressionType {
    try compiler().compileValue(source, newValues: newValues).type
  }

  /// Evaluates a `where` query (Realm Query Language) on Person, links followed in
  /// ``objects``.
  static func filter(
    _ source: String, _ overrides: [String: RealmValue] = [:], className: String = "Person", key: Int64 = 0
  ) throws -> Bool {
    let query = try RealmQuery(source, className: className, schema: schema)
    let cls = schema.objectSchema(named: className) ?? person
    return try query.matches(values: values(overrides, of: cls), key: key, source: objects)
  }

  /// The objects links point to: Dogs 1 and 2, Person 7 (as ``Resolver`` gives them).
  static var objects: InMemoryQuerySource {
    InMemoryQuerySource(schema: schema, objects: [
      "Dog": [
        1: values(["name": .string("Rex"), "age": .int(3), "owner": .link(ObjectLink(className: "Person", key: 7))], of: dog),
        2: values(["name": .string("Fido"), "age": .int(5)], of: dog),
      ],
      "Person": [7: values(["firstName": .string("Grace"), "lastName": .string("Hopper"), "bestFriend": .null])],
    ])
  }

  /// The compile error of `marked`, whose `⟪` marks the expected column (and is removed).
  static func compileError(
    _ marked: String, predicate: Bool = false, newValues: [NewValue] = []
  ) -> (error: ExpressionError?, expectedColumn: Int) {
    let parts = marked.split(separator: "⟪", omittingEmptySubsequences: false).map(String.init)
    let source = parts.joined()
    let expectedColumn = parts.count > 1 ? parts[0].count + 1 : -1
    do {
      if predicate {
        _ = try RealmQuery(source, className: "Person", schema: schema)
      } else {
        _ = try compiler().compileValue(source, newValues: newValues)
      }
      return (nil, expectedColumn)
    } catch let error as ExpressionError {
      return (error, expectedColumn)
    } catch let error as QueryError {
      // RealmQuery's own error has the same column and message.
      return (ExpressionError(column: error.column, message: error.message), expectedColumn)
    } catch {
      return (ExpressionError(column: -1, message: "\(error)"), expectedColumn)
    }
  }

  /// The evaluation error of `source`.
  static func evalError(_ source: String, _ overrides: [String: RealmValue] = [:]) -> EvaluationError? {
    do {
      _ = try eval(source, overrides)
      return nil
    } catch let e as EvaluationError {
      return e
    } catch {
      return nil
    }
  }
}

/// Expects `marked` (with `⟪` at the expected column) to fail to compile with `message`.
func expectCompileError(
  _ marked: String, _ message: String, predicate: Bool = false, newValues: [NewValue] = [],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let (error, column) = ExpressionFixture.compileError(marked, predicate: predicate, newValues: newValues)
  guard let error else {
    Issue.record("'\(marked)' compiled, expected: \(message)", sourceLocation: sourceLocation)
    return
  }
  #expect(error.message == message, sourceLocation: sourceLocation)
  #expect(error.column == column, "column of '\(marked)'", sourceLocation: sourceLocation)
}

func str(_ s: String) -> RealmValue { .string(s) }

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
