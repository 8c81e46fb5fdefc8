import RealmModel
/// A float or double leaf (`BasicArray<float|double>`, §6.6).
///
/// Null is one specific quiet-NaN pattern, and only in nullable columns.
struct FloatingLeaf: Sendable {
  let node: ArrayNode
  let isNullable: Bool
  let isDouble: Bool
  var count: Int { node.count }

  /// Realm's null float and double bit patterns.
  static let nullFloatBits: UInt32 = 0x7FC0_00AA
  static let nullDoubleBits: UInt64 = 0x7FF8_0000_0000_00AA

  init(_ node: ArrayNode, double: Bool, nullable: Bool) throws(FormatError) {
    let width = double ? 8 : 4
    guard !node.hasRefs, node.count == 0 || (node.header.widthType == .multiply && node.width == width) else {
      throw FormatError.corrupt("node at \(node.ref) is not a \(double ? "double" : "float") leaf (width \(node.width))", at: node.ref.rawValue)
    }
    self.node = node
    self.isDouble = double
    self.isNullable = nullable
  }

  /// Element `i` as a value (`.float`/`.double`) or `.null`.
  @inline(__always)
  func value(_ i: Int) -> RealmValue {
    if isDouble {
      let bits = node.reader.uncheckedUInt64(at: node.payload &+ i &* 8)
      if isNullable && bits == FloatingLeaf.nullDoubleBits { return .null }
      return .double(Double(bitPattern: bits))
    }
    let bits = node.reader.uncheckedUInt32(at: node.payload &+ i &* 4)
    if isNullable && bits == FloatingLeaf.nullFloatBits { return .null }
    return .float(Float(bitPattern: bits))
  }
}

/// A Decimal128 leaf (`ArrayDecimal128`, §6.7): 16, 8, 4 or 0 bytes per element.
struct DecimalLeaf: Sendable {
  let node: ArrayNode
  var count: Int { node.count }

  init(_ node: ArrayNode) throws(FormatError) {
    guard !node.hasRefs, node.header.widthType == .multiply || node.width == 0,
      [0, 4, 8, 16].contains(node.width)
    else {
      throw FormatError.corrupt("node at \(node.ref) is not a decimal leaf (width \(node.width))", at: node.ref.rawValue)
    }
    self.node = node
  }

  /// Element `i` as BID128 words; nil for Realm's null.
  func value(_ i: Int) -> Decimal128? {
    let p = node.payload
    let r = node.reader
    let d: Decimal128
    switch node.width {
    case 0:
      // §6.7: width 0 means all zero (context flag set) or all null.
      return node.contextFlag ? Decimal128.zero : nil
    case 4: d = DecimalLeaf.widen32(r.uncheckedUInt32(at: p &+ i &* 4))
    case 8: d = DecimalLeaf.widen64(r.uncheckedUInt64(at: p &+ i &* 8))
    default: d = Decimal128(low: r.uncheckedUInt64(at: p &+ i &* 16), high: r.uncheckedUInt64(at: p &+ i &* 16 &+ 8))
    }
    return d == Decimal128.realmNull ? nil : d
  }

  /// Re-encodes a BID32 value as the BID128 of the same coefficient and exponent.
  static func widen32(_ u: UInt32) -> Decimal128 {
    let sign = UInt64(u >> 31) << 63
    if u & 0x7C00_0000 == 0x7C00_0000 {  // NaN; keep the payload (Realm null = 0xAA)
      return Decimal128(low: UInt64(u & 0x000F_FFFF), high: sign | 0x7C00_0000_0000_0000 | (u & 0x0200_0000 != 0 ? 0x0200_0000_0000_0000 : 0))
    }
    if u & 0x7800_0000 == 0x7800_0000 { return Decimal128(low: 0, high: sign | 0x7800_0000_0000_0000) }
    let exp: UInt64
    let coeff: UInt64
    if (u >> 29) & 3 == 3 {
      exp = UInt64((u >> 21) & 0xFF)
      coeff = UInt64(0x80_0000 | (u & 0x1F_FFFF))
    } else {
      exp = UInt64((u >> 23) & 0xFF)
      coeff = UInt64(u & 0x7F_FFFF)
    }
    // BID32 bias 101, BID128 bias 6176.
    return Decimal128(low: coeff, high: sign | ((exp &+ 6176 &- 101) << 49))
  }

  /// Re-encodes a BID64 value as the BID128 of the same coefficient and exponent.
  static func widen64(_ u: UInt64) -> Decimal128 {
    let sign = u & (1 << 63)
    if u & 0x7C00_0000_0000_0000 == 0x7C00_0000_0000_0000 {
      return Decimal128(low: u & 0x0003_FFFF_FFFF_FFFF, high: sign | 0x7C00_0000_0000_0000 | (u & 0x0200_0000_0000_0000))
    }
    if u & 0x7800_0000_0000_0000 == 0x7800_0000_0000_0000 { return Decimal128(low: 0, high: sign | 0x7800_0000_0000_0000) }
    let exp: UInt64
    let coeff: UInt64
    if (u >> 61) & 3 == 3 {
      exp = (u >> 51) & 0x3FF
      coeff = 0x20_0000_0000_0000 | (u & 0x7_FFFF_FFFF_FFFF)
    } else {
      exp = (u >> 53) & 0x3FF
      coeff = u & 0x1F_FFFF_FFFF_FFFF
    }
    // BID64 bias 398.
    return Decimal128(low: coeff, high: sign | ((exp &+ 6176 &- 398) << 49))
  }
}

/// An ObjectId or UUID leaf (`ArrayFixedBytes`, §6.8): blocks of one null-bitmap byte and
/// eight elements.
struct FixedBytesLeaf: Sendable {
  let node: ArrayNode
  let elementSize: Int
  let count: Int
  private var blockSize: Int { 1 &+ 8 &* elementSize }

  init(_ node: ArrayNode, elementSize: Int) throws(FormatError) {
    guard !node.hasRefs, node.count == 0 || (node.header.widthType == .multiply && node.width == 1) else {
      throw FormatError.corrupt("node at \(node.ref) is not a fixed-bytes leaf", at: node.ref.rawValue)
    }
    self.node = node
    self.elementSize = elementSize
    let block = 1 + 8 * elementSize
    let bytes = node.count
    let blocks = (bytes + block - 1) / block
    let n = (bytes - blocks) / elementSize
    // The byte count must be exactly what n elements occupy.
    guard bytes == 0 || (n > 0 && n * elementSize + (n + 7) / 8 == bytes) else {
      throw FormatError.corrupt("fixed-bytes leaf at \(node.ref) has \(bytes) bytes, not a whole number of \(elementSize)-byte elements", at: node.ref.rawValue)
    }
    count = n
  }

  /// The bytes of element `i`, nil when null.
  func bytes(_ i: Int) -> UnsafeRawBufferPointer? {
    let blockStart = node.payload &+ (i >> 3) &* blockSize
    let bitmap = node.reader.uncheckedUInt8(at: blockStart)
    if bitmap & (1 << UInt8(i & 7)) != 0 { return nil }
    let s = blockStart &+ 1 &+ (i & 7) &* elementSize
    return UnsafeRawBufferPointer(rebasing: node.reader.base[s..<(s &+ elementSize)])
  }
}

/// A timestamp leaf (`ArrayTimestamp`, §6.5): nullable seconds and plain nanoseconds.
struct TimestampLeaf: Sendable {
  let seconds: IntLeaf
  let nanoseconds: ArrayNode
  var count: Int { seconds.count }

  init(_ node: ArrayNode) throws(FormatError) {
    guard node.hasRefs, node.count >= 2 else {
      throw FormatError.corrupt("node at \(node.ref) is not a timestamp leaf", at: node.ref.rawValue)
    }
    seconds = try IntLeaf(try node.element(0), nullable: true)
    nanoseconds = try node.element(1)
    try nanoseconds.requirePlainIntegers("a timestamp nanoseconds array")
    guard nanoseconds.count >= seconds.count else {
      throw FormatError.corrupt("timestamp leaf at \(node.ref) has \(seconds.count) seconds but \(nanoseconds.count) nanoseconds", at: node.ref.rawValue)
    }
  }

  /// Element `i`, nil when null.
  func value(_ i: Int) -> Timestamp? {
    guard let s = seconds.value(i) else { return nil }
    return Timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: nanoseconds.uncheckedGet(i)))
  }
}
