import RealmFormat
import RealmModel
import RealmJSON

/// The two sides of the `exec` protocol for one step: objects out as canonical dump lines,
/// answers back in (`docs/dump-format.md`).
///
/// Objects are shown as the stage holds them: the class under its name at that point of the
/// migration, with its properties at that point; links and embedded objects as the file has
/// them (the migrator renames and re-nests them after the last stage). So the schema used to
/// encode and decode is the stage's class followed by the source classes of the file.
struct ExecCodec {
  let layout: ObjectSchema
  let encoder: CanonicalEncoder
  let decoder: CanonicalDecoder
  let describeCommand: String

  /// `sourceClasses` are the classes of the file as read (their names as the links carry);
  /// `sourceName` maps a class name of the working schema back to the file's name.
  init(layout: ObjectSchema, sourceClasses: [ObjectSchema], sourceName: (String) -> String, command: String) {
    var shown = layout
    for i in shown.properties.indices {
      if let target = shown.properties[i].objectType { shown.properties[i].objectType = sourceName(target) }
    }
    let schema = Schema(
      schemaVersion: nil, fileFormat: FormatConstants.currentFileFormat,
      classes: [shown] + sourceClasses.filter { $0.name != shown.name })
    self.layout = shown
    encoder = CanonicalEncoder(schema: schema)
    decoder = CanonicalDecoder(schema: schema, missingProperties: .allow)
    describeCommand = command
  }

  /// Appends the object's line to `writer`.
  func append(key: Int64, values: [RealmValue], to writer: inout JSONWriter) {
    encoder.appendLine(layout, key: key, values: values, to: &writer)
  }

  /// Decodes the answer for the object `key` whose values were `original`: properties the
  /// answer leaves out keep their values.
  func decodeAnswer(_ line: [UInt8], number: Int, key: Int64, original: [RealmValue], path: String) throws -> [RealmValue] {
    let context = "output line \(number) (the answer for key \(key))"
    let json: JSONValue
    do {
      json = try JSONParser.parse(line)
    } catch {
      throw failure(path, "\(context) is not valid JSON: column \(error.column): \(error.message)")
    }
    // Class and key first: a wrong one is the likelier mistake, and says more than a property error.
    guard case .object = json else {
      throw failure(path, "\(context): expected a JSON object, found \(Self.kind(of: json))")
    }
    guard case .string(let className)? = json["$class"] else {
      throw failure(path, "\(context): expected '$class' '\(layout.name)', found \(json["$class"].map(Self.kind) ?? "none")")
    }
    guard className == layout.name else {
      throw failure(path, "\(context): expected '$class' '\(layout.name)', found '\(className)'")
    }
    guard let answered = json["$key"] else {
      throw failure(path, "output line \(number) has no '$key' (expected \(key); each object needs exactly one answer, in the order the objects were given)")
    }
    guard answered == .int(key) else {
      let found = if case .int(let k) = answered { "\(k)" } else { Self.kind(of: answered) }
      throw failure(
        path,
        "output line \(number): expected the answer for key \(key), found '$key' \(found) (each object needs exactly one answer, in the order the objects were given)")
    }
    let decoded: DecodedObject
    do {
      decoded = try decoder.decodeObject(json, line: number)
    } catch let e {
      throw failure(path, "\(context): \(e.path.isEmpty ? "" : "\(e.path): ")\(e.message)")
    }
    var values = decoded.values
    for i in decoded.missing where i < original.count && i < values.count { values[i] = original[i] }
    return values
  }

  /// A short description of a JSON value's kind, for messages.
  static func kind(of json: JSONValue) -> String {
    switch json {
    case .null: return "null"
    case .bool: return "a boolean"
    case .int(let i): return "the integer \(i)"
    case .double: return "a number"
    case .string(let s): return "the string '\(s.prefix(40))'"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  func failure(_ path: String, _ message: String) -> MigrationError {
    MigrationError(.execFailed, path: path, "'\(describeCommand)' \(message)")
  }
}
