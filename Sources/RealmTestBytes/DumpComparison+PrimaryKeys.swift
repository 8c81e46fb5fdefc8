import RealmJSON

extension DumpComparison {
  /// The dump lines with every object key of a class with a primary key replaced by its
  /// primary-key value (its own `$key` and every link `{"$ref": C, "$key": k}` to it), the
  /// lines then ordered by class and primary key.
  ///
  /// Format 20 derives object keys from primary keys (Realm Core 10), so the same data has other
  /// keys there than in the format-24 answer; compared after this, the two dumps must agree on
  /// everything else, links included.
  public static func replacingKeysByPrimaryKeys(_ lines: [JSONValue], schema: JSONValue) -> [JSONValue] {
    var primaryKeys: [String: String] = [:]
    if case .array(let classes)? = schema["classes"] {
      for c in classes {
        if case .string(let name)? = c["name"], case .string(let pk)? = c["primaryKey"] { primaryKeys[name] = pk }
      }
    }
    var pkOf: [String: [String: JSONValue]] = [:]  // class -> canon(key) -> pk value
    for line in lines {
      guard case .string(let cls)? = line["$class"], let pk = primaryKeys[cls], let key = line["$key"] else { continue }
      pkOf[cls, default: [:]][canon(key)] = line[pk] ?? .null
    }
    func rewrite(_ v: JSONValue) -> JSONValue {
      switch v {
      case .array(let items): return .array(items.map(rewrite))
      case .object(let members):
        if case .string(let cls)? = v["$ref"], let key = v["$key"], let pk = pkOf[cls]?[canon(key)] {
          return .object(members.map { $0.key == "$key" ? JSONMember("$key", pk) : $0 })
        }
        return .object(members.map { JSONMember($0.key, rewrite($0.value)) })
      default: return v
      }
    }
    var out: [(cls: String, order: String, line: JSONValue)] = []
    for line in lines {
      guard case .object(let members) = line, case .string(let cls)? = line["$class"] else {
        out.append(("", "", line))
        continue
      }
      var rewritten = members.map { m -> JSONMember in
        m.key == "$class" ? m : JSONMember(m.key, rewrite(m.value))
      }
      var order = line["$key"].map(canon) ?? ""
      if let pk = primaryKeys[cls], let value = line[pk] {
        order = canon(value)
        rewritten = rewritten.map { $0.key == "$key" ? JSONMember("$key", value) : $0 }
      }
      out.append((cls, order, .object(rewritten)))
    }
    return out.enumerated().sorted { a, b in
      (a.element.cls, a.element.order, a.offset) < (b.element.cls, b.element.order, b.offset)
    }.map(\.element.line)
  }

  /// ``compareDumps(expected:actual:schema:)`` after ``replacingKeysByPrimaryKeys(_:schema:)``
  /// on both sides.
  public static func compareDumpsByPrimaryKeys(expected: [UInt8], actual: [UInt8], schema: [UInt8]) -> [String] {
    var problems: [String] = []
    let e = parseLines(expected, name: "expected", problems: &problems)
    let a = parseLines(actual, name: "actual", problems: &problems)
    guard problems.isEmpty else { return problems }
    let s: JSONValue
    do { s = try JSONParser.parse(schema) } catch { return ["schema: not JSON: \(error)"] }
    return compareDumps(
      expected: replacingKeysByPrimaryKeys(e, schema: s), actual: replacingKeysByPrimaryKeys(a, schema: s), schema: s)
  }
}
