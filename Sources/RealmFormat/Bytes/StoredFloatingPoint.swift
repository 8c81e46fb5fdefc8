/// `Float` and `Double` as Realm stores them (§6.6): the little-endian bit pattern, 4 or 8 bytes
/// a value, and for null one quiet NaN (payload 0xAA).
protocol StoredFloatingPoint: BinaryFloatingPoint {
  /// The bit pattern's type (its width is the stored width).
  associatedtype Bits: FixedWidthInteger & UnsignedInteger
  /// Realm's null.
  static var nullBits: Bits { get }
  /// The bits as stored.
  var bitPattern: Bits { get }
  /// The value of stored bits.
  init(bitPattern: Bits)
  /// The stored bits at `offset` of `reader`, whose bounds the caller checked.
  static func uncheckedBits(_ reader: ByteReader, at offset: Int) -> Bits
}

extension StoredFloatingPoint {
  /// Bytes a value.
  @inline(__always)
  static var storedWidth: Int { Bits.bitWidth / 8 }
}

extension Float: StoredFloatingPoint {
  @inline(__always)
  static var nullBits: UInt32 { ScalarLeafEncoder.nullFloatBits }
  @inline(__always)
  static func uncheckedBits(_ reader: ByteReader, at offset: Int) -> UInt32 { reader.uncheckedUInt32(at: offset) }
}

extension Double: StoredFloatingPoint {
  @inline(__always)
  static var nullBits: UInt64 { ScalarLeafEncoder.nullDoubleBits }
  @inline(__always)
  static func uncheckedBits(_ reader: ByteReader, at offset: Int) -> UInt64 { reader.uncheckedUInt64(at: offset) }
}
