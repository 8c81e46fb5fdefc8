import RealmModel
import RealmJSON

/// Plain-text renderings of single values for the CSV and table formats.
///
/// Scalars become their natural text (numbers as the dump writes them, `NaN`/`Infinity` for
/// non-finite floats, dates in the dump's ISO form, ObjectId/UUID hex, binary as base64);
/// links, embedded objects and collections become their canonical JSON.
struct CellText {
  let encoder: CanonicalEncoder
  private var scratch = JSONWriter(indent: 0, capacity: 256)

  init(schema: Schema) { encoder = CanonicalEncoder(schema: schema) }

  /// The cell text of a value; nil for null. `inMixed` is true for mixed properties.
  mutating func text(_ value: RealmValue, inMixed: Bool) -> [UInt8]? {
    scratch.reset()
    switch value {
    case .null: return nil
    case .bool(let b): scratch.writeRaw(b ? "true" : "false")
    case .int(let i): scratch.writeInt(i)
    case .string(let s): return Array(s.utf8)
    case .float(let f):
      if f.isFinite { scratch.writeFloat(f) } else { scratch.writeRaw(nonFinite(Double(f))) }
    case .double(let d):
      if d.isFinite { scratch.writeDouble(d) } else { scratch.writeRaw(nonFinite(d)) }
    case .decimal128(let d): d.appendText(to: &scratch.buffer)
    case .objectId(let id): HexText.append(id, to: &scratch.buffer)
    case .uuid(let id): HexText.append(id, to: &scratch.buffer)
    case .data(let bytes): Base64.encode(bytes, to: &scratch.buffer)
    case .date(let t):
      if !t.appendText(to: &scratch.buffer) {
        encoder.writeValue(value, inMixed: false, to: &scratch)
      }
    case .link, .embedded, .list, .set, .dictionary:
      encoder.writeValue(value, inMixed: inMixed, to: &scratch)
    }
    return scratch.buffer
  }

  private func nonFinite(_ v: Double) -> StaticString {
    v.isNaN ? "NaN" : (v < 0 ? "-Infinity" : "Infinity")
  }
}
