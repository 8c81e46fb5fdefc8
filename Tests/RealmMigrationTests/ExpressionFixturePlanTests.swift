import RealmJSON
import RealmTestSupport
import Testing
@testable import RealmMigration
import RealmModel

/// The fixtures' plans, evaluated on the objects of `dump.jsonl` (written by Realm), must give
/// the values of `after.dump.jsonl` (what Realm's own migration block produced).
@Suite struct ExpressionFixturePlanTests {
  /// The `transform` expressions of a plan, in order: (class, property, expression).
  static func transforms(_ fixture: String) throws -> [(String, String, String)] {
    let plan = try JSONParser.parse(try Fixtures.bytes("\(fixture)/plan.json"))
    var out: [(String, String, String)] = []
    guard case .array(let groups)? = plan["migrations"] else { return out }
    for group in groups {
      guard case .array(let steps)? = group["steps"] else { continue }
      for step in steps where step["op"] == .string("transform") {
        guard case .string(let cls)? = step["class"], case .object(let set)? = step["set"] else { continue }
        for member in set {
          if case .string(let source) = member.value { out.append((cls, member.key, source)) }
        }
      }
    }
    return out
  }

  /// Objects of a dump by key, as JSON objects.
  static func objects(_ path: String) throws -> [Int64: JSONValue] {
    let text = String(decoding: try Fixtures.bytes(path), as: UTF8.self)
    var out: [Int64: JSONValue] = [:]
    for line in text.split(separator: "\n") {
      let value = try JSONParser.parse(String(line))
      if case .int(let key)? = value["$key"] { out[key] = value }
    }
    return out
  }

  static func realmValue(_ json: JSONValue?) -> RealmValue {
    switch json {
    case .string(let s)?: return .string(s)
    case .int(let i)?: return .int(i)
    case .double(let d)?: return .double(d)
    case .bool(let b)?: return .bool(b)
    default: return .null
    }
  }

  /// Evaluates each transform of `fixture` on every object and compares with `after`.
  /// `properties` is the class as the transform sees it; `rename` maps a property to the
  /// name it had in `dump.jsonl` (a rename step ran before the transform).
  func check(_ fixture: String, _ cls: ObjectSchema, rename: [String: String] = [:]) throws {
    let transforms = try Self.transforms(fixture)
    #expect(!transforms.isEmpty)
    let before = try Self.objects("\(fixture)/dump.jsonl")
    let after = try Self.objects("\(fixture)/after.dump.jsonl")
    #expect(before.count == after.count && !before.isEmpty)
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [cls])
    let compiler = ExpressionCompiler(schema: schema, objectSchema: cls)
    for (className, property, source) in transforms where className == cls.name {
      let expression = try compiler.compileValue(source)
      var context = EvaluationContext(environment: ExpressionEnvironment(now: Timestamp(seconds: 0, nanoseconds: 0), seed: 1))
      for (key, object) in before {
        context.old = cls.properties.map { Self.realmValue(object[rename[$0.name] ?? $0.name]) }
        let value = try expression.evaluate(&context)
        expectEqual(value, Self.realmValue(after[key]?[property]), "\(fixture) \(property) of \(key): \(source)")
      }
    }
  }

  @Test func fullNameThenStringAge() throws {
    let person = ObjectSchema(
      name: "Person",
      properties: [
        Property(name: "firstName", type: .string), Property(name: "lastName", type: .string),
        Property(name: "age", type: .int),
      ])
    try check("person-fullname-then-string-age", person)
  }

  @Test func userTutorialSplitsNames() throws {
    let user = ObjectSchema(
      name: "User", properties: [Property(name: "fullName", type: .string), Property(name: "age", type: .int)])
    try check("user-tutorial", user, rename: ["fullName": "name"])
  }

  @Test func primaryKeyCodesFromIds() throws {
    let item = ObjectSchema(
      name: "Item", primaryKey: "id",
      properties: [
        Property(name: "id", type: .int, isIndexed: true), Property(name: "code", type: .string),
        Property(name: "name", type: .string),
      ])
    try check("change-primary-key-fixed", item)
  }
}
