import Foundation
import RealmModel
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing
import RealmExport

/// Loads a `dump --format sql` script into `sqlite3` and reads every table back in the same
/// run, then rebuilds the Realm objects from the rows, following the documented mapping
/// (docs/sql-export.md), so that they can be compared with Realm's own dump.
///
/// Values are read with their SQLite storage class (`typeof`) and exactly: text and blobs as
/// hex, reals as their IEEE mantissa and exponent (`ieee754_mantissa`, `ieee754_exponent`).
struct SQLiteRoundTrip {
  /// One value as SQLite stores it.
  enum Cell: Equatable {
    case null
    case int(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])

    var string: String? {
      if case .text(let bytes) = self { return String(decoding: bytes, as: UTF8.self) }
      return nil
    }
    var int: Int64? {
      if case .int(let v) = self { return v }
      return nil
    }
  }

  /// The rows of each table of the plan (by table index), in rowid order.
  var rows: [[[Cell]]]
  /// What `PRAGMA foreign_key_check` printed (nothing when every foreign key holds).
  var foreignKeyProblems: [String]
  /// What sqlite3 wrote to standard error (nothing when the script loaded).
  var errors: String

  let plan: SQLExportPlan
  let schema: Schema

  /// Loads `script` into an in-memory database and reads it back, in one `sqlite3` run.
  static func load(script: [UInt8], plan: SQLExportPlan, schema: Schema, sqlite3: ExternalTool) throws -> SQLiteRoundTrip {
    var text = "\n.headers off\n.mode list\n.separator \"\\t\" \"\\n\"\n"
    text += "SELECT '#fk';\nPRAGMA foreign_key_check;\n"
    for (i, table) in plan.tables.enumerated() {
      let columns = table.columns.map { c -> String in
        let x = "\"" + c.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        return "CASE typeof(\(x)) WHEN 'null' THEN 'n' WHEN 'integer' THEN 'i'||\(x) "
          + "WHEN 'real' THEN 'r'||ieee754_mantissa(\(x))||','||ieee754_exponent(\(x)) "
          + "WHEN 'text' THEN 't'||hex(\(x)) ELSE 'b'||hex(\(x)) END"
      }
      let name = "\"" + table.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      text += "SELECT '#table\t\(i)';\nSELECT \(columns.joined(separator: ",")) FROM \(name) ORDER BY rowid;\n"
    }
    text += "SELECT '#end';\n"
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("realmctl-sql-\(UUID().uuidString).sql")
    try Data(script + Array(text.utf8)).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = try sqlite3.run(["-bail", ":memory:"], input: url)
    var trip = SQLiteRoundTrip(
      rows: Array(repeating: [], count: plan.tables.count), foreignKeyProblems: [], errors: result.stderr,
      plan: plan, schema: schema)
    var section = -2  // -1: foreign keys, >= 0: a table
    for line in TestFiles.split([UInt8](result.stdout)[...], at: 0x0A, keepingEmpty: true) {
      let fields = TestFiles.split(line, at: 0x09, keepingEmpty: true).map { Array($0) }
      guard let first = fields.first else { continue }
      if first == Array("#fk".utf8) {
        section = -1
      } else if first == Array("#table".utf8), fields.count == 2 {
        section = Int(String(decoding: fields[1], as: UTF8.self)) ?? -2
      } else if first == Array("#end".utf8) {
        section = -2
      } else if section == -1 {
        trip.foreignKeyProblems.append(String(decoding: line, as: UTF8.self))
      } else if section >= 0 {
        trip.rows[section].append(fields.map(Self.cell))
      }
    }
    return trip
  }

  private static func cell(_ field: [UInt8]) -> Cell {
    guard let tag = field.first else { return .null }
    let rest = String(decoding: field.dropFirst(), as: UTF8.self)
    switch tag {
    case UInt8(ascii: "i"): return .int(Int64(rest) ?? 0)
    case UInt8(ascii: "r"):
      let parts = rest.split(separator: ",")
      guard parts.count == 2, let m = Int64(parts[0]), let e = Int(parts[1]) else { return .null }
      if m == 1 && e == -3071 { return .real(-0.0) }  // how ieee754() shows a negative zero
      return .real(Double(sign: .plus, exponent: e, significand: Double(m)))
    case UInt8(ascii: "t"): return .text(unhex(field.dropFirst()))
    case UInt8(ascii: "b"): return .blob(unhex(field.dropFirst()))
    default: return .null
    }
  }

  private static func unhex(_ hex: ArraySlice<UInt8>) -> [UInt8] {
    func v(_ c: UInt8) -> UInt8 { c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10 }
    var out: [UInt8] = []
    out.reserveCapacity(hex.count / 2)
    var i = hex.startIndex
    while i + 1 < hex.endIndex {
      out.append(v(hex[i]) << 4 | v(hex[i + 1]))
      i += 2
    }
    return out
  }

  // MARK: - Rebuilding objects

  /// Problems found while rebuilding (rows that are not where the mapping puts them).
  var problems: [String] = []

  /// The keys of the objects of each top-level class, in row order.
  var keys: [String: [Int64]] {
    var out: [String: [Int64]] = [:]
    for name in plan.topLevelClasses {
      guard let layout = plan.classes[name] else { continue }
      out[name] = rows[layout.table].compactMap { $0.first?.int }
    }
    return out
  }

  /// The canonical dump (JSON Lines) of the objects rebuilt from the tables: all of them, or
  /// those whose keys `sample` lists for their class (then embedded rows that belong to objects
  /// left out are not checked to be reached).
  mutating func canonicalDump(sample: [String: Set<Int64>]? = nil) -> [UInt8] {
    var index = Index(trip: self)
    let encoder = CanonicalEncoder(schema: schema)
    var writer = JSONWriter()
    for name in plan.topLevelClasses {
      guard let layout = plan.classes[name] else { continue }
      for row in rows[layout.table] {
        guard let key = row.first?.int else {
          problems.append("\(name): a row without an integer key")
          continue
        }
        if let sample, sample[name]?.contains(key) != true { continue }
        let values = index.values(of: layout, row: row, key: key, problems: &problems)
        encoder.appendLine(layout.objectSchema, key: key, values: values, to: &writer)
      }
    }
    for (table, used) in index.embeddedUsed where sample == nil {
      let total = rows[plan.classes[table]!.table].count
      if used.count != total { problems.append("\(table): \(total) rows, \(used.count) reached from their parents") }
    }
    return writer.buffer
  }

  /// The lines of a canonical dump whose objects `sample` lists (a line's own `$key` is the
  /// first in it: embedded objects have none, links come after it).
  static func lines(_ dump: [UInt8], in sample: [String: Set<Int64>]) throws -> [UInt8] {
    var out: [UInt8] = []
    let marker = Array("\"$key\":".utf8)
    for line in TestFiles.lines(dump) {
      guard let at = line.firstRange(of: marker) else { continue }
      let digits = line[at.upperBound...].prefix { $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }
      guard let key = Int64(String(decoding: digits, as: UTF8.self)),
        case .string(let className)? = try JSONParser.parse(Array(line[..<at.lowerBound].dropLast()) + [0x7D])["$class"]
      else { continue }
      if sample[className]?.contains(key) == true {
        out.append(contentsOf: line)
        out.append(0x0A)
      }
    }
    return out
  }

  /// Child rows by parent key, embedded rows by key.
  struct Index {
    let trip: SQLiteRoundTrip
    var children: [Int: [Int64: [[Cell]]]] = [:]
    var embedded: [String: [Int64: [Cell]]] = [:]
    var embeddedUsed: [String: Set<Int64>] = [:]

    init(trip: SQLiteRoundTrip) {
      self.trip = trip
      for layout in trip.plan.classes.values {
        for child in layout.childTables.compactMap({ $0 }) {
          var byParent: [Int64: [[Cell]]] = [:]
          for row in trip.rows[child] { byParent[row[0].int ?? -1, default: []].append(row) }
          children[child] = byParent
        }
        if layout.objectSchema.isEmbedded {
          var byKey: [Int64: [Cell]] = [:]
          for row in trip.rows[layout.table] { byKey[row[0].int ?? -1] = row }
          embedded[layout.objectSchema.name] = byKey
          embeddedUsed[layout.objectSchema.name] = []
        }
      }
    }

    /// The property values of one object (top-level or embedded) from its row.
    mutating func values(
      of layout: SQLExportPlan.ClassLayout, row: [Cell], key: Int64, problems: inout [String]
    ) -> [RealmValue] {
      let properties = layout.objectSchema.properties
      var values = Array(repeating: RealmValue.null, count: properties.count)
      for (c, source) in layout.sources.enumerated() where c < row.count {
        switch source {
        case .value(let i):
          values[i] = value(row[c], of: properties[i], owner: (layout.objectSchema.name, key), problems: &problems)
        case .mixedValue(let i):
          let type = layout.sources.firstIndex(of: .mixedType(property: i)).map { row[$0] } ?? .null
          values[i] = mixed(row[c], type: type, problems: &problems)
        default: break
        }
      }
      for (i, child) in layout.childTables.enumerated() {
        guard let child else { continue }
        let p = properties[i]
        let elementRows = children[child]?[key] ?? []
        let owner = (layout.objectSchema.name, key)
        func element(_ r: [Cell], at column: Int) -> RealmValue {
          p.type == .mixed
            ? mixed(r[column], type: r[column + 1], problems: &problems)
            : value(r[column], of: p, owner: owner, problems: &problems, property: p.name)
        }
        switch p.collection {
        case .list:
          let sorted = elementRows.sorted { ($0[1].int ?? 0) < ($1[1].int ?? 0) }
          if sorted.map({ $0[1].int ?? -1 }) != Array(0..<Int64(sorted.count)) {
            problems.append("\(trip.plan.tables[child].name): positions of \(key) are not 0..<\(sorted.count)")
          }
          values[i] = .list(sorted.map { element($0, at: 2) })
        case .set:
          values[i] = .set(elementRows.map { element($0, at: 1) })
        case .dictionary:
          values[i] = .dictionary(elementRows.map { DictionaryEntry($0[1].string ?? "", element($0, at: 2)) })
        case .single:
          break
        }
      }
      return values
    }

    /// A value of a typed column.
    mutating func value(
      _ cell: Cell, of p: Property, owner: (String, Int64), problems: inout [String], property: String? = nil
    ) -> RealmValue {
      if cell == .null { return .null }
      switch p.type {
      case .object:
        guard let target = p.objectType, let key = cell.int else { return .null }
        guard embedded[target] != nil else { return .link(ObjectLink(className: target, key: key)) }
        return embeddedObject(target, key: key, owner: owner, property: property ?? p.name, problems: &problems)
      default:
        return scalar(cell, p.type, problems: &problems)
      }
    }

    /// An embedded object rebuilt from its row, checking its parent reference.
    mutating func embeddedObject(
      _ className: String, key: Int64, owner: (String, Int64), property: String, problems: inout [String]
    ) -> RealmValue {
      guard let layout = trip.plan.classes[className], let row = embedded[className]?[key] else {
        problems.append("\(className) \(key): no such row")
        return .null
      }
      if !embeddedUsed[className, default: []].insert(key).inserted {
        problems.append("\(className) \(key): reached twice")
      }
      for (c, source) in layout.sources.enumerated() {
        switch source {
        case .parent(let ownerClass):
          let expected: Cell = ownerClass == owner.0 ? .int(owner.1) : .null
          if row[c] != expected { problems.append("\(className) \(key): parent of \(ownerClass) is \(row[c]), expected \(expected)") }
        case .parentProperty:
          if row[c].string != property { problems.append("\(className) \(key): parent property \(row[c]), expected \(property)") }
        default: break
        }
      }
      let values = self.values(of: layout, row: row, key: key, problems: &problems)
      return .embedded(
        EmbeddedObject(
          className: className, key: key,
          properties: zip(layout.objectSchema.properties, values).map { NamedValue($0.name, $1) }))
    }

    /// A mixed value from its value and type columns.
    func mixed(_ cell: Cell, type: Cell, problems: inout [String]) -> RealmValue {
      guard let t = type.string else {
        if cell != .null || type != .null { problems.append("mixed without a type: \(cell)") }
        return .null
      }
      if t.hasPrefix("link:"), let key = cell.int {
        return .link(ObjectLink(className: String(t.dropFirst(5)), key: key))
      }
      if t == "list" || t == "dictionary", let json = cell.string {
        do {
          let parsed = try JSONParser.parse(json)
          let decoder = CanonicalDecoder(schema: trip.schema)
          return try decoder.decodeValue(parsed, of: Property(name: "m", type: .mixed), line: 0, path: "m")
        } catch {
          problems.append("nested \(t) '\(json)': \(error)")
          return .null
        }
      }
      guard let type = PropertyType(rawValue: t) else {
        problems.append("unknown mixed type '\(t)'")
        return .null
      }
      return scalar(cell, type, problems: &problems)
    }

    /// A scalar of `type` from its cell (docs/sql-export.md, "Values").
    func scalar(_ cell: Cell, _ type: PropertyType, problems: inout [String]) -> RealmValue {
      switch (type, cell) {
      case (.bool, .int(let v)): return .bool(v != 0)
      case (.int, .int(let v)): return .int(v)
      case (.float, .real(let d)): return .float(Float(d))
      case (.double, .real(let d)): return .double(d)
      case (.float, .text(let t)) where t == Array("NaN".utf8): return .float(.nan)
      case (.double, .text(let t)) where t == Array("NaN".utf8): return .double(.nan)
      case (.string, .text(let t)): return .string(String(decoding: t, as: UTF8.self))
      case (.data, .blob(let b)): return .data(b)
      case (.decimal128, .text(let t)):
        if let d = Decimal128(text: String(decoding: t, as: UTF8.self)) { return .decimal128(d) }
      case (.objectId, .text), (.uuid, .text):
        let wrapper = type == .objectId ? "$oid" : "$uuid"
        let json = JSONValue.object([JSONMember(wrapper, .string(cell.string ?? ""))])
        if let v = try? CanonicalDecoder(schema: trip.schema).decodeValue(
          json, of: Property(name: "v", type: type), line: 0, path: "v")
        {
          return v
        }
      case (.date, .text(let t)):
        if let date = SQLiteRoundTrip.date(String(decoding: t, as: UTF8.self)) { return .date(date) }
      default: break
      }
      problems.append("\(type.rawValue) stored as \(cell)")
      return .null
    }
  }

  /// Parses the export's date text: `[+-]YYYY…-MM-DDTHH:MM:SS.nnnnnnnnnZ`.
  static func date(_ text: String) -> Timestamp? {
    var s = Substring(text)
    var sign: Int64 = 1
    if s.first == "-" || s.first == "+" {
      sign = s.first == "-" ? -1 : 1
      s = s.dropFirst()
    }
    let parts = s.split(separator: "T")
    guard parts.count == 2, parts[1].hasSuffix("Z") else { return nil }
    let day = parts[0].split(separator: "-")
    let time = parts[1].dropLast().split(separator: ":")
    guard day.count == 3, time.count == 3, let y = Int64(day[0]), let mo = Int64(day[1]), let d = Int64(day[2]),
      let h = Int64(time[0]), let mi = Int64(time[1])
    else { return nil }
    let secondParts = time[2].split(separator: ".")
    guard secondParts.count == 2, let sec = Int64(secondParts[0]), let ns = Int64(secondParts[1]),
      secondParts[1].count == 9
    else { return nil }
    let days = Timestamp.daysSinceEpoch(year: sign * y, month: mo, day: d)
    // The floored second may be Int64.min - 1: Realm's own form (nanoseconds with the sign of
    // the seconds) brings it back into range.
    var seconds = Int128(days) * 86_400 + Int128(h * 3600 + mi * 60 + sec)
    var nanos = ns
    if seconds < 0 && nanos > 0 {
      seconds += 1
      nanos -= 1_000_000_000
    }
    guard let exact = Int64(exactly: seconds) else { return nil }
    return Timestamp(seconds: exact, nanoseconds: Int32(nanos))
  }
}

extension SQLiteRoundTrip {
  /// `lines` (a canonical dump of files with `schema`) as SQLite keeps them: the one loss the
  /// mapping documents, -0.0 in REAL columns reading back as 0.0 (mixed values keep it).
  static func asStoredBySQLite(_ lines: [UInt8], schema: Schema) throws -> [UInt8] {
    let decoder = CanonicalDecoder(schema: schema)
    let encoder = CanonicalEncoder(schema: schema)
    var writer = JSONWriter()
    var number = 0
    for line in lines.split(separator: 0x0A) where !line.isEmpty {
      number += 1
      let object = try decoder.decodeLine(Array(line), line: number)
      guard let cls = schema.objectSchema(named: object.className) else { continue }
      let values = zip(cls.properties, object.values).map { unsignedZeros($1, $0, schema) }
      encoder.appendLine(cls, key: object.key ?? 0, values: values, to: &writer)
    }
    return writer.buffer
  }

  private static func unsignedZeros(_ v: RealmValue, _ p: Property, _ schema: Schema) -> RealmValue {
    switch v {
    case .float(let f) where f == 0 && p.type == .float: return .float(0)
    case .double(let d) where d == 0 && p.type == .double: return .double(0)
    case .list(let items): return .list(items.map { unsignedZeros($0, p, schema) })
    case .set(let items): return .set(items.map { unsignedZeros($0, p, schema) })
    case .dictionary(let entries):
      return .dictionary(entries.map { DictionaryEntry($0.key, unsignedZeros($0.value, p, schema)) })
    case .embedded(var object):
      if let cls = schema.objectSchema(named: object.className) {
        object.properties = zip(cls.properties, object.properties).map {
          NamedValue($1.name, unsignedZeros($1.value, $0, schema))
        }
      }
      return .embedded(object)
    default: return v
    }
  }
}
