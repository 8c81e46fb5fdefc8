import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage

/// The dump of `realmctl dump --for-diff`, made for line diffs (`git diff` through a textconv
/// filter): stable and short.
///
/// - The schema first, one `#` line per class (`# Person: primary key id; id int, name string,
///   age int?`), after a line with the schema version and the file format.
/// - Then one JSON line per top-level object, classes in name order: objects of classes with a
///   primary key in primary key order and without `$key` (Realm assigns keys as objects are
///   created: they say nothing of the data), other objects in key order with their `$key`.
/// - Values as in the canonical dump, but links name their target by primary key where it has
///   one (`{"$ref":"Dog","$pk":"rex"}`), so a line changes only when its object does.
///
/// Ordering a class by primary key holds its primary key values and object keys in memory (not
/// the objects); other classes stream in flat memory.
public struct StableDump {
  let file: RealmFile
  let schema: Schema
  let values: StableValueText
  let classes: [ObjectSchema]
  let described: [ObjectSchema]

  /// Prepares the dump of `file`, or of its class `className` alone.
  public init(file: RealmFile, schema: Schema, className: String? = nil) {
    self.file = file
    self.schema = schema
    values = StableValueText(file: file, schema: schema)
    described = schema.classes.filter { className == nil || $0.name == className }
      .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    classes = described.filter { !$0.isEmbedded }
  }

  /// Writes the dump to `sink`.
  ///
  /// - Throws: `FormatError` for a damaged file, or what `sink` throws.
  public func run(_ sink: OutputSink) throws {
    var header = "# schema version \(schema.schemaVersion.map(String.init) ?? "none"), file format \(schema.fileFormat)\n"
    for cls in described { header += Self.schemaLine(cls) + "\n" }
    try sink(Array(header.utf8))
    for cls in classes {
      guard let table = file.group.table(forClass: cls.name) else { continue }
      if let pk = cls.primaryKey, let index = cls.properties.firstIndex(where: { $0.name == pk }) {
        var entries: [(RealmValue, Int64)] = []
        entries.reserveCapacity(file.group.reservableObjectCount(of: table))
        try file.group.forEachObject(in: table, columns: [index]) { key, v in entries.append((index < v.count ? v[index] : .null, key)) }
        entries.sort { precedes($0.0, $1.0) || (!precedes($1.0, $0.0) && $0.1 < $1.1) }
        for (_, key) in entries {
          guard let v = try file.group.object(in: table, key: key) else { continue }
          try sink(try line(cls, key: nil, v))
        }
      } else {
        try file.group.forEachObject(in: table) { key, v in try sink(try line(cls, key: key, v)) }
      }
    }
  }

  private func line(_ cls: ObjectSchema, key: Int64?, _ v: [RealmValue]) throws -> [UInt8] {
    var w = JSONWriter(indent: 0, capacity: 256)
    w.beginObject()
    w.key(raw: "$class")
    w.value(cls.name)
    if let key {
      w.key(raw: "$key")
      w.value(key)
    }
    try values.writeProperties(cls, v, isOld: false, to: &w)
    w.endObject()
    w.buffer.append(0x0A)
    return w.buffer
  }

  /// `# Person: primary key id; id int, name string, age int?` (`embedded` for embedded
  /// classes, which appear inside their parents' lines).
  static func schemaLine(_ cls: ObjectSchema) -> String {
    let properties = cls.properties.map { p in
      "\(p.name) \(SchemaChange.typeString(p))\(p.isOptional && p.collection == .single && p.type != .object && p.type != .mixed ? "?" : "")"
        + (p.isIndexed && p.name != cls.primaryKey ? " indexed" : "")
    }
    let kind = cls.isEmbedded ? "embedded; " : cls.primaryKey.map { "primary key \($0); " } ?? ""
    return "# \(cls.name): \(kind)\(properties.joined(separator: ", "))"
  }

  /// The order of primary key values: null first, numbers by value, strings by UTF-8 bytes,
  /// others by their canonical text.
  func precedes(_ a: RealmValue, _ b: RealmValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return false
    case (.null, _): return true
    case (_, .null): return false
    case (.int(let x), .int(let y)): return x < y
    case (.string(let x), .string(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
    default:
      let (x, y) = ((try? values.text(a, inMixed: false, isOld: false)) ?? "", (try? values.text(b, inMixed: false, isOld: false)) ?? "")
      return x.utf8.lexicographicallyPrecedes(y.utf8)
    }
  }
}
