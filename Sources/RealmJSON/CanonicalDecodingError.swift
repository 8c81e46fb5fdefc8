/// A dump line or schema document that does not follow `docs/dump-format.md`: where it is
/// (line, property path) and what is wrong (expected vs found).
public struct CanonicalDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// 1-based line of the dump (0 for a whole document such as a schema).
  public var line: Int
  /// Where in the line or document: `Person.dogs[2].name`, `classes[1].properties[0].type`.
  public var path: String
  /// What is wrong, one sentence.
  public var message: String

  /// Creates an error.
  public init(line: Int, path: String, message: String) {
    self.line = line
    self.path = path
    self.message = message
  }

  public var description: String {
    var s = line > 0 ? "line \(line): " : ""
    if !path.isEmpty { s += "\(path): " }
    return s + message
  }
}

/// A short description of a JSON value for error messages ("a string 'abc'", "an array").
func describe(_ v: JSONValue) -> String {
  switch v {
  case .null: return "null"
  case .bool(let b): return b ? "true" : "false"
  case .int(let i): return "the integer \(i)"
  case .double(let d): return "the number \(d)"
  case .string(let s):
    let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
    return "a string '\(shown)'"
  case .array(let a): return a.isEmpty ? "an empty array" : "an array"
  case .object(let m):
    if m.isEmpty { return "an empty object" }
    let keys = m.prefix(3).map { "'\($0.key)'" }.joined(separator: ", ")
    return "an object with keys \(keys)\(m.count > 3 ? ", …" : "")"
  }
}
