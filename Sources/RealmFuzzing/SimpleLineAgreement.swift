import RealmJSON
import RealmModel

/// The promise of `create`'s fast line path (``CanonicalDecoder/decodeSimpleLine(_:lastClass:)``):
/// a line it decodes, the full path (parser, then decoder) decodes to the same object; it
/// never accepts a line the full path refuses.
enum SimpleLineAgreement {
  /// The broken promises on the lines of `data` under the schema document `schemaBytes`
  /// (none when the schema does not decode: `create` refuses it before any line).
  static func problems(schemaBytes: [UInt8], data: [UInt8]) -> [String] {
    guard let schema = try? SchemaJSON.decode(schemaBytes) else { return [] }
    let decoder = CanonicalDecoder(schema: schema)
    var problems: [String] = []
    var lastClass = -1
    var number = 1
    for slice in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
      defer { number += 1 }
      var line = Array(slice)
      if line.last == 0x0D { line.removeLast() }
      let fast = line.withUnsafeBufferPointer { decoder.decodeSimpleLine($0, lastClass: &lastClass) }
      guard let fast else { continue }
      let text = String(decoding: line.prefix(200), as: UTF8.self)
      do throws(CanonicalDecodingError) {
        let full = try decoder.decodeLine(line, line: number)
        if !same(fast, full) {
          problems.append("line \(number): the fast path decodes \(fast) but the full path \(full): \(text)")
        }
      } catch {
        problems.append("line \(number): the fast path accepts a line the full path refuses (\(error)): \(text)")
      }
      if problems.count >= 3 { break }
    }
    return problems
  }

  /// Equal objects, doubles and floats compared bit for bit (-0.0 is not 0.0; NaN is NaN).
  static func same(_ a: DecodedObject, _ b: DecodedObject) -> Bool {
    guard a.className == b.className, a.key == b.key, a.missing == b.missing, a.values.count == b.values.count else {
      return false
    }
    for (x, y) in zip(a.values, b.values) {
      switch (x, y) {
      case (.double(let p), .double(let q)): if p.bitPattern != q.bitPattern { return false }
      case (.float(let p), .float(let q)): if p.bitPattern != q.bitPattern { return false }
      default: if x != y { return false }
      }
    }
    return true
  }
}
