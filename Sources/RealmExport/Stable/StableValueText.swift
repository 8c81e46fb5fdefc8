import RealmModel
import RealmJSON
import RealmStorage
import RealmFormat

/// Writes values as JSON in the canonical dump form (`docs/dump-format.md`) except for links,
/// which name their target by primary key where its class has one (`{"$ref":"Dog","$pk":"rex"}`,
/// else `{"$ref":"Dog","$key":3}`): the values of ``StableDump`` and of `realmctl diff`, which
/// must read the same in two files whose object keys differ. It writes the values of an old and
/// a new file (the same file twice for a stable dump).
public struct StableValueText {
  /// The schema of the old file.
  public let oldSchema: Schema
  /// The schema of the new file (the same as the old for a stable dump).
  public let newSchema: Schema
  let oldEncoder: CanonicalEncoder
  let newEncoder: CanonicalEncoder
  let links: LinkPrimaryKeys

  /// Creates the writer for the values of two files with these schemas and links.
  public init(oldSchema: Schema, newSchema: Schema, links: LinkPrimaryKeys) {
    self.oldSchema = oldSchema
    self.newSchema = newSchema
    oldEncoder = CanonicalEncoder(schema: oldSchema)
    newEncoder = CanonicalEncoder(schema: newSchema)
    self.links = links
  }

  /// Creates the writer for the values of one file (`isOld` is then ignored).
  public init(file: RealmFile, schema: Schema) {
    oldSchema = schema
    newSchema = schema
    oldEncoder = CanonicalEncoder(schema: schema)
    newEncoder = oldEncoder
    let resolver = LinkResolver(group: file.group, schema: schema, path: file.path)
    links = LinkPrimaryKeys(old: resolver, new: resolver)
  }

  /// The JSON text of a value of the old (`isOld`) or new file.
  public func text(_ value: RealmValue, inMixed: Bool, isOld: Bool) throws -> String {
    var w = JSONWriter(indent: 0, capacity: 64)
    try write(value, inMixed: inMixed, isOld: isOld, to: &w)
    return String(decoding: w.buffer, as: UTF8.self)
  }

  /// Writes the properties of an object (`values` in the columns of `cls`) as JSON members.
  public func writeProperties(_ cls: ObjectSchema, _ values: [RealmValue], isOld: Bool, to w: inout JSONWriter) throws {
    for (p, v) in zip(cls.properties, values) {
      w.key(p.name)
      try write(v, inMixed: p.type == .mixed, isOld: isOld, to: &w)
    }
  }

  /// Writes one value.
  public func write(_ value: RealmValue, inMixed: Bool, isOld: Bool, to w: inout JSONWriter) throws {
    switch value {
    case .link(let link):
      w.beginObject()
      w.key(raw: "$ref")
      w.value(link.className)
      if let pk = try links.primaryKey(of: link, inOld: isOld) {
        w.key(raw: "$pk")
        try write(pk, inMixed: false, isOld: isOld, to: &w)
      } else {
        w.key(raw: "$key")
        w.value(link.key)
      }
      w.endObject()
    case .embedded(let object):
      w.beginObject()
      w.key(raw: "$class")
      w.value(object.className)
      let cls = (isOld ? oldSchema : newSchema).objectSchema(named: object.className)
      for p in object.properties {
        w.key(p.name)
        try write(p.value, inMixed: inMixed || cls?.property(named: p.name)?.type == .mixed, isOld: isOld, to: &w)
      }
      w.endObject()
    case .list(let items), .set(let items):
      w.beginArray()
      for item in items { try write(item, inMixed: inMixed, isOld: isOld, to: &w) }
      w.endArray()
    case .dictionary(let entries):
      w.beginObject()
      for e in entries {
        w.key(e.key)
        try write(e.value, inMixed: inMixed, isOld: isOld, to: &w)
      }
      w.endObject()
    default:
      (isOld ? oldEncoder : newEncoder).writeValue(value, inMixed: inMixed, to: &w)
    }
  }
}
