import RealmFormat

/// Encodes plain integer arrays (`realm::Array`, wtype bits) for the commit's own nodes: the
/// free lists and the group top array (§2.1-2.3, §3).
enum IntegerArrayEncoding {
  /// The smallest width Realm's `Array::bit_width` would pick for `value`: 0, 1, 2, 4 for
  /// 0...15, otherwise the signed widths 8, 16, 32, 64.
  static func width(for value: Int64) -> Int {
    switch value {
    case 0: return 0
    case 1: return 1
    case 2...3: return 2
    case 4...15: return 4
    case -128...127: return 8
    case -32768...32767: return 16
    case Int64(Int32.min)...Int64(Int32.max): return 32
    default: return 64
    }
  }

  /// Total node size in bytes for `count` elements of `width` bits.
  static func byteSize(count: Int, width: Int) -> Int {
    NodeHeader(width: width, count: count).byteSize
  }

  /// The node bytes (header with `AAAA`, payload, zero padding).
  ///
  /// - Parameter width: element width; `nil` picks the minimal width for the values.
  static func encode(
    _ values: [Int64], hasRefs: Bool = false, isInner: Bool = false, contextFlag: Bool = false,
    width: Int? = nil
  ) -> [UInt8] {
    let w = width ?? values.reduce(0) { max($0, Self.width(for: $1)) }
    let header = NodeHeader(
      isInner: isInner, hasRefs: hasRefs, contextFlag: contextFlag, width: w, count: values.count)
    var bytes = header.encoded
    bytes.reserveCapacity(header.byteSize)
    switch w {
    case 0:
      break
    case 1, 2, 4:
      var packed = [UInt8](repeating: 0, count: header.payloadSize)
      for (i, v) in values.enumerated() {
        let bit = i * w
        packed[bit >> 3] |= UInt8(truncatingIfNeeded: v) << UInt8(bit & 7)
      }
      bytes.append(contentsOf: packed)
    default:
      let n = w / 8
      for v in values {
        var le = UInt64(bitPattern: v).littleEndian
        withUnsafeBytes(of: &le) { bytes.append(contentsOf: $0.prefix(n)) }
      }
    }
    bytes.append(contentsOf: repeatElement(0, count: header.byteSize - bytes.count))
    return bytes
  }
}
