/// The two sides of the `exec` protocol for one step: objects out as canonical dump lines,
/// answers back in (`specs/dump-format.md`).
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
    let decoded: DecodedObject
    do {
      decoded = try decoder.decodeLine(line, line: number)
    } catch let e {
      var where_ = e.path.isEmpty ? "" : "\(e.path): "
      if e.path == "$class" || e.path == "$key" { where_ = "'\(e.path)': " }
      throw failure(path, "output line \(number) (the answer for key \(key)): \(where_)\(e.message)")
    }
    guard decoded.className == layout.name else {
      throw failure(
        path, "output line \(number) (the answer for key \(key)): expected '$class' '\(layout.name)', found '\(decoded.className)'")
    }
    guard let answered = decoded.key else {
      throw failure(path, "output line \(number) has no '$key' (expected \(key); answers must keep the input order)")
    }
    guard answered == key else {
      throw failure(
        path, "output line \(number): expected the answer for key \(key), found '$key' \(answered) (each object needs exactly one answer, in the order the objects were given)")
    }
    var values = decoded.values
    for i in decoded.missing where i < original.count && i < values.count { values[i] = original[i] }
    return values
  }

  func failure(_ path: String, _ message: String) -> MigrationError {
    MigrationError(.execFailed, path: path, "'\(describeCommand)' \(message)")
  }
}
