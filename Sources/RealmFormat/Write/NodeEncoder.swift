/// Builds the bytes of single nodes (§2): header, packed payload, padding.
///
/// Every function returns a complete node ready for ``NodeSink/append(_:)``. Widths follow
/// Realm's own choice (`Array::bit_width`, §2.3) unless a caller asks for a specific width.
public enum NodeEncoder {
  /// The smallest width `Array::bit_width` gives `value`: 0, 1, 2, 4 for 0...15 (unsigned),
  /// otherwise the smallest signed width of 8, 16, 32, 64 (§2.3).
  @inlinable
  public static func bitWidth(_ value: Int64) -> Int {
    if value >= 0 && value < 16 {
      return value == 0 ? 0 : value == 1 ? 1 : value < 4 ? 2 : 4
    }
    let magnitude = value < 0 ? ~value : value
    if magnitude >> 7 == 0 { return 8 }
    if magnitude >> 15 == 0 { return 16 }
    if magnitude >> 31 == 0 { return 32 }
    return 64
  }

  /// The width holding every element of `values` (the maximum of ``bitWidth(_:)``).
  @inlinable
  public static func bitWidth<C: Collection>(of values: C) -> Int where C.Element == Int64 {
    var width = 0
    for v in values where width < 64 {
      let w = bitWidth(v)
      if w > width { width = w }
    }
    return width
  }

  /// Smallest value a plain integer array of `width` can hold (`lbound_for_width`).
  public static func lowerBound(width: Int) -> Int64 {
    width <= 4 ? 0 : width == 64 ? .min : -(Int64(1) << (width - 1))
  }

  /// Largest value a plain integer array of `width` can hold (`ubound_for_width`).
  public static func upperBound(width: Int) -> Int64 {
    width == 0 ? 0 : width <= 4 ? (Int64(1) << width) - 1 : width == 64 ? .max : (Int64(1) << (width - 1)) - 1
  }

  /// An empty node buffer with `header` written and room for its payload.
  static func start(_ header: NodeHeader) -> [UInt8] {
    var bytes = header.encoded
    bytes.reserveCapacity(header.byteSize)
    return bytes
  }

  /// Pads `bytes` with zeros to the node's total size.
  static func finish(_ bytes: inout [UInt8], _ header: NodeHeader) {
    let total = header.byteSize
    if bytes.count < total { bytes.append(contentsOf: repeatElement(0, count: total - bytes.count)) }
  }

  /// Appends `value` little-endian in `byteCount` bytes.
  @inline(__always)
  static func appendLittleEndian(_ bytes: inout [UInt8], _ value: UInt64, _ byteCount: Int) {
    var v = value
    for _ in 0..<byteCount {
      bytes.append(UInt8(truncatingIfNeeded: v))
      v >>= 8
    }
  }

  /// A packed integer array (wtype bits) of `width`, which must hold every value.
  ///
  /// Widths 1, 2 and 4 store the low bits (unsigned); 8 to 64 two's complement (§2.3).
  public static func integerNode<C: Collection>(
    _ values: C, width: Int, hasRefs: Bool = false, isInner: Bool = false, contextFlag: Bool = false
  ) -> [UInt8] where C.Element == Int64 {
    let header = NodeHeader(
      isInner: isInner, hasRefs: hasRefs, contextFlag: contextFlag, widthType: .bits, width: width,
      count: values.count)
    var bytes = start(header)
    switch width {
    case 0:
      break
    case 1, 2, 4:
      let perByte = 8 / width
      let mask = UInt8((1 << width) - 1)
      var current: UInt8 = 0
      var filled = 0
      for v in values {
        current |= (UInt8(truncatingIfNeeded: v) & mask) << UInt8(filled * width)
        filled += 1
        if filled == perByte {
          bytes.append(current)
          current = 0
          filled = 0
        }
      }
      if filled > 0 { bytes.append(current) }
    default:
      let byteCount = width / 8
      for v in values { appendLittleEndian(&bytes, UInt64(bitPattern: v), byteCount) }
    }
    finish(&bytes, header)
    return bytes
  }

  /// A plain integer array with the minimal width (`ArrayInteger`, §6.1).
  public static func integers<C: Collection>(_ values: C) -> [UInt8] where C.Element == Int64 {
    integerNode(values, width: bitWidth(of: values))
  }

  /// A has-refs array of raw elements (refs, tagged values or 0) with the minimal width.
  public static func refArray<C: Collection>(
    _ elements: C, isInner: Bool = false, contextFlag: Bool = false
  ) -> [UInt8] where C.Element == Int64 {
    integerNode(elements, width: bitWidth(of: elements), hasRefs: true, isInner: isInner, contextFlag: contextFlag)
  }

  /// An `ArrayUnsigned` (cluster keys, offsets, §5): width 8, 16, 32 or 64, the smallest
  /// holding the largest value; widths below 64 are read unsigned.
  public static func unsignedIntegers<C: Collection>(_ values: C) -> [UInt8] where C.Element == UInt64 {
    let maxValue = values.max() ?? 0
    let width = maxValue <= 0xFF ? 8 : maxValue <= 0xFFFF ? 16 : maxValue <= 0xFFFF_FFFF ? 32 : 64
    let header = NodeHeader(width: width, count: values.count)
    var bytes = start(header)
    for v in values { appendLittleEndian(&bytes, v, width / 8) }
    finish(&bytes, header)
    return bytes
  }

  /// An `ArrayBlob` (wtype ignore, §6.4): the bytes themselves.
  public static func blob<C: Collection>(_ content: C) -> [UInt8] where C.Element == UInt8 {
    let header = NodeHeader(widthType: .ignore, width: 0, count: content.count)
    var bytes = start(header)
    bytes.append(contentsOf: content)
    finish(&bytes, header)
    return bytes
  }

  /// A node of wtype multiply (`width` bytes per element) holding `payload` as is.
  static func multiplyNode(width: Int, count: Int, contextFlag: Bool = false, payload: [UInt8]) -> [UInt8] {
    let header = NodeHeader(contextFlag: contextFlag, widthType: .multiply, width: width, count: count)
    var bytes = start(header)
    bytes.append(contentsOf: payload)
    finish(&bytes, header)
    return bytes
  }
}
