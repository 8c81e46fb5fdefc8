import RealmModel

/// Writes objects and values in the canonical dump form of `docs/dump-format.md`.
///
/// One encoder serves a whole dump: it knows the schema so that the properties of embedded
/// objects (inline in their parent) are encoded by their declared types, which matters for
/// one thing only: a float or double inside a mixed value is wrapped (`{"$double":1.5}`).
public struct CanonicalEncoder: Sendable {
  /// For each class, which properties (by column position) are mixed.
  private let mixedColumns: [String: [Bool]]
  /// For each class, its properties and their names encoded once as `"name":`.
  private let encodedNames: [String: (properties: [Property], names: [[UInt8]])]

  /// Creates an encoder for the classes of `schema`.
  public init(schema: Schema) {
    var map: [String: [Bool]] = [:]
    var names: [String: (properties: [Property], names: [[UInt8]])] = [:]
    for cls in schema.classes {
      map[cls.name] = cls.properties.map { $0.type == .mixed }
      names[cls.name] = (cls.properties, cls.properties.map { JSONWriter.encodedKey($0.name) })
    }
    mixedColumns = map
    encodedNames = names
  }

  /// Appends one dump line, `{"$class":…,"$key":…,<properties>}\n`, compact, to `writer`
  /// (whose indent should be 0). `values` are the object's properties in column order.
  public func appendLine(
    _ objectSchema: ObjectSchema, key: Int64, values: [RealmValue], to writer: inout JSONWriter
  ) {
    writeObject(objectSchema, key: key, values: values, to: &writer)
    writer.buffer.append(0x0A)
  }

  /// Writes one top-level object (`$class`, `$key`, properties) as a value of `writer`,
  /// pretty-printed when the writer indents.
  public func writeObject(
    _ objectSchema: ObjectSchema, key: Int64, values: [RealmValue], to writer: inout JSONWriter
  ) {
    writer.beginObject()
    writer.key(raw: "$class")
    writer.value(objectSchema.name)
    writer.key(raw: "$key")
    writer.value(key)
    let properties = objectSchema.properties
    let count = min(properties.count, values.count)
    // The same class as the schema's (arrays sharing storage compare in O(1)): use the names
    // encoded once; otherwise escape each name.
    if let cached = encodedNames[objectSchema.name], cached.properties == properties {
      let names = cached.names
      for i in 0..<count {
        writer.key(encoded: names[i])
        writeValue(values[i], inMixed: properties[i].type == .mixed, to: &writer)
      }
    } else {
      for i in 0..<count {
        writer.key(properties[i].name)
        writeValue(values[i], inMixed: properties[i].type == .mixed, to: &writer)
      }
    }
    writer.endObject()
  }

  /// The canonical JSON text of one value, e.g. for messages (`{"$oid":"…"}`, `"Ada"`, `42`).
  public func text(of value: RealmValue, inMixed: Bool = false) -> String {
    var w = JSONWriter(indent: 0, capacity: 64)
    writeValue(value, inMixed: inMixed, to: &w)
    return String(decoding: w.buffer, as: UTF8.self)
  }

  /// Writes one property value. `property` tells whether it is mixed (the only case where the
  /// declared type changes the encoding).
  public func writeValue(_ value: RealmValue, of property: Property, to writer: inout JSONWriter) {
    writeValue(value, inMixed: property.type == .mixed, to: &writer)
  }

  /// Writes one value; `inMixed` is true for values of mixed properties (and everything nested
  /// in them), where floats and doubles are wrapped.
  public func writeValue(_ value: RealmValue, inMixed: Bool, to writer: inout JSONWriter) {
    switch value {
    case .null: writer.nullValue()
    case .bool(let b): writer.value(b)
    case .int(let i): writer.value(i)
    case .string(let s): writer.value(s)
    case .float(let f):
      writeFloatingPoint(Double(f), wrapper: "{\"$float\":", inMixed: inMixed, to: &writer) { $0.writeFloat(f) }
    case .double(let d):
      writeFloatingPoint(d, wrapper: "{\"$double\":", inMixed: inMixed, to: &writer) { $0.writeDouble(d) }
    case .decimal128(let d):
      writeWrappedText("{\"$decimal\":\"", to: &writer) { d.appendText(to: &$0) }
    case .objectId(let id):
      writeWrappedText("{\"$oid\":\"", to: &writer) { HexText.append(id, to: &$0) }
    case .uuid(let id):
      writeWrappedText("{\"$uuid\":\"", to: &writer) { HexText.append(id, to: &$0) }
    case .data(let bytes):
      writeWrappedText("{\"$binary\":\"", to: &writer) { Base64.encode(bytes, to: &$0) }
    case .date(let t):
      writer.separate()
      writer.writeRaw("{\"$date\":")
      let mark = writer.buffer.count
      writer.buffer.append(UInt8(ascii: "\""))
      if t.appendText(to: &writer.buffer) {
        writer.buffer.append(UInt8(ascii: "\""))
      } else {
        // Years outside 0001-9999 have no text form.
        writer.buffer.removeSubrange(mark...)
        writer.writeRaw("{\"seconds\":")
        writer.writeInt(t.seconds)
        writer.writeRaw(",\"nanoseconds\":")
        writer.writeInt(Int64(t.nanoseconds))
        writer.buffer.append(UInt8(ascii: "}"))
      }
      writer.buffer.append(UInt8(ascii: "}"))
    case .link(let link):
      writer.separate()
      writer.writeRaw("{\"$ref\":")
      writer.writeString(link.className)
      writer.writeRaw(",\"$key\":")
      writer.writeInt(link.key)
      writer.buffer.append(UInt8(ascii: "}"))
    case .embedded(let object):
      writeEmbedded(object, to: &writer)
    case .list(let items), .set(let items):
      writer.beginArray()
      for item in items { writeValue(item, inMixed: inMixed, to: &writer) }
      writer.endArray()
    case .dictionary(let entries):
      writer.beginObject()
      for entry in entries {
        writer.key(entry.key)
        writeValue(entry.value, inMixed: inMixed, to: &writer)
      }
      writer.endObject()
    }
  }

  /// A float or double: its digits (written by `digits`), inside `wrapper` in a mixed value; a
  /// value that is not finite always in its wrapper, as a string.
  @inline(__always)
  private func writeFloatingPoint(
    _ v: Double, wrapper: StaticString, inMixed: Bool, to writer: inout JSONWriter, digits: (inout JSONWriter) -> Void
  ) {
    guard v.isFinite else { return wrapNonFinite(v, wrapper: wrapper, to: &writer) }
    writer.separate()
    if inMixed { writer.writeRaw(wrapper) }
    digits(&writer)
    if inMixed { writer.buffer.append(UInt8(ascii: "}")) }
  }

  /// A value written as a string in its wrapper: `opening` (`{"$oid":"`), the text `body`
  /// appends (which needs no escaping), then `"}`.
  @inline(__always)
  private func writeWrappedText(_ opening: StaticString, to writer: inout JSONWriter, _ body: (inout [UInt8]) -> Void) {
    writer.separate()
    writer.writeRaw(opening)
    body(&writer.buffer)
    writer.writeRaw("\"}")
  }

  private func wrapNonFinite(_ v: Double, wrapper: StaticString, to writer: inout JSONWriter) {
    writer.separate()
    writer.writeRaw(wrapper)
    if v.isNaN {
      writer.writeRaw("\"NaN\"}")
    } else if v < 0 {
      writer.writeRaw("\"-Infinity\"}")
    } else {
      writer.writeRaw("\"Infinity\"}")
    }
  }

  /// An embedded object inline: `{"$class":"X", <properties>}`, no `$key`.
  private func writeEmbedded(_ object: EmbeddedObject, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.key(raw: "$class")
    writer.value(object.className)
    let mixed = mixedColumns[object.className]
    for (i, property) in object.properties.enumerated() {
      writer.key(property.name)
      let isMixed = mixed.map { i < $0.count && $0[i] } ?? false
      writeValue(property.value, inMixed: isMixed, to: &writer)
    }
    writer.endObject()
  }
}
