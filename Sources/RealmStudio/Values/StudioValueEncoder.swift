import RealmJSON
import RealmModel

/// Writes values as the page shows them (docs/commands/studio.md, "Values"): every value but
/// null is an object with its type `t`; 64-bit integers and keys are strings (JavaScript's
/// numbers would round them); dates are ISO 8601; binary is its size and a hex preview;
/// collections and embedded objects carry their size and their first items, so that a cell
/// stays small and the page asks for the rest when a value is expanded.
struct StudioValueEncoder: Sendable {
  /// How much of a value is written.
  struct Limits: Sendable {
    /// Items of a collection (or properties of an embedded object) written.
    var items: Int
    /// Collections nested deeper than this are written as their kind and size only.
    var depth: Int
    /// Characters of a string.
    var stringCharacters: Int
    /// Bytes of binary shown in hex.
    var hexBytes: Int

    /// A table cell.
    static let cell = Limits(items: 3, depth: 1, stringCharacters: 200, hexBytes: 16)
    /// A value of the object view.
    static let object = Limits(items: 50, depth: 2, stringCharacters: 20_000, hexBytes: 64)
    /// The items of an expanded value.
    static let expanded = Limits(items: 1, depth: 1, stringCharacters: 2_000, hexBytes: 32)
  }

  var limits: Limits

  /// Writes `value`, at nesting `depth` (0 for a property's value).
  func write(_ value: RealmValue, depth: Int = 0, to w: inout JSONWriter) {
    switch value {
    case .null:
      w.nullValue()
    case .bool(let b):
      scalar("bool", to: &w) { $0.value(b) }
    case .int(let i):
      scalar("int", to: &w) { $0.value(String(i)) }
    case .float(let f):
      scalar("float", to: &w) { $0.value(Self.text(f)) }
    case .double(let d):
      scalar("double", to: &w) { $0.value(Self.text(d)) }
    case .decimal128(let d):
      scalar("decimal128", to: &w) { $0.value(d.text) }
    case .objectId(let o):
      scalar("objectId", to: &w) { $0.value(o.hexString) }
    case .uuid(let u):
      scalar("uuid", to: &w) { $0.value(u.uuidString) }
    case .string(let s):
      writeString(s, to: &w)
    case .data(let bytes):
      w.beginObject()
      w.member("t", "data")
      w.member("size", bytes.count)
      w.member("hex", Self.hex(bytes.prefix(limits.hexBytes)))
      w.endObject()
    case .date(let t):
      w.beginObject()
      w.member("t", "date")
      if let text = t.text {
        w.member("v", text)
      } else {
        // Outside years 1-9999: the dump's form.
        w.member("seconds", String(t.seconds))
        w.member("nanoseconds", Int(t.nanoseconds))
      }
      w.endObject()
    case .link(let link):
      w.beginObject()
      w.member("t", "link")
      w.member("class", link.className)
      w.member("key", String(link.key))
      w.endObject()
    case .embedded(let object):
      w.beginObject()
      w.member("t", "embedded")
      w.member("class", object.className)
      w.member("n", object.properties.count)
      if depth < limits.depth { writeProperties(object.properties, depth: depth + 1, to: &w) }
      w.endObject()
    case .list(let items):
      writeCollection("list", items, depth: depth, to: &w)
    case .set(let items):
      writeCollection("set", items, depth: depth, to: &w)
    case .dictionary(let entries):
      w.beginObject()
      w.member("t", "dictionary")
      w.member("n", entries.count)
      if depth < limits.depth { writeEntries(entries.prefix(limits.items), depth: depth + 1, to: &w) }
      w.endObject()
    }
  }

  /// The items of a collection from `offset` (an expanded value): `{"t", "n", "offset", "items"}`.
  func writeSlice(_ value: RealmValue, offset: Int, count: Int, to w: inout JSONWriter) {
    let start = max(0, offset)
    switch value {
    case .list(let items), .set(let items):
      slice(value.kindName, count: items.count, offset: start, to: &w) {
        writeItems(items.dropFirst(start).prefix(count), depth: 1, to: &$0)
      }
    case .dictionary(let entries):
      slice("dictionary", count: entries.count, offset: start, to: &w) {
        writeEntries(entries.dropFirst(start).prefix(count), depth: 1, to: &$0)
      }
    case .embedded(let object):
      slice("embedded", className: object.className, count: object.properties.count, offset: 0, to: &w) {
        writeProperties(object.properties, depth: 1, to: &$0)
      }
    default:
      write(value, to: &w)
    }
  }

  /// A slice's object: its kind, class (of an embedded object), size and offset, then `body`'s
  /// items.
  private func slice(
    _ type: String, className: String? = nil, count: Int, offset: Int, to w: inout JSONWriter,
    _ body: (inout JSONWriter) -> Void
  ) {
    w.beginObject()
    w.member("t", type)
    if let className { w.member("class", className) }
    w.member("n", count)
    w.member("offset", offset)
    body(&w)
    w.endObject()
  }

  private func scalar(_ type: String, to w: inout JSONWriter, _ body: (inout JSONWriter) -> Void) {
    w.beginObject()
    w.member("t", type)
    w.key("v")
    body(&w)
    w.endObject()
  }

  private func writeString(_ s: String, to w: inout JSONWriter) {
    w.beginObject()
    w.member("t", "string")
    // Counting characters of a long string is the cost of the cut: do it only past a size
    // that may need cutting.
    if s.utf8.count > limits.stringCharacters {
      let count = s.count
      if count > limits.stringCharacters {
        w.member("v", String(s.prefix(limits.stringCharacters)))
        w.member("length", count)
        w.endObject()
        return
      }
    }
    w.member("v", s)
    w.endObject()
  }

  private func writeCollection(_ kind: String, _ items: [RealmValue], depth: Int, to w: inout JSONWriter) {
    w.beginObject()
    w.member("t", kind)
    w.member("n", items.count)
    if depth < limits.depth { writeItems(items.prefix(limits.items), depth: depth + 1, to: &w) }
    w.endObject()
  }

  /// `"items": [...]`, each item written at `depth`.
  private func writeItems(_ items: some Sequence<RealmValue>, depth: Int, to w: inout JSONWriter) {
    w.key("items")
    w.beginArray()
    for item in items { write(item, depth: depth, to: &w) }
    w.endArray()
  }

  /// `"entries": [{"k", "v"}, ...]` of a dictionary, each value written at `depth`.
  private func writeEntries(_ entries: some Sequence<DictionaryEntry>, depth: Int, to w: inout JSONWriter) {
    writePairs("entries", entries.lazy.map { ($0.key, $0.value) }, labels: ("k", "v"), depth: depth, to: &w)
  }

  /// `"properties": [{"name", "value"}, ...]` of an embedded object, written at `depth`.
  private func writeProperties(_ properties: [NamedValue], depth: Int, to w: inout JSONWriter) {
    writePairs("properties", properties.lazy.map { ($0.name, $0.value) }, labels: ("name", "value"), depth: depth, to: &w)
  }

  /// `"key": [{labels.name: name, labels.value: value}, ...]`, each value written at `depth`.
  private func writePairs(
    _ key: String, _ pairs: some Sequence<(String, RealmValue)>, labels: (name: String, value: String), depth: Int,
    to w: inout JSONWriter
  ) {
    w.key(key)
    w.beginArray()
    for (name, value) in pairs {
      w.beginObject()
      w.member(labels.name, name)
      w.key(labels.value)
      write(value, depth: depth, to: &w)
      w.endObject()
    }
    w.endArray()
  }

  /// A double as text: the shortest decimal that reads back the same, or `NaN`, `Infinity`,
  /// `-Infinity`.
  static func text(_ d: Double) -> String {
    if d.isNaN { return "NaN" }
    if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
    var w = JSONWriter(indent: 0, capacity: 32)
    w.writeDouble(d)
    return String(decoding: w.buffer, as: UTF8.self)
  }

  /// A float as text (see ``text(_:)-(Double)``).
  static func text(_ f: Float) -> String {
    if f.isNaN { return "NaN" }
    if f.isInfinite { return f < 0 ? "-Infinity" : "Infinity" }
    var w = JSONWriter(indent: 0, capacity: 32)
    w.writeFloat(f)
    return String(decoding: w.buffer, as: UTF8.self)
  }

  /// Lowercase hex digits of `bytes`.
  static func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for b in bytes {
      out.append(digits[Int(b >> 4)])
      out.append(digits[Int(b & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}

extension RealmValue {
  /// The name of a collection's kind (`list`, `set`, `dictionary`), or of the value's type.
  var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "bool"
    case .int: "int"
    case .float: "float"
    case .double: "double"
    case .decimal128: "decimal128"
    case .objectId: "objectId"
    case .uuid: "uuid"
    case .string: "string"
    case .data: "data"
    case .date: "date"
    case .link: "link"
    case .embedded: "embedded"
    case .list: "list"
    case .set: "set"
    case .dictionary: "dictionary"
    }
  }
}
