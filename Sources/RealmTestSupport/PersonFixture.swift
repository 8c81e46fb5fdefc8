import RealmModel

/// A schema with every kind of property (Person, with a list of Dogs, a link to a Person and
/// an embedded Address) and one Person's values: the object the query tests and the expression
/// tests evaluate against.
public enum PersonFixture {
  public static let person = ObjectSchema(
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
  public static let dog = ObjectSchema(
    name: "Dog",
    properties: [
      Property(name: "name", type: .string),
      Property(name: "age", type: .int),
      Property(name: "owner", type: .object, objectType: "Person", isOptional: true),
    ])
  public static let address = ObjectSchema(
    name: "Address", isEmbedded: true,
    properties: [
      Property(name: "street", type: .string),
      Property(name: "city", type: .string, isOptional: true),
    ])
  public static let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [address, dog, person])

  /// Person's values: sensible defaults, replaced by `overrides`.
  public static func values(_ overrides: [String: RealmValue] = [:], of cls: ObjectSchema = person) -> [RealmValue] {
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
}

/// A string value, short for the tables of values in tests.
public func str(_ s: String) -> RealmValue { .string(s) }
