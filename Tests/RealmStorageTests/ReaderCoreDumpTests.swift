import Foundation
import RealmFormat
import RealmModel
import RealmStorage
import RealmTestSupport
import Testing

/// Compares every table (class and internal) of the format samples with Realm Core's own
/// value dump (`*.expected.txt`, the `read_realm.py --canonical` notation: `i:`, `s:<hex>`,
/// `dec:<sign><coefficient>,<exponent>`, `L:<key>`, `TL:<table>:<key>`, ...). Backlink columns
/// (`BL<n>`) are not values and are skipped.
@Suite struct ReaderCoreDumpTests {
  static let cases: [(realm: String, expected: String, skip: Set<String>)] = [
    ("format-samples/v24_commit.realm", "format-samples/v24_commit.expected.txt", []),
    ("format-samples/v24_edge.realm", "format-samples/v24_edge.expected.txt", []),
    // write_realm.py stored key type Int for the string-keyed `props` dictionary; core then
    // reads the string leaf as 2-bit integers. realmctl reads the keys as the strings they are.
    ("format-samples/py_committed.realm", "format-samples/py_committed.core_dump.txt", ["props"]),
  ]

  @Test(arguments: 0..<3)
  func matchesCoresDump(_ n: Int) throws {
    let c = Self.cases[n]
    let file = try RealmFile.open(path: Fixtures.url(c.realm).path)
    let group = file.group
    let text = String(decoding: try Fixtures.bytes(c.expected), as: UTF8.self)
    var expected: [String] = []
    for line in text.split(separator: "\n") where line.hasPrefix("TABLE ") || line.hasPrefix("  OBJ ") {
      if line.hasPrefix("TABLE ") {
        expected.append(String(line.split(separator: " ").prefix(2).joined(separator: " ")))
      } else {
        let fields = line.dropFirst(2).components(separatedBy: " | ").filter { f in
          guard let name = f.split(separator: "=").first else { return true }
          return !(name.hasPrefix("BL") && name.dropFirst(2).allSatisfy(\.isNumber)) && !c.skip.contains(String(name))
        }
        expected.append(Self.repairingStrings(fields.joined(separator: " | ")))
      }
    }
    var actual: [String] = []
    for table in group.tables {
      actual.append("TABLE \(table.name)")
      let columns = table.publicColumns
      try group.forEachObject(in: table) { key, values in
        var fields = ["OBJ \(key)"]
        for (column, value) in zip(columns, values) where !c.skip.contains(column.name) {
          fields.append("\(column.name)=\(Self.format(value, group: group, typedLinks: column.type == .mixed, intKeys: column.dictionaryKeyType == .int))")
        }
        actual.append(fields.joined(separator: " | "))
      }
    }
    expectEqual(actual.count, expected.count)
    var differences = 0
    for (a, e) in zip(actual, expected) where a != e {
      differences += 1
      if differences <= 3 { Issue.record("read:     \(a.prefix(600))\nexpected: \(e.prefix(600))") }
    }
    expectEqual(differences, 0)
  }

  /// Strings that are not valid UTF-8 are read with U+FFFD replacements (``RealmValue`` holds
  /// Swift strings); apply the same repair to the expected `s:<hex>` tokens.
  static func repairingStrings(_ line: String) -> String {
    var out = ""
    var rest = Substring(line)
    while let r = rest.range(of: "s:") {
      out += rest[..<r.upperBound]
      rest = rest[r.upperBound...]
      let digits = rest.prefix { $0.isHexDigit && !$0.isUppercase }
      var bytes: [UInt8] = []
      var i = digits.startIndex
      while let j = digits.index(i, offsetBy: 2, limitedBy: digits.endIndex), i < digits.endIndex {
        bytes.append(UInt8(digits[i..<j], radix: 16) ?? 0)
        i = j
      }
      out += hex(Array(String(decoding: bytes, as: UTF8.self).utf8))
      rest = rest[digits.endIndex...]
    }
    return out + rest
  }

  static func hex(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
  }

  static func format(_ v: RealmValue, group: Group, typedLinks: Bool, intKeys: Bool = false) -> String {
    switch v {
    case .null: return "null"
    case .bool(let b): return "b:\(b)"
    case .int(let i): return "i:\(i)"
    case .float(let f): return "f:" + String(format: "%.9g", Double(f))
    case .double(let d): return "d:" + String(format: "%.17g", d)
    case .string(let s): return "s:" + hex(Array(s.utf8))
    case .data(let b): return "x:" + hex(b)
    case .date(let t): return "t:\(t.seconds).\(t.nanoseconds)"
    case .decimal128(let d):
      let sign = d.high >> 63 == 1 ? "-" : "+"
      let exp = Int((d.high >> 49) & 0x3FFF) - 6176
      let coeff = (UInt128(d.high & 0x1_FFFF_FFFF_FFFF) << 64) | UInt128(d.low)
      return "dec:\(sign)\(coeff),\(exp)"
    case .objectId(let id): return "oid:" + hex(id.bytes)
    case .uuid(let u):
      let h = hex(u.bytes)
      let p = Array(h)
      let groups: [ArraySlice<Character>] = [p[0..<8], p[8..<12], p[12..<16], p[16..<20], p[20..<32]]
      return "uuid:" + groups.map { String($0) }.joined(separator: "-")
    case .link(let l):
      if typedLinks, let t = group.tables.first(where: { $0.linkName == l.className }) { return "TL:\(t.key):\(l.key)" }
      return "L:\(l.key)"
    case .embedded(let e): return "L:\(e.key)"
    case .list(let items): return "[" + items.map { format($0, group: group, typedLinks: typedLinks) }.joined(separator: ",") + "]"
    case .set(let items): return "{" + items.map { format($0, group: group, typedLinks: typedLinks) }.joined(separator: ",") + "}"
    case .dictionary(let entries):
      return "{" + entries.map { e in
        let key = intKeys ? "i:\(e.key)" : "s:" + hex(Array(e.key.utf8))
        return key + "=" + format(e.value, group: group, typedLinks: typedLinks)
      }.joined(separator: ",") + "}"
    }
  }
}
