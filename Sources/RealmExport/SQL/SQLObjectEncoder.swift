import RealmModel
import RealmJSON

/// Encodes one object at a time as rows of the tables of an ``SQLExportPlan``: the row of its
/// class, the rows of its lists, sets and dictionaries, and those of the embedded objects it
/// holds (recursively, each with a reference to its parent).
///
/// The encoder is immutable and `Sendable`: several threads can encode objects into buffers
/// of their own.
public struct SQLObjectEncoder: Sendable {
  /// The plan the rows follow.
  public let plan: SQLExportPlan
  /// Encodes collections nested in mixed values as canonical JSON.
  private let json: CanonicalEncoder

  /// The holder of an embedded object.
  private struct Parent {
    var className: String
    var key: Int64
    var property: String
  }

  /// Creates an encoder for `plan`, made from `schema`.
  public init(plan: SQLExportPlan, schema: Schema) {
    self.plan = plan
    json = CanonicalEncoder(schema: schema)
  }

  /// Appends the rows of one object of the top-level class `className` to `buffer`; a class
  /// the plan does not export is ignored.
  public func encode(
    _ className: String, key: Int64, values: [RealmValue], into buffer: inout SQLInsertBuffer
  ) {
    guard let layout = plan.classes[className] else { return }
    encode(layout, key: key, values: values, parent: nil, into: &buffer)
  }

  /// Appends the rows of one object of the top-level class laid out by `layout` (one of the
  /// plan's ``SQLExportPlan/classes``, looked up once per class).
  public func encode(
    _ layout: SQLExportPlan.ClassLayout, key: Int64, values: [RealmValue], into buffer: inout SQLInsertBuffer
  ) {
    encode(layout, key: key, values: values, parent: nil, into: &buffer)
  }

  private func encode(
    _ layout: SQLExportPlan.ClassLayout, key: Int64, values: [RealmValue], parent: Parent?,
    into buffer: inout SQLInsertBuffer
  ) {
    let properties = layout.objectSchema.properties
    func value(_ i: Int) -> RealmValue { i < values.count ? values[i] : .null }
    buffer.appendRow(table: layout.table) { row in
      for (c, source) in layout.sources.enumerated() {
        if c > 0 { row.append(UInt8(ascii: ",")) }
        switch source {
        case .key:
          SQLLiteral.append(key, to: &row)
        case .parent(let owner):
          if let parent, parent.className == owner {
            SQLLiteral.append(parent.key, to: &row)
          } else {
            SQLLiteral.appendNull(to: &row)
          }
        case .parentProperty:
          SQLLiteral.append(parent?.property ?? "", to: &row)
        case .value(let i):
          appendValue(value(i), to: &row)
        case .mixedValue(let i):
          appendMixedValue(value(i), to: &row)
        case .mixedType(let i):
          appendMixedType(value(i), to: &row)
        }
      }
    }
    for (i, p) in properties.enumerated() where i < values.count {
      if let child = layout.childTables[i] {
        encodeCollection(
          values[i], of: p, owner: Parent(className: layout.objectSchema.name, key: key, property: p.name),
          table: child, into: &buffer)
      } else if case .embedded(let object) = values[i] {
        encodeEmbedded(
          object, parent: Parent(className: layout.objectSchema.name, key: key, property: p.name), into: &buffer)
      }
    }
  }

  private func encodeEmbedded(_ object: EmbeddedObject, parent: Parent, into buffer: inout SQLInsertBuffer) {
    guard let layout = plan.classes[object.className] else { return }
    encode(layout, key: object.key, values: object.properties.map(\.value), parent: parent, into: &buffer)
  }

  private func encodeCollection(
    _ collection: RealmValue, of p: Property, owner: Parent, table: Int, into buffer: inout SQLInsertBuffer
  ) {
    let isMixed = p.type == .mixed
    func appendElement(_ v: RealmValue, to row: inout [UInt8]) {
      if isMixed {
        appendMixedValue(v, to: &row)
        row.append(UInt8(ascii: ","))
        appendMixedType(v, to: &row)
      } else {
        appendValue(v, to: &row)
      }
    }
    var embedded: [EmbeddedObject] = []
    /// One row: the owner's key, the element's slot, and the element.
    func appendRow(_ element: RealmValue, at slot: CollectionSlot) {
      buffer.appendRow(table: table) { row in
        SQLLiteral.append(owner.key, to: &row)
        row.append(UInt8(ascii: ","))
        switch slot {
        case .position(let position):
          SQLLiteral.append(Int64(position), to: &row)
          row.append(UInt8(ascii: ","))
        case .key(let key):
          SQLLiteral.append(key, to: &row)
          row.append(UInt8(ascii: ","))
        case .setElement:
          break
        }
        appendElement(element, to: &row)
      }
      if case .embedded(let object) = element { embedded.append(object) }
    }
    switch collection {
    case .list(let items):
      for (position, item) in items.enumerated() { appendRow(item, at: .position(position)) }
    case .set(let items):
      for item in items { appendRow(item, at: .setElement) }
    case .dictionary(let entries):
      for entry in entries { appendRow(entry.value, at: .key(entry.key)) }
    default:
      return
    }
    for object in embedded { encodeEmbedded(object, parent: owner, into: &buffer) }
  }

  /// The literal of a value in a typed column (scalar, link or embedded object: its key).
  private func appendValue(_ v: RealmValue, to row: inout [UInt8]) {
    switch v {
    case .null: SQLLiteral.appendNull(to: &row)
    case .bool(let b): row.append(b ? UInt8(ascii: "1") : UInt8(ascii: "0"))
    case .int(let i): SQLLiteral.append(i, to: &row)
    case .float(let f): SQLRealLiteral.append(f, to: &row)
    case .double(let d): SQLRealLiteral.append(d, to: &row)
    case .decimal128(let d): SQLLiteral.append(d, to: &row)
    case .objectId(let id): SQLLiteral.append(id, to: &row)
    case .uuid(let id): SQLLiteral.append(id, to: &row)
    case .string(let s): SQLLiteral.append(s, to: &row)
    case .data(let bytes): SQLLiteral.appendBlob(bytes, to: &row)
    case .date(let t): SQLLiteral.append(t, to: &row)
    case .link(let link): SQLLiteral.append(link.key, to: &row)
    case .embedded(let object): SQLLiteral.append(object.key, to: &row)
    case .list, .set, .dictionary: appendJSON(v, to: &row)
    }
  }

  /// The value column of a mixed value: scalars as in typed columns, a link as the target's
  /// key, a nested list or dictionary as its canonical JSON.
  private func appendMixedValue(_ v: RealmValue, to row: inout [UInt8]) {
    appendValue(v, to: &row)
  }

  /// The type column of a mixed value: its Realm type (`int`, `string`, `objectId`, …),
  /// `link:Class` for a link, `list` or `dictionary` for nested collections, NULL for null.
  private func appendMixedType(_ v: RealmValue, to row: inout [UInt8]) {
    let type: String
    switch v {
    case .null:
      SQLLiteral.appendNull(to: &row)
      return
    case .bool: type = "bool"
    case .int: type = "int"
    case .float: type = "float"
    case .double: type = "double"
    case .decimal128: type = "decimal128"
    case .objectId: type = "objectId"
    case .uuid: type = "uuid"
    case .string: type = "string"
    case .data: type = "data"
    case .date: type = "date"
    case .link(let link): type = "link:" + link.className
    case .embedded(let object): type = "embedded:" + object.className
    case .list: type = "list"
    case .set: type = "set"
    case .dictionary: type = "dictionary"
    }
    SQLLiteral.append(type, to: &row)
  }

  /// A nested collection as canonical JSON text (links as `{"$ref":…,"$key":…}`).
  private func appendJSON(_ v: RealmValue, to row: inout [UInt8]) {
    var writer = JSONWriter(indent: 0, capacity: 256)
    json.writeValue(v, inMixed: true, to: &writer)
    writer.buffer.withUnsafeBufferPointer { SQLLiteral.appendText($0, to: &row) }
  }
}

/// Where an element sits in its collection: the column an element table has between the
/// owner's key and the element.
private enum CollectionSlot {
  /// A list element: its position.
  case position(Int)
  /// A dictionary value: its key.
  case key(String)
  /// A set element: no such column.
  case setElement
}
