import HTTPServer
import RealmEdit
import RealmExport
import RealmJSON
import RealmMigration
import RealmModel
import RealmStorage

/// The endpoints that change a file: edit an object, add one, delete some, import CSV or JSON
/// Lines. Each goes through `DataEditor`, the engine of `realmctl insert`, `update` and
/// `delete`: the file's lock is taken, everything is checked before anything is written (types,
/// required properties, primary keys, link targets), the write keeps the file's format and is
/// atomic; an error leaves the file as it was and comes back with the commands' message and the
/// property it is about.
extension Studio {
  /// `POST /api/files/ID/classes/C/objects/KEY` with `{"values": {"prop": VALUE, ...}}`: sets
  /// the given properties of the object (values in the dump's JSON, docs/dump-format.md), as
  /// `realmctl insert --upsert` does with a line naming the object.
  func update(_ file: StudioFile, className: String, key: Int64, _ request: HTTPRequest) throws -> HTTPResponse {
    try requireWritable()
    let members = try Self.values(request)
    let (browser, _) = try file.browser()
    let cls = try objectSchema(className, browser)
    guard !cls.isEmbedded else {
      throw StudioError(
        status: 422, message: "'\(className)' is an embedded class: edit its objects inside their parent's property")
    }
    for m in members {
      guard cls.property(named: m.key) != nil else {
        throw StudioError(status: 422, message: "'\(className)' has no property '\(m.key)'", field: m.key)
      }
      if m.key == cls.primaryKey {
        throw StudioError(
          status: 422,
          message: "the primary key identifies the object and cannot change (Realm does not allow it): add an object with the new key and delete this one",
          field: m.key)
      }
    }
    guard let current = try browser.object(of: className, key: key) else {
      throw StudioError.notFound("'\(className)' has no object with key \(key)")
    }
    // The line names the object as upsert finds it: by its primary key, or by $key.
    var line = [JSONMember("$class", .string(className))]
    if let pk = cls.primaryKey, let index = cls.properties.firstIndex(where: { $0.name == pk }) {
      let text = CanonicalEncoder(schema: browser.schema).text(of: current[index])
      line.append(JSONMember(pk, try JSONParser.parse(text)))
    } else {
      line.append(JSONMember("$key", .int(key)))
    }
    line += members
    let result = try edit(file, className: className, mode: .upsert) { schema in
      [try Self.decode(line, schema: schema, source: "the edit of '\(className)' object \(key)")]
    }
    return Self.report(result, file: file)
  }

  /// `POST /api/files/ID/classes/C/objects` with `{"values": {...}}`: adds an object, as
  /// `realmctl insert` does with one line (properties left out are null, empty, or an error
  /// when required).
  func insert(_ file: StudioFile, className: String, _ request: HTTPRequest) throws -> HTTPResponse {
    try requireWritable()
    let members = try Self.values(request, allowEmpty: true)
    let (browser, _) = try file.browser()
    let cls = try objectSchema(className, browser)
    guard !cls.isEmbedded else {
      throw StudioError(status: 422, message: "'\(className)' is an embedded class: its objects are added inside their parent")
    }
    let line = [JSONMember("$class", .string(className))] + members
    let result = try edit(file, className: className, mode: .insert) { schema in
      [try Self.decode(line, schema: schema, source: "the new object")]
    }
    return Self.report(result, file: file)
  }

  /// `POST /api/files/ID/classes/C/delete` with `{"keys": ["3", "7"], "cascade": false}`: deletes
  /// the objects, as `realmctl delete` does; objects owning embedded objects need `"cascade":
  /// true` (the page asks first: the answer without it is 409 with code `cascade`).
  func delete(_ file: StudioFile, className: String, _ request: HTTPRequest) throws -> HTTPResponse {
    try requireWritable()
    let body = try StudioBody.object(request)
    guard case .array(let items)? = body["keys"], !items.isEmpty else {
      throw StudioError.badRequest("the body needs \"keys\": the keys of the objects to delete")
    }
    var keys: [Int64] = []
    for item in items {
      switch item {
      case .string(let s) where Int64(s) != nil: keys.append(Int64(s)!)
      case .int(let i): keys.append(i)
      default: throw StudioError.badRequest("a key is not an integer")
      }
    }
    var cascade = false
    if case .bool(let b)? = body["cascade"] { cascade = b }
    var options = MigrationOptions()
    options.encryptionKey = file.key
    let result: EditResult
    do {
      result = try file.editing {
        try DataEditor.delete(path: file.path, className: className, keys: keys, cascadeEmbedded: cascade, options: options)
      }
    } catch let error as MigrationError where error.code == .constraintViolated && !cascade {
      throw StudioError(status: 409, message: error.message, code: "cascade")
    }
    return Self.report(result, file: file)
  }

  /// `POST /api/files/ID/classes/C/import?format=csv|jsonl[&name=FILE][&mode=upsert]` with the
  /// file as the body: its objects inserted (or upserted) as `realmctl insert` inserts them;
  /// CSV rows are objects of the class, JSON Lines name theirs with `$class`. `name` is the
  /// uploaded file's name, for the messages.
  func importObjects(_ file: StudioFile, className: String, _ request: HTTPRequest) throws -> HTTPResponse {
    try requireWritable()
    let format = request.queryValue("format") ?? "csv"
    guard format == "csv" || format == "jsonl" else { throw StudioError.badRequest("'format' is csv or jsonl") }
    let mode: InsertMode = request.queryValue("mode") == "upsert" ? .upsert : .insert
    let name = request.queryValue("name").map { $0.isEmpty ? "the upload" : "'\($0)'" } ?? "the upload"
    let bytes = request.body
    let result = try edit(file, className: className, mode: mode) { schema in
      if format == "csv" {
        return try CSVObjectDecoder(schema: schema, className: className).objects(bytes, source: name)
      }
      return try Self.jsonLines(bytes, schema: schema, source: "\(name) line")
    }
    return Self.report(result, file: file)
  }

  // MARK: - Shared

  /// Refuses every change in a read-only studio.
  private func requireWritable() throws {
    if options.readOnly { throw StudioError.conflict("the studio was started with --read-only: nothing is written", code: "readOnly") }
  }

  /// Runs `DataEditor.insert` on the file, one edit at a time.
  private func edit(
    _ file: StudioFile, className: String, mode: InsertMode, _ objects: (Schema) throws -> [InsertObject]
  ) throws -> EditResult {
    var options = MigrationOptions()
    options.encryptionKey = file.key
    return try file.editing {
      try DataEditor.insert(path: file.path, mode: mode, options: options, input: objects)
    }
  }

  /// The `values` member of the body: the properties to set, in the dump's JSON.
  static func values(_ request: HTTPRequest, allowEmpty: Bool = false) throws -> [JSONMember] {
    let body = try StudioBody.object(request)
    guard case .object(let members)? = body["values"] else {
      throw StudioError.badRequest("the body needs \"values\": an object of properties and their values")
    }
    if members.isEmpty && !allowEmpty { throw StudioError.badRequest("\"values\" names no property") }
    for m in members where m.key.hasPrefix("$") {
      throw StudioError(status: 422, message: "'\(m.key)' is not a property", field: m.key)
    }
    return members
  }

  /// One object from its line, decoded as `insert` decodes a line (properties left out listed
  /// as missing).
  static func decode(_ line: [JSONMember], schema: Schema, source: String) throws -> InsertObject {
    let decoder = CanonicalDecoder(schema: schema, missingProperties: .allow)
    do {
      return InsertObject(object: try decoder.decodeObject(.object(line), line: 0), source: source, number: 0)
    } catch {
      throw MigrationError(.invalidData, path: source, error.description)
    }
  }

  /// The objects of JSON Lines text, in the dump's shape, numbered by line.
  static func jsonLines(_ bytes: [UInt8], schema: Schema, source: String) throws -> [InsertObject] {
    let decoder = CanonicalDecoder(schema: schema, missingProperties: .allow)
    var out: [InsertObject] = []
    var line = 0
    var start = 0
    while start < bytes.count {
      line += 1
      var end = start
      while end < bytes.count && bytes[end] != 0x0A { end += 1 }
      var slice = bytes[start..<end]
      if slice.last == 0x0D { slice = slice.dropLast() }
      start = end + 1
      if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      do {
        out.append(InsertObject(object: try decoder.decodeLine(Array(slice), line: line), source: source, number: line))
      } catch {
        throw MigrationError(
          .invalidData, path: "\(source) \(line)", error.path.isEmpty ? error.message : "\(error.path): \(error.message)")
      }
    }
    return out
  }

  /// The answer to a successful edit: what the engine did, and the file's new generation.
  static func report(_ result: EditResult, file: StudioFile) -> HTTPResponse {
    var w = JSONWriter(indent: 0, capacity: 512)
    w.beginObject()
    w.member("ok", true)
    w.member("writePath", String(describing: result.writePath))
    w.member("inserted", result.total(\.inserted))
    w.member("updated", result.total(\.updated))
    w.member("deleted", result.total(\.deleted))
    w.member("embeddedDeleted", result.total(\.embeddedDeleted))
    w.member("generation", file.generation())
    w.endObject()
    return .json(w.buffer)
  }
}
