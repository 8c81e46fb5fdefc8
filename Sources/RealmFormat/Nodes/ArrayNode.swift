/// A validated node in a file, with checked element access.
///
/// Corresponds to `realm::Array` in realm-core. Creating an `ArrayNode` validates the header
/// and that the whole payload lies inside the file, so element reads afterwards need no
/// further bounds checks beyond the index.
public struct ArrayNode: Sendable {
  /// The bytes of the file.
  public let reader: ByteReader
  /// Where the node starts.
  public let ref: Ref
  /// The decoded header.
  public let header: NodeHeader

  /// Offset of the first payload byte.
  @inlinable public var payload: Int { ref.rawValue &+ 8 }
  /// Number of elements.
  @inlinable public var count: Int { header.count }
  /// Element width (bits for `.bits`, bytes for `.multiply`).
  @inlinable public var width: Int { header.width }
  /// True when even non-zero elements are refs.
  @inlinable public var hasRefs: Bool { header.hasRefs }
  /// True for inner B+-tree / cluster nodes.
  @inlinable public var isInner: Bool { header.isInner }
  /// The context flag.
  @inlinable public var contextFlag: Bool { header.contextFlag }

  /// Decodes the node at `ref`, validating header and payload bounds.
  @inlinable
  public init(_ reader: ByteReader, _ ref: Ref) throws(FormatError) {
    let h = try NodeHeader(reader: reader, at: ref)
    // ref >= 24 and payloadSize < 2^31: the sum cannot overflow.
    guard reader.contains(offset: ref.rawValue &+ 8, count: h.payloadSize) else {
      throw FormatError.corrupt(
        "node at \(ref) declares \(h.count) elements of width \(h.width) but the file ends first",
        at: ref.rawValue)
    }
    // Elements are read unchecked from here on: the whole node must be readable now.
    try reader.prepare(ref.rawValue &+ 8, h.payloadSize)
    self.reader = reader
    self.ref = ref
    self.header = h
  }

  @inlinable
  func checkIndex(_ i: Int) throws(FormatError) {
    guard i >= 0, i < header.count else {
      throw FormatError.corrupt("index \(i) out of range for node at \(ref) with \(header.count) elements", at: ref.rawValue)
    }
    // Packed reads assume a bit-packed payload; a blob or fixed-width node read as integers
    // must still stay inside its payload (i < 2^24 and width <= 64: no overflow).
    if header.widthType != .bits, ((i + 1) * header.width + 7) >> 3 > header.payloadSize {
      throw FormatError.corrupt("node at \(ref) is not an integer array", at: ref.rawValue)
    }
  }

  /// Element `i` as a signed integer (widths 1, 2, 4 unsigned; 8-64 two's complement).
  ///
  /// Valid for `.bits` nodes; for other width types use the specific accessors.
  @inlinable
  public func get(_ i: Int) throws(FormatError) -> Int64 {
    try checkIndex(i)
    return uncheckedGet(i)
  }

  /// Element `i` without the index check. `i` must be in `0..<count`.
  @inlinable
  public func uncheckedGet(_ i: Int) -> Int64 {
    let p = payload
    switch header.width {
    case 0: return 0
    case 1: return Int64((reader.uncheckedUInt8(at: p &+ (i >> 3)) >> UInt8(i & 7)) & 1)
    case 2: return Int64((reader.uncheckedUInt8(at: p &+ (i >> 2)) >> UInt8((i & 3) << 1)) & 3)
    case 4: return Int64((reader.uncheckedUInt8(at: p &+ (i >> 1)) >> UInt8((i & 1) << 2)) & 15)
    case 8: return Int64(Int8(bitPattern: reader.uncheckedUInt8(at: p &+ i)))
    case 16: return Int64(Int16(bitPattern: reader.uncheckedUInt16(at: p &+ (i << 1))))
    case 32: return Int64(Int32(bitPattern: reader.uncheckedUInt32(at: p &+ (i << 2))))
    default: return Int64(bitPattern: reader.uncheckedUInt64(at: p &+ (i << 3)))
    }
  }

  /// Element `i` read as unsigned (`ArrayUnsigned`: cluster keys and offsets).
  @inlinable
  public func getUnsigned(_ i: Int) throws(FormatError) -> UInt64 {
    try checkIndex(i)
    return uncheckedUnsigned(i)
  }

  /// Element `i` of an `ArrayUnsigned` (§2.3), without the index check.
  @inlinable @inline(__always)
  func uncheckedUnsigned(_ i: Int) -> UInt64 {
    let p = payload
    switch header.width {
    case 8: return UInt64(reader.uncheckedUInt8(at: p &+ i))
    case 16: return UInt64(reader.uncheckedUInt16(at: p &+ (i << 1)))
    case 32: return UInt64(reader.uncheckedUInt32(at: p &+ (i << 2)))
    case 64: return reader.uncheckedUInt64(at: p &+ (i << 3))
    default: return UInt64(bitPattern: uncheckedGet(i))
    }
  }

  /// Element `i` of a has-refs array, classified.
  @inlinable
  public func refOrTagged(_ i: Int) throws(FormatError) -> RefOrTagged {
    RefOrTagged(raw: try get(i))
  }

  /// Element `i` as a ref; null is allowed and returned as ``Ref/null``; a tagged value throws.
  @inlinable
  public func ref(_ i: Int) throws(FormatError) -> Ref {
    switch try refOrTagged(i) {
    case .null: return .null
    case .ref(let r): return r
    case .tagged:
      throw FormatError.corrupt("element \(i) of node at \(ref) should be a ref but is a tagged integer", at: self.ref.rawValue)
    }
  }

  /// Element `i` as a tagged integer; throws when it is a ref.
  @inlinable
  public func tagged(_ i: Int) throws(FormatError) -> UInt64 {
    switch try refOrTagged(i) {
    case .tagged(let v): return v
    case .null: return 0
    case .ref:
      throw FormatError.corrupt("element \(i) of node at \(ref) should be a tagged integer but is a ref", at: self.ref.rawValue)
    }
  }

  /// Child node `i` of a has-refs array (throws for null or tagged entries).
  @inlinable
  public func child(_ i: Int) throws(FormatError) -> ArrayNode {
    let r = try ref(i)
    guard !r.isNull else {
      throw FormatError.corrupt("element \(i) of node at \(ref) is a null ref where a node is required", at: self.ref.rawValue)
    }
    return try ArrayNode(reader, r)
  }

  /// The payload bytes (for wtype multiply/ignore nodes).
  @inlinable
  public var payloadBytes: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: reader.base[payload..<(payload + header.payloadSize)])
  }
}
