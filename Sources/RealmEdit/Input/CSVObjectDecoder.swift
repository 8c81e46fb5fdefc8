import RealmModel
import RealmJSON
import RealmStorage
import RealmMigration

/// Reads the rows of a CSV file as objects of one class, the reverse of `dump --format csv`:
/// a header row of property names (and optionally `$key`), then one object per row. Each cell
/// is read by its property's type: scalars as plain text (an empty unquoted cell is null, `""`
/// the empty string), links, embedded objects and collections as their canonical JSON.
public struct CSVObjectDecoder {
  let schema: Schema
  let objectSchema: ObjectSchema
  let decoder: CanonicalDecoder

  /// A decoder for rows of `className`; throws when the schema has no such top-level class.
  public init(schema: Schema, className: String) throws {
    guard let c = schema.objectSchema(named: className) else {
      var message = "the file has no class '\(className)'"
      if let s = Suggestion.closest(to: className, among: schema.classes.map(\.name)) { message += " (did you mean '\(s)'?)" }
      throw MigrationError(.invalidData, message)
    }
    guard !c.isEmbedded else {
      throw MigrationError(.invalidData, "'\(className)' is an embedded class: its objects are given inline in their parent's cell")
    }
    self.schema = schema
    objectSchema = c
    decoder = CanonicalDecoder(schema: schema, missingProperties: .allow)
  }

  /// Largest CSV file read (it is read whole).
  public static let maximumFileSize = 4 << 30

  /// The rows of the CSV file at `path` as objects of `className`.
  public static func objects(path: String, className: String, schema: Schema) throws -> [InsertObject] {
    let bytes = try InputFiles.contents(of: path, limit: maximumFileSize)
    return try CSVObjectDecoder(schema: schema, className: className).objects(bytes, source: "'\(path)'")
  }

  /// The objects of the CSV text `bytes`, in row order; `source` names the file in errors.
  public func objects(_ bytes: [UInt8], source: String) throws -> [InsertObject] {
    let records: [CSVParser.Record]
    do {
      records = try CSVParser.records(bytes)
    } catch {
      throw MigrationError(.invalidData, path: "\(source) row \(error.row)", "malformed CSV (line \(error.line)): \(error.message)")
    }
    guard let header = records.first else { return [] }
    var columns: [Int?] = []  // property position per column; nil = $key
    var seen: [String: Int] = [:]
    for (i, f) in header.fields.enumerated() {
      let name = f.text
      if let first = seen[name] {
        throw MigrationError(.invalidData, path: "\(source) row 1", "column \(i + 1) repeats '\(name)' (column \(first + 1))")
      }
      seen[name] = i
      if name == "$key" { columns.append(nil); continue }
      guard let p = objectSchema.properties.firstIndex(where: { $0.name == name }) else {
        var message = "column \(i + 1): class '\(objectSchema.name)' has no property '\(name)'"
        if let s = Suggestion.closest(to: name, among: objectSchema.properties.map(\.name)) { message += " (did you mean '\(s)'?)" }
        throw MigrationError(.invalidData, path: "\(source) row 1", message)
      }
      columns.append(p)
    }
    var out: [InsertObject] = []
    out.reserveCapacity(records.count - 1)
    let rowSource = "\(source) row"
    for r in records.dropFirst() {
      // Built only for an error (a million rows need no million strings).
      var location: String { "\(source) row \(r.row)" }
      guard r.fields.count == columns.count else {
        throw MigrationError(
          .invalidData, path: location,
          "malformed CSV (line \(r.line)): the row has \(r.fields.count) field\(r.fields.count == 1 ? "" : "s"), the header \(columns.count)")
      }
      var values = [RealmValue](repeating: .null, count: objectSchema.properties.count)
      var given = [Bool](repeating: false, count: objectSchema.properties.count)
      var key: Int64?
      for (c, field) in r.fields.enumerated() {
        guard let p = columns[c] else {
          guard let k = Int64(field.text), k >= 0 else {
            throw MigrationError(.invalidData, path: "\(location): column '$key'", "expected an object key (an integer ≥ 0), found '\(field.text)'")
          }
          key = k
          continue
        }
        let property = objectSchema.properties[p]
        given[p] = true
        do {
          values[p] = try decoder.decodeValue(try Self.json(field, for: property), of: property, line: r.row, path: property.name)
        } catch let e as CanonicalDecodingError {
          throw MigrationError(.invalidData, path: "\(location): column '\(property.name)'", e.message)
        } catch let e as CSVCellError {
          throw MigrationError(.invalidData, path: "\(location): column '\(property.name)'", e.message)
        }
      }
      let missing = given.indices.filter { !given[$0] }
      out.append(InsertObject(object: DecodedObject(className: objectSchema.name, key: key, values: values, missing: missing), source: rowSource, number: r.row))
    }
    return out
  }

  struct CSVCellError: Error { var message: String }

  /// The canonical JSON of a cell, read by the property's type.
  static func json(_ field: CSVParser.Field, for property: Property) throws -> JSONValue {
    let text = field.text
    if text.isEmpty && !field.quoted { return .null }
    if property.collection != .single || property.type == .object {
      return try parseJSON(text, what: "JSON (\(property.collection == .single ? "a link or embedded object" : "a collection"))")
    }
    // Values the plain text cannot show (dates outside years 1-9999) are their canonical JSON.
    if text.hasPrefix("{") && [.date, .decimal128, .float, .double].contains(property.type) {
      return try parseJSON(text, what: "a \(property.type.rawValue)")
    }
    switch property.type {
    case .string: return .string(text)
    case .int:
      guard let v = Int64(text) else { throw CSVCellError(message: "expected an integer, found '\(text)'") }
      return .int(v)
    case .bool:
      switch text.lowercased() {
      case "true": return .bool(true)
      case "false": return .bool(false)
      default: throw CSVCellError(message: "expected true or false, found '\(text)'")
      }
    case .float, .double:
      let wrapper = property.type == .float ? "$float" : "$double"
      if ["NaN", "Infinity", "-Infinity", "inf", "-inf"].contains(text) { return .object([JSONMember(wrapper, .string(text))]) }
      let v = try parseJSON(text, what: "a number")
      guard v.isNumber else { throw CSVCellError(message: "expected a number, found '\(text)'") }
      return v
    case .decimal128: return .object([JSONMember("$decimal", .string(text))])
    case .objectId: return .object([JSONMember("$oid", .string(text))])
    case .uuid: return .object([JSONMember("$uuid", .string(text))])
    case .data: return .object([JSONMember("$binary", .string(text))])
    case .date: return .object([JSONMember("$date", .string(text))])
    case .mixed:
      // A mixed cell is JSON when it reads as JSON, else a string.
      return (try? JSONParser.parse(text)) ?? .string(text)
    default:
      return try parseJSON(text, what: "JSON")
    }
  }

  static func parseJSON(_ text: String, what: String) throws -> JSONValue {
    do {
      return try JSONParser.parse(text)
    } catch {
      throw CSVCellError(message: "expected \(what), found '\(text.count > 40 ? String(text.prefix(40)) + "…" : text)'")
    }
  }
}

extension JSONValue {
  fileprivate var isNumber: Bool {
    switch self {
    case .int, .double: return true
    default: return false
    }
  }
}
