import RealmModel
import RealmJSON

/// Compares dumps and schema documents by meaning, exactly as `shared/tools/compare-dump.py`
/// does: floats at their own precision (a float property compares its values rounded to 32
/// bits), decimals by value, sets as multisets, JSON objects regardless of member order, and,
/// for schemas, property order ignored on request. Each function returns the differences as
/// human-readable lines; an empty list means the two match.
///
/// One deliberate difference: decimals are compared at their full 34 digits, where the script's
/// `Decimal.normalize()` rounds both sides to 28 digits first.
public enum DumpComparison {
  /// Compares two JSON Lines dumps of files with the schema document `schema`
  /// (the expected `schema.json`). Lines whose bytes are the same are equal without being
  /// normalised; two dumps with the same bytes match without being parsed.
  public static func compareDumps(expected: [UInt8], actual: [UInt8], schema: [UInt8]) -> [String] {
    let schemaJSON: JSONValue
    do {
      schemaJSON = try JSONParser.parse(schema)
    } catch {
      return ["schema: not JSON: \(error)"]
    }
    // The same bytes mean the same (the usual case: realmctl writes Realm's bytes). Lines are
    // compared by meaning only where their bytes differ.
    if expected == actual { return [] }
    var problems: [String] = []
    let e = parseRawLines(expected, name: "expected", problems: &problems)
    let a = parseRawLines(actual, name: "actual", problems: &problems)
    if !problems.isEmpty { return problems }
    let sameBytes = zip(e, a).map { $0.bytes == $1.bytes }
    return compareDumps(expected: e.map(\.value), actual: a.map(\.value), schema: schemaJSON, sameLines: sameBytes)
  }

  /// Compares parsed dump lines (blank lines already left out).
  public static func compareDumps(expected: [JSONValue], actual: [JSONValue], schema: JSONValue)
    -> [String]
  {
    compareDumps(expected: expected, actual: actual, schema: schema, sameLines: [])
  }

  /// Compares parsed dump lines; the pairs `sameLines` marks true are known equal (their
  /// bytes are).
  static func compareDumps(expected: [JSONValue], actual: [JSONValue], schema: JSONValue, sameLines: [Bool])
    -> [String]
  {
    let normalizer = Normalizer(schema: schema)
    var messages: [String] = []
    if expected.count != actual.count {
      messages.append("line count: expected \(expected.count), got \(actual.count)")
    }
    for (i, (e, a)) in zip(expected, actual).enumerated() {
      if i < sameLines.count && sameLines[i] { continue }
      let ne = normalizer.object(e, embedded: false)
      let na = normalizer.object(a, embedded: false)
      if ne == na { continue }
      let keys = Set(ne.keys).union(na.keys).sorted()
      let differing = keys.filter { ne[$0] != na[$0] }
      let cls = e["$class"].map(canon) ?? "None"
      let key = e["$key"].map(canon) ?? "None"
      let shownE = clip(canon(.object(differing.map { JSONMember($0, e[$0] ?? .null) })))
      let shownA = clip(canon(.object(differing.map { JSONMember($0, a[$0] ?? .null) })))
      messages.append(
        "line \(i + 1) (\(cls) key \(key)): differs in \(differing): expected \(shownE) got \(shownA)"
      )
    }
    return messages
  }

  /// Compares two schema documents; with `anyPropertyOrder` the order of a class's properties
  /// does not matter (migration results), only their set and attributes.
  public static func compareSchemas(
    expected: [UInt8], actual: [UInt8], anyPropertyOrder: Bool = false
  ) -> [String] {
    do {
      let e = try JSONParser.parse(expected)
      let a = try JSONParser.parse(actual)
      return compareSchemas(expected: e, actual: a, anyPropertyOrder: anyPropertyOrder)
    } catch {
      return ["schema: not JSON: \(error)"]
    }
  }

  /// Compares two parsed schema documents.
  public static func compareSchemas(
    expected e: JSONValue, actual a: JSONValue, anyPropertyOrder: Bool = false
  ) -> [String] {
    var msgs: [String] = []
    // A missing member counts as null, as Python's dict.get makes it.
    func get(_ v: JSONValue, _ k: String) -> JSONValue { v[k] ?? .null }
    for k in ["schemaVersion", "fileFormat"] where get(e, k) != get(a, k) {
      msgs.append("\(k): expected \(repr(e[k])), got \(repr(a[k]))")
    }
    let ec = classesByName(e)
    let ac = classesByName(a)
    for className in Set(ec.keys).union(ac.keys).sorted() {
      guard let ecls = ec[className] else {
        msgs.append("class \(className): unexpected")
        continue
      }
      guard let acls = ac[className] else {
        msgs.append("class \(className): missing")
        continue
      }
      for k in ["embedded", "primaryKey"] where get(ecls, k) != get(acls, k) {
        msgs.append("class \(className): \(k) expected \(repr(ecls[k])), got \(repr(acls[k]))")
      }
      let ep = properties(ecls)
      let ap = properties(acls)
      let en = ep.map { name(of: $0) }
      let an = ap.map { name(of: $0) }
      if anyPropertyOrder ? (en.sorted() != an.sorted()) : (en != an) {
        msgs.append("class \(className): properties expected \(en), got \(an)")
      }
      var am: [String: JSONValue] = [:]
      for p in ap { am[name(of: p)] = p }
      for p in ep {
        guard let q = am[name(of: p)] else { continue }
        for k in ["type", "objectType", "optional", "indexed"] where get(p, k) != get(q, k) {
          msgs.append("\(className).\(name(of: p)): \(k) expected \(repr(p[k])), got \(repr(q[k]))")
        }
      }
    }
    return msgs
  }

  /// Parses JSON Lines, leaving out blank lines; parse errors become problems.
  public static func parseLines(_ bytes: [UInt8], name: String, problems: inout [String])
    -> [JSONValue]
  {
    parseRawLines(bytes, name: name, problems: &problems).map(\.value)
  }

  /// As ``parseLines(_:name:problems:)``, each value with the bytes of its line.
  static func parseRawLines(_ bytes: [UInt8], name: String, problems: inout [String])
    -> [(bytes: ArraySlice<UInt8>, value: JSONValue)]
  {
    var rows: [(bytes: ArraySlice<UInt8>, value: JSONValue)] = []
    var lineNumber = 0
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lineNumber += 1
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
      do {
        rows.append((line, try JSONParser.parse(Array(line))))
      } catch {
        problems.append("\(name):\(lineNumber): not JSON: \(error)")
      }
    }
    return rows
  }

  // MARK: - Helpers

  private static func clip(_ s: String) -> String { s.count > 300 ? String(s.prefix(300)) : s }

  private static func classesByName(_ doc: JSONValue) -> [String: JSONValue] {
    guard case .array(let items)? = doc["classes"] else { return [:] }
    var out: [String: JSONValue] = [:]
    for c in items { out[name(of: c)] = c }
    return out
  }

  private static func properties(_ cls: JSONValue) -> [JSONValue] {
    if case .array(let items)? = cls["properties"] { return items }
    return []
  }

  private static func name(of v: JSONValue) -> String {
    if case .string(let s)? = v["name"] { return s }
    return ""
  }

  /// Python-like `repr` of an optional JSON value for messages.
  private static func repr(_ v: JSONValue?) -> String {
    switch v {
    case nil, .null?: return "None"
    case .bool(let b)?: return b ? "True" : "False"
    case .string(let s)?: return "'\(s)'"
    case let other?: return canon(other)
    }
  }

  /// Canonical text of a JSON value: members sorted by key, numbers exact. Two values with the
  /// same canonical text are the same JSON (an integer and a fraction never compare equal).
  public static func canon(_ v: JSONValue) -> String {
    var w = JSONWriter(indent: 0, capacity: 64)
    writeCanon(v, to: &w)
    return String(decoding: w.buffer, as: UTF8.self)
  }

  private static func writeCanon(_ v: JSONValue, to w: inout JSONWriter) {
    switch v {
    case .double(let d):
      // Keep the integer/fraction distinction of Python: 1.0 is not 1.
      w.separate()
      if d.isNaN {
        w.writeRaw("NaN")
      } else if d.isInfinite {
        w.writeRaw(d < 0 ? "-Infinity" : "Infinity")
      } else {
        w.writeRaw(bytes: Array("\(d)".utf8))
      }
    case .array(let items):
      w.beginArray()
      for item in items { writeCanon(item, to: &w) }
      w.endArray()
    case .object(let members):
      w.beginObject()
      for m in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
        w.key(m.key)
        writeCanon(m.value, to: &w)
      }
      w.endObject()
    default:
      w.value(v)
    }
  }

  /// The normalisation of compare-dump.py, producing canonical texts.
  private struct Normalizer {
    /// Properties by class, then by name.
    var classes: [String: [String: JSONValue]] = [:]

    init(schema: JSONValue) {
      for (name, cls) in DumpComparison.classesByName(schema) {
        var props: [String: JSONValue] = [:]
        for p in DumpComparison.properties(cls) { props[DumpComparison.name(of: p)] = p }
        classes[name] = props
      }
    }

    /// Property name (plus `$class`/`$key`) → canonical text of the normalised value.
    func object(_ o: JSONValue, embedded: Bool) -> [String: String] {
      var out: [String: String] = [:]
      let cls = o["$class"] ?? .null
      out["$class"] = canon(cls)
      if !embedded { out["$key"] = canon(o["$key"] ?? .null) }
      guard case .object(let members) = o else { return out }
      var props: [String: JSONValue]?
      if case .string(let name) = cls { props = classes[name] }
      for m in members where m.key != "$class" && m.key != "$key" {
        if let p = props?[m.key] {
          out[m.key] = canon(value(m.value, property: p))
        } else {
          out[m.key] = canon(tagged("unknown-property", .string(canon(m.value))))
        }
      }
      return out
    }

    private func objectText(_ o: JSONValue, embedded: Bool) -> String {
      let fields = object(o, embedded: embedded)
      return canon(.object(fields.map { JSONMember($0.key, .string($0.value)) }))
    }

    private func tagged(_ tag: String, _ rest: JSONValue...) -> JSONValue {
      .array([.string(tag)] + rest)
    }

    func value(_ v: JSONValue, property p: JSONValue) -> JSONValue {
      if v == .null { return .null }
      let t: String? = { if case .string(let s)? = p["type"] { return s } else { return nil } }()
      let inner: String? = {
        if case .string(let s)? = p["objectType"] { return s } else { return nil }
      }()
      switch t {
      case "list":
        guard case .array(let items) = v else { return tagged("bad-list", .string(canon(v))) }
        return tagged("list", .array(items.map { .string(canon(scalar($0, type: inner))) }))
      case "set":
        guard case .array(let items) = v else { return tagged("bad-set", .string(canon(v))) }
        let texts = items.map { canon(scalar($0, type: inner)) }.sorted {
          $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
        return tagged("set", .array(texts.map { .string($0) }))
      case "dictionary":
        guard case .object(let members) = v else { return tagged("bad-dict", .string(canon(v))) }
        let entries = members.map { ($0.key, canon(scalar($0.value, type: inner))) }
          .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        return tagged("dict", .array(entries.map { .array([.string($0.0), .string($0.1)]) }))
      case "object":
        return scalar(v, type: inner)
      default:
        return scalar(v, type: t)
      }
    }

    func scalar(_ v: JSONValue, type t: String?) -> JSONValue {
      if v == .null { return .null }
      switch t {
      case "float": return number(v, single: true)
      case "double": return number(v, single: false)
      case "decimal128": return decimal(v)
      case "mixed": return mixed(v)
      case let name? where classes[name] != nil:
        if case .object = v, v["$ref"] == nil, v["$class"] != nil {
          return .string(objectText(v, embedded: true))
        }
        return .string(canon(v))
      default:
        return .string(canon(v))
      }
    }

    func number(_ x: JSONValue, single: Bool) -> JSONValue {
      var x = x
      if case .object(let members) = x {
        guard members.count == 1 else { return tagged("bad-number", .string(canon(x))) }
        if case .string(let s) = members[0].value { return tagged("nonfinite", .string(s)) }
        x = members[0].value
      }
      var d: Double
      switch x {
      case .int(let i): d = Double(i)
      case .double(let v): d = v
      default: return tagged("bad-number", .string(canon(x)))
      }
      if d.isNaN { return tagged("nonfinite", .string("NaN")) }
      if d.isInfinite { return tagged("nonfinite", .string(d > 0 ? "Infinity" : "-Infinity")) }
      if single { d = Double(Float(d)) }
      return tagged("num", .double(d), .double(d.sign == .minus ? -1 : 1))
    }

    func decimal(_ x: JSONValue) -> JSONValue {
      guard case .string(let s)? = x["$decimal"] else {
        return tagged("bad-decimal", .string(canon(x)))
      }
      let t = s.trimmingSpaces.lowercased()
      if ["nan", "-nan", "+nan"].contains(t) { return tagged("dec", .string("nan")) }
      if ["inf", "+inf", "infinity", "+infinity"].contains(t) {
        return tagged("dec", .string("inf"))
      }
      if ["-inf", "-infinity"].contains(t) { return tagged("dec", .string("-inf")) }
      guard let d = Decimal128(text: s), !d.isNaN, !d.isInfinite else {
        return tagged("bad-decimal", .string(s))
      }
      return tagged("dec", .string(normalizedDecimal(d)))
    }

    /// Value-only text: trailing zeros removed, all zeros `0`.
    private func normalizedDecimal(_ d: Decimal128) -> String {
      guard case .finite(let negative, var c, var e) = d.parts, c != 0 else { return "0" }
      while c % 10 == 0 {
        c /= 10
        e += 1
      }
      return "\(negative ? "-" : "")\(c)E\(e)"
    }

    func mixed(_ v: JSONValue) -> JSONValue {
      switch v {
      case .object(let members):
        if members.count == 1 && members[0].key == "$float" {
          return .array([.string("float")] + elements(number(v, single: true)))
        }
        if members.count == 1 && members[0].key == "$double" {
          return .array([.string("double")] + elements(number(v, single: false)))
        }
        if members.count == 1 && members[0].key == "$decimal" { return decimal(v) }
        if let first = members.first, first.key.hasPrefix("$") { return .string(canon(v)) }
        let entries = members.map { ($0.key, canon(mixed($0.value))) }.sorted {
          ($0.0, $0.1) < ($1.0, $1.1)
        }
        return tagged("dict", .array(entries.map { .array([.string($0.0), .string($0.1)]) }))
      case .array(let items):
        return tagged("list", .array(items.map { .string(canon(mixed($0))) }))
      case .double(let d):
        return tagged("untagged-float", .double(d))
      default:
        return .string(canon(v))
      }
    }

    private func elements(_ v: JSONValue) -> [JSONValue] {
      if case .array(let items) = v { return items }
      return [v]
    }
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var s = Substring(self)
    while let f = s.first, f.isWhitespace { s.removeFirst() }
    while let l = s.last, l.isWhitespace { s.removeLast() }
    return String(s)
  }
}
