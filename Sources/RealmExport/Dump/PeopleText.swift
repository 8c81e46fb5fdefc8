import RealmModel
import RealmJSON

/// Short renderings of values for people (the `table` format): strings unquoted with control
/// characters escaped, links as `Class#key`, binary as its size, dates without a zero
/// fraction, collections as `[a, b]` / `{k: v}`, embedded objects as `Class{p: v}`. Rendering
/// stops once `budget` characters are produced, so huge values cost little.
struct PeopleText {
  /// Longest rendering produced (in characters, before the final cut to a column).
  let budget: Int

  func render(_ value: RealmValue) -> String {
    var out = ""
    append(value, quoted: false, to: &out)
    return out
  }

  private func append(_ value: RealmValue, quoted: Bool, to out: inout String) {
    guard out.utf8.count < budget * 4 else { return }
    switch value {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .string(let s):
      if quoted { out += "\"" }
      appendEscaped(s, to: &out)
      if quoted { out += "\"" }
    case .float(let f): out += number(f.isFinite ? nil : Double(f)) { $0.writeFloat(f) }
    case .double(let d): out += number(d.isFinite ? nil : d) { $0.writeDouble(d) }
    case .decimal128(let d): out += d.text
    case .objectId(let id): out += id.hexString
    case .uuid(let id): out += id.uuidString
    case .data(let bytes): out += "<\(bytes.count) byte\(bytes.count == 1 ? "" : "s")>"
    case .date(let t): out += dateText(t)
    case .link(let link): out += "\(link.className)#\(link.key)"
    case .embedded(let e):
      out += e.className + "{"
      for (i, p) in e.properties.enumerated() {
        if i > 0 { out += ", " }
        out += p.name + ": "
        append(p.value, quoted: true, to: &out)
        if out.utf8.count >= budget * 4 { break }
      }
      out += "}"
    case .list(let items), .set(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += ", " }
        append(item, quoted: true, to: &out)
        if out.utf8.count >= budget * 4 { break }
      }
      out += "]"
    case .dictionary(let entries):
      out += "{"
      for (i, e) in entries.enumerated() {
        if i > 0 { out += ", " }
        appendEscaped(e.key, to: &out)
        out += ": "
        append(e.value, quoted: true, to: &out)
        if out.utf8.count >= budget * 4 { break }
      }
      out += "}"
    }
  }

  private func number(_ nonFinite: Double?, _ write: (inout JSONWriter) -> Void) -> String {
    if let v = nonFinite { return v.isNaN ? "NaN" : (v < 0 ? "-Infinity" : "Infinity") }
    var w = JSONWriter(indent: 0, capacity: 32)
    write(&w)
    return String(decoding: w.buffer, as: UTF8.self)
  }

  /// ISO form with the fraction trimmed (`2023-01-05T10:00:00Z`, `…:00.015Z`); outside years
  /// 1-9999 the raw seconds and nanoseconds.
  private func dateText(_ t: Timestamp) -> String {
    guard var s = t.text else { return "\(t.seconds)s \(t.nanoseconds)ns" }
    s.removeLast()  // Z
    while s.hasSuffix("0") { s.removeLast() }
    if s.hasSuffix(".") { s.removeLast() }
    return s + "Z"
  }

  private func appendEscaped(_ s: String, to out: inout String) {
    for scalar in s.unicodeScalars {
      switch scalar.value {
      case 0x0A: out += "\\n"
      case 0x0D: out += "\\r"
      case 0x09: out += "\\t"
      case 0..<0x20, 0x7F:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
      if out.utf8.count >= budget * 4 { return }
    }
  }
}
