import RealmModel

/// Deepest nesting of lists and dictionaries inside one mixed value that the decoder accepts.
let maxMixedDepth = 100

extension CanonicalDecoder {
  /// Decodes a non-null scalar of a known primitive type.
  func decodeScalar(
    _ json: JSONValue, type: PropertyType, line: Int, path: ValuePath
  ) throws(CanonicalDecodingError) -> RealmValue {
    func mismatch(_ expected: String) -> CanonicalDecodingError {
      CanonicalDecodingError(
        line: line, path: path.text, message: "expected \(expected), found \(describe(json))")
    }
    /// The text of the wrapper `{"<name>":"<text>"}` as `parse` reads it; `placeholder` stands
    /// for the text in the error for another value, `invalid` says what is wrong with a text
    /// `parse` refuses.
    func wrappedText<T>(
      _ name: String, _ placeholder: String, _ parse: (String) -> T?, invalid: (String) -> String
    ) throws(CanonicalDecodingError) -> T {
      guard case .string(let s)? = wrapped(json, name) else { throw mismatch("{\"\(name)\":\"\(placeholder)\"}") }
      guard let value = parse(s) else { throw CanonicalDecodingError(line: line, path: path.text, message: invalid(s)) }
      return value
    }

    switch type {
    case .bool:
      guard case .bool(let b) = json else { throw mismatch("true or false") }
      return .bool(b)
    case .int:
      guard case .int(let i) = json else { throw mismatch("an integer") }
      return .int(i)
    case .string:
      guard case .string(let s) = json else { throw mismatch("a string") }
      return .string(s)
    case .float:
      guard let f = try floatValue(json, wrapper: "$float", line: line, path: path) else {
        throw mismatch("a number or {\"$float\":\"NaN\"|\"Infinity\"|\"-Infinity\"}")
      }
      return .float(f)
    case .double:
      guard let d = doubleValue(json, wrapper: "$double") else {
        throw mismatch("a number or {\"$double\":\"NaN\"|\"Infinity\"|\"-Infinity\"}")
      }
      return .double(d)
    case .decimal128:
      return .decimal128(try wrappedText("$decimal", "<decimal>", Decimal128.init(text:)) { "'\($0)' is not a decimal number" })
    case .objectId:
      return .objectId(try wrappedText("$oid", "<24 hex digits>", ObjectId.init(hexString:)) { "'\($0)' is not an ObjectId (24 hex digits)" })
    case .uuid:
      return .uuid(try wrappedText("$uuid", "<8-4-4-4-12 hex>", RealmUUID.init(uuidString:)) { "'\($0)' is not a UUID (8-4-4-4-12 hex digits)" })
    case .data:
      return .data(try wrappedText("$binary", "<base64>", Base64.decode) { _ in "the '$binary' value is not valid base64" })
    case .date:
      guard let inner = wrapped(json, "$date") else {
        throw mismatch(
          "{\"$date\":\"YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ\"} or {\"$date\":{\"seconds\":…,\"nanoseconds\":…}}"
        )
      }
      return .date(try timestamp(inner, line: line, path: path))
    case .mixed:
      return try decodeMixed(json, line: line, path: path, depth: 0)
    case .object:
      throw mismatch("a link")
    }
  }

  /// The value of a one-member wrapper object `{"<name>": value}`, nil otherwise.
  func wrapped(_ json: JSONValue, _ name: String) -> JSONValue? {
    guard case .object(let m) = json, m.count == 1, m[0].key == name else { return nil }
    return m[0].value
  }

  /// "NaN", "Infinity", "-Infinity" (also "Inf", "-Inf", any case) as a double.
  private func nonFinite(_ s: String) -> Double? {
    switch s.lowercased() {
    case "nan", "-nan", "+nan": return .nan
    case "infinity", "inf", "+infinity", "+inf": return .infinity
    case "-infinity", "-inf": return -.infinity
    default: return nil
    }
  }

  /// A double from a JSON number or a `{"$double": …}` / `{"$float": …}` wrapper.
  func doubleValue(_ json: JSONValue, wrapper: String) -> Double? {
    switch json {
    case .int(let i): return Double(i)
    case .double(let d): return d
    case .object:
      guard
        let inner = wrapped(json, wrapper)
          ?? wrapped(json, wrapper == "$double" ? "$float" : "$double")
      else {
        return nil
      }
      switch inner {
      case .int(let i): return Double(i)
      case .double(let d): return d
      case .string(let s): return nonFinite(s)
      default: return nil
      }
    default: return nil
    }
  }

  /// A float from a JSON number or wrapper; the decimal text is rounded once, straight to
  /// 32 bits (rounding through a double first could differ in the last bit).
  func floatValue(_ json: JSONValue, wrapper: String, line: Int, path: ValuePath)
    throws(CanonicalDecodingError) -> Float?
  {
    guard let d = doubleValue(json, wrapper: wrapper) else { return nil }
    guard d.isFinite else { return Float(d) }
    var f = Float(d)
    if Double(f) != d {
      // Rounding the text to a double and then to a float can go wrong only when the double
      // lands exactly on the midpoint between two floats (midpoints are doubles); then round
      // the text straight to a float (its shortest digits are the double's description).
      let other = d > Double(f) ? f.nextUp : f.nextDown
      if (Double(f) + Double(other)) / 2 == d, let direct = Float(d.description) { f = direct }
    }
    if !f.isFinite {
      throw CanonicalDecodingError(
        line: line, path: path.text, message: "\(d) is out of range for a float")
    }
    return f
  }

  /// A timestamp from the text form or `{"seconds":S,"nanoseconds":N}`.
  func timestamp(_ json: JSONValue, line: Int, path: ValuePath) throws(CanonicalDecodingError)
    -> Timestamp
  {
    switch json {
    case .string(let s):
      guard let t = Timestamp(text: s) else {
        throw CanonicalDecodingError(
          line: line, path: path.text,
          message: "'\(s)' is not a date of the form YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ")
      }
      return t
    case .object:
      guard case .int(let s)? = json["seconds"], case .int(let n)? = json["nanoseconds"],
        case .object(let m) = json, m.count == 2
      else { break }
      guard n > -1_000_000_000 && n < 1_000_000_000 else {
        throw CanonicalDecodingError(
          line: line, path: path.text, message: "nanoseconds \(n) is outside -999999999...999999999"
        )
      }
      let t = Timestamp(seconds: s, nanoseconds: Int32(n))
      if let problem = t.validityProblem {
        // Realm's rule (`realm::Timestamp`); the instant meant is most likely s + n / 10^9.
        let instant = Timestamp(seconds: s, addingNanoseconds: n).map { " (the instant \(s) s + \(n) ns is {\"seconds\":\($0.seconds),\"nanoseconds\":\($0.nanoseconds)})" } ?? ""
        throw CanonicalDecodingError(line: line, path: path.text, message: "not a Realm timestamp: \(problem)\(instant)")
      }
      return t
    default: break
    }
    throw CanonicalDecodingError(
      line: line, path: path.text,
      message:
        "expected a date string or {\"seconds\":…,\"nanoseconds\":…}, found \(describe(json))")
  }

  /// Decodes a mixed value: its JSON form says its type (`dump-format.md`, mixed row).
  func decodeMixed(_ json: JSONValue, line: Int, path: ValuePath, depth: Int)
    throws(CanonicalDecodingError) -> RealmValue
  {
    guard depth < maxMixedDepth else {
      throw CanonicalDecodingError(
        line: line, path: path.text,
        message: "mixed values nest deeper than \(maxMixedDepth) levels")
    }
    switch json {
    case .null: return .null
    case .bool(let b): return .bool(b)
    case .int(let i): return .int(i)
    case .double(let d): return .double(d)  // untagged: read as a double, the wider type
    case .string(let s): return .string(s)
    case .array(let items):
      var out: [RealmValue] = []
      out.reserveCapacity(items.count)
      for (i, item) in items.enumerated() {
        out.append(try decodeMixed(item, line: line, path: path.index(i), depth: depth + 1))
      }
      return .list(out)
    case .object(let members):
      if let first = members.first, first.key.utf8.first == UInt8(ascii: "$") {
        return try decodeMixedWrapper(json, key: first.key, line: line, path: path)
      }
      return .dictionary(
        try dictionaryEntries(members, line: line, path: path) { (m) throws(CanonicalDecodingError) in
          try decodeMixed(m.value, line: line, path: path.key(m.key), depth: depth + 1)
        })
    }
  }

  private func decodeMixedWrapper(
    _ json: JSONValue, key: String, line: Int, path: ValuePath
  ) throws(CanonicalDecodingError) -> RealmValue {
    switch key {
    case "$float":
      guard let f = try floatValue(json, wrapper: "$float", line: line, path: path) else { break }
      return .float(f)
    case "$double":
      guard let d = doubleValue(json, wrapper: "$double") else { break }
      return .double(d)
    case "$decimal": return try decodeScalar(json, type: .decimal128, line: line, path: path)
    case "$oid": return try decodeScalar(json, type: .objectId, line: line, path: path)
    case "$uuid": return try decodeScalar(json, type: .uuid, line: line, path: path)
    case "$binary": return try decodeScalar(json, type: .data, line: line, path: path)
    case "$date": return try decodeScalar(json, type: .date, line: line, path: path)
    case "$ref": return .link(try decodeLink(json, line: line, path: path))
    default:
      throw CanonicalDecodingError(
        line: line, path: path.text,
        message:
          "unknown wrapper '\(key)' (expected one of $float $double $decimal $oid $uuid $binary $date $ref)"
      )
    }
    throw CanonicalDecodingError(
      line: line, path: path.text, message: "invalid '\(key)' value in \(describe(json))")
  }
}
