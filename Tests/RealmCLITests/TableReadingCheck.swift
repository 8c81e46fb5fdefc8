import Foundation
import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage
import RealmTestBytes
import RealmTestSupport

/// Compares realmctl's reading of *every* table of a file (plain tables too, which `schema`
/// and `dump` do not show) with another Realm Core's reading of it:
///
/// - `tables.jsonl`: Realm Core 14's reading of the file Realm Core 11 upgraded (every table,
///   columns with types, nullability, collection, index and link target, objects by key);
/// - `core5.jsonl`: Realm Core 5's reading of the legacy file itself (rows by index).
///
/// Values are compared by meaning (``DumpComparison``), through dump lines whose class is the
/// table's link name.
struct TableReadingCheck {
  let group: Group

  init(path: String) throws {
    group = try RealmFile.open(path: path).group
  }

  // MARK: - tables.jsonl

  /// Differences from a `tables.jsonl` (empty when realmctl reads every table as Realm does).
  func problems(tablesJSONL url: URL) throws -> [String] {
    var problems: [String] = []
    let lines = try Self.lines(url)
    let descriptions = lines.filter { $0["key"] == nil }
    var expectedRows: [JSONValue] = []
    var classes: [JSONValue] = []
    for d in descriptions {
      guard case .string(let name)? = d["table"], case .array(let columns)? = d["columns"] else { continue }
      guard let table = group.table(named: name) else {
        problems.append("table '\(name)': missing")
        continue
      }
      if d["count"] != .int(Int64(table.objectCount)) {
        problems.append("table '\(name)': \(table.objectCount) objects, Realm says \(String(describing: d["count"]))")
      }
      let ours = try describe(table)
      if ours != columns {
        problems.append("table '\(name)': columns differ:\n  realm: \(columns.map(DumpComparison.canon))\n  ours:  \(ours.map(DumpComparison.canon))")
      }
      classes.append(Self.schemaClass(name: table.linkName, columns: columns))
      for row in lines where row["table"] == d["table"] && row["key"] != nil {
        guard case .array(let values)? = row["values"] else { continue }
        var members = [JSONMember("$class", .string(table.linkName)), JSONMember("$key", row["key"]!)]
        for (c, v) in zip(columns, values) {
          guard case .string(let n)? = c["name"] else { continue }
          members.append(JSONMember(n, Self.linkNames(v)))
        }
        expectedRows.append(.object(members))
      }
    }
    if group.tables.count != descriptions.count {
      problems.append("realmctl has \(group.tables.count) tables, Realm \(descriptions.count)")
    }
    let actual = try dumpLines(tables: descriptions.compactMap { d in
      if case .string(let n)? = d["table"] { return group.table(named: n) } else { return nil }
    })
    return problems + DumpComparison.compareDumps(
      expected: expectedRows, actual: actual, schema: .object([JSONMember("classes", .array(classes))])
    ).prefix(10)
  }

  /// A table's columns in the words of `tables.jsonl`.
  private func describe(_ table: Table) throws -> [JSONValue] {
    try table.publicColumns.map { c throws -> JSONValue in
      var members = [
        JSONMember("name", .string(c.name)),
        JSONMember("type", .string(Self.typeWord(c.type))),
        JSONMember("nullable", .bool(c.isNullable)),
        JSONMember("collection", c.collectionKind == .single ? .null : .string(c.collectionKind.rawValue)),
        JSONMember("indexed", .bool(try group.objectSchema(of: table).property(named: c.name)?.isIndexed ?? false)),
      ]
      if c.isLink, let key = c.oppositeTableKey, let target = group.table(key: key) {
        members.append(JSONMember("target", .string(target.name)))
      }
      return .object(members)
    }
  }

  private static func typeWord(_ t: ColumnType) -> String {
    switch t {
    case .timestamp: return "timestamp"
    case .binary: return "binary"
    case .link, .linkList: return "link"
    case .objectId: return "objectid"
    case .typedLink: return "typedlink"
    default: return "\(t)"
    }
  }

  /// A schema-document class for a `tables.jsonl` table (what ``DumpComparison`` needs).
  private static func schemaClass(name: String, columns: [JSONValue]) -> JSONValue {
    let properties = columns.map { c -> JSONValue in
      var type: String
      switch c["type"] {
      case .string("binary")?: type = "data"
      case .string("timestamp")?: type = "date"
      case .string("link")?: type = "object"
      case .string(let s)?: type = s
      default: type = "mixed"
      }
      var members = [JSONMember("name", c["name"] ?? .null)]
      var objectType: JSONValue = .null
      if case .string(let target)? = c["target"] { objectType = .string(linkName(target)) }
      if c["collection"] == .string("list") {
        members.append(JSONMember("type", .string("list")))
        members.append(JSONMember("objectType", type == "object" ? objectType : .string(type)))
      } else {
        members.append(JSONMember("type", .string(type)))
        if type == "object" { members.append(JSONMember("objectType", objectType)) }
      }
      return .object(members)
    }
    return .object([JSONMember("name", .string(name)), JSONMember("properties", .array(properties))])
  }

  // MARK: - core5.jsonl

  /// Differences from Realm Core 5's own reading of the legacy file (`core5.jsonl`), for the
  /// tables realmctl shows (not `pk`) and the columns it keeps (not backlinks, `!OID`, or old
  /// mixed values, which Realm's upgrade drops). A subtable is compared as the list of its
  /// first column, which is what Realm's upgrade makes of it.
  func problems(core5JSONL url: URL) throws -> [String] {
    var problems: [String] = []
    let lines = try Self.lines(url)
    var expectedRows: [JSONValue] = []
    var compared: [Table] = []
    var kept: [String: [(index: Int, column: Column)]] = [:]
    for d in lines where d["table"] != nil && d["key"] == nil {
      guard case .string(let name)? = d["table"], name != "pk", case .array(let columns)? = d["columns"] else { continue }
      guard let table = group.table(named: name) else {
        problems.append("table '\(name)': missing")
        continue
      }
      if d["count"] != .int(Int64(table.objectCount)) {
        problems.append("table '\(name)': \(table.objectCount) objects, Core 5 says \(String(describing: d["count"]))")
      }
      compared.append(table)
      kept[name] = columns.indices.compactMap { j in
        guard let c = table.publicColumns.first(where: { $0.specIndex == j }), c.type != .mixed else { return nil }
        return (j, c)
      }
    }
    for row in lines where row["key"] != nil {
      guard case .string(let name)? = row["table"], let columns = kept[name], case .array(let values)? = row["values"],
        let table = group.table(named: name)
      else { continue }
      var members = [JSONMember("$class", .string(table.linkName)), JSONMember("$key", row["key"]!)]
      for (j, column) in columns where j < values.count {
        var v = Self.linkNames(values[j])
        if column.collectionKind == .list && !column.isLink, case .array(let rows) = v {
          v = .array(rows.map { if case .array(let cells) = $0 { return cells.first ?? .null } else { return $0 } })
        }
        members.append(JSONMember(column.name, v))
      }
      expectedRows.append(.object(members))
    }
    var actual = try dumpLines(tables: compared)
    actual = actual.map { line in
      guard case .object(let members) = line, case .string(let cls)? = line["$class"],
        let table = compared.first(where: { $0.linkName == cls }), let columns = kept[table.name]
      else { return line }
      let names = Set(columns.map(\.column.name))
      return .object(members.filter { $0.key.hasPrefix("$") || names.contains($0.key) })
    }
    let schema = JSONValue.object([
      JSONMember("classes", .array(try compared.map { try Self.schemaJSON(try group.objectSchema(of: $0)) }))
    ])
    return problems + DumpComparison.compareDumps(expected: expectedRows, actual: actual, schema: schema).prefix(10)
  }

  // MARK: - Helpers

  /// Our dump lines of `tables` (class = link name).
  private func dumpLines(tables: [Table]) throws -> [JSONValue] {
    var writer = JSONWriter()
    for table in tables {
      let objectSchema = try group.objectSchema(of: table)
      let encoder = CanonicalEncoder(schema: Schema(schemaVersion: nil, fileFormat: group.fileFormat, classes: [objectSchema]))
      try group.forEachObject(in: table) { key, values in
        encoder.appendLine(objectSchema, key: key, values: values, to: &writer)
      }
    }
    var problems: [String] = []
    return DumpComparison.parseLines(writer.buffer, name: "realmctl", problems: &problems)
  }

  private static func schemaJSON(_ c: ObjectSchema) throws -> JSONValue {
    try JSONParser.parse(SchemaJSON.encode(Schema(schemaVersion: nil, fileFormat: 0, classes: [c])))["classes"]
      .flatMap { if case .array(let a) = $0 { return a.first } else { return nil } } ?? .null
  }

  /// Replaces full table names in links (`{"$ref":"class_X"}`) by link names (`X`).
  static func linkNames(_ v: JSONValue) -> JSONValue {
    switch v {
    case .array(let items): return .array(items.map(linkNames))
    case .object(let members):
      return .object(members.map { m in
        if m.key == "$ref", case .string(let s) = m.value { return JSONMember("$ref", .string(linkName(s))) }
        return JSONMember(m.key, linkNames(m.value))
      })
    default: return v
    }
  }

  static func linkName(_ table: String) -> String {
    table.hasPrefix("class_") ? String(table.dropFirst(6)) : table
  }

  static func lines(_ url: URL) throws -> [JSONValue] {
    var problems: [String] = []
    let lines = DumpComparison.parseLines([UInt8](try Data(contentsOf: url)), name: url.lastPathComponent, problems: &problems)
    guard problems.isEmpty else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: problems.joined()]) }
    return lines
  }
}
