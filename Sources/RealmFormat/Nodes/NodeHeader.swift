/// The decoded 8-byte header of a node ("array" in realm-core), validated once.
///
/// Layout (docs/FileFormat.md, "Nodes"): bytes 0-3 checksum (`AAAA`, ignored), byte 4 flags
/// (inner, has-refs, context, width type, width code), bytes 5-7 the element count, big-endian.
/// Corresponds to `realm::NodeHeader`.
public struct NodeHeader: Sendable, Hashable {
  /// How the width is interpreted.
  public enum WidthType: UInt8, Sendable {
    /// Packed integers of `width` bits.
    case bits = 0
    /// `width` bytes per element.
    case multiply = 1
    /// One byte per element, width ignored (blobs).
    case ignore = 2
  }

  /// True for inner nodes of B+-trees and cluster trees.
  public var isInner: Bool
  /// True when even non-zero elements are refs.
  public var hasRefs: Bool
  /// A flag whose meaning depends on the node kind.
  public var contextFlag: Bool
  /// How `width` is interpreted.
  public var widthType: WidthType
  /// 0, 1, 2, 4, 8, 16, 32 or 64.
  public var width: Int
  /// Number of elements (24 bits).
  public var count: Int

  /// Size of the header in bytes.
  public static let size = 8

  /// Creates a header from its fields (for writers).
  public init(
    isInner: Bool = false, hasRefs: Bool = false, contextFlag: Bool = false,
    widthType: WidthType = .bits, width: Int, count: Int
  ) {
    self.isInner = isInner
    self.hasRefs = hasRefs
    self.contextFlag = contextFlag
    self.widthType = widthType
    self.width = width
    self.count = count
  }

  /// Decodes and validates the header at `ref`.
  @inlinable
  public init(reader: ByteReader, at ref: Ref) throws(FormatError) {
    let offset = ref.rawValue
    guard offset >= 24, offset & 7 == 0 else {
      throw FormatError.corrupt("invalid ref \(ref) (must be 8-aligned and past the header)", at: offset)
    }
    try reader.check(offset, 8)
    let flags = reader.uncheckedUInt8(at: offset + 4)
    let b5 = Int(reader.uncheckedUInt8(at: offset + 5))
    let b6 = Int(reader.uncheckedUInt8(at: offset + 6))
    let b7 = Int(reader.uncheckedUInt8(at: offset + 7))
    guard let wt = WidthType(rawValue: (flags >> 3) & 3) else {
      throw FormatError.corrupt("node at \(ref) has an invalid width type", at: offset)
    }
    isInner = flags & 0x80 != 0
    hasRefs = flags & 0x40 != 0
    contextFlag = flags & 0x20 != 0
    widthType = wt
    width = (1 << Int(flags & 7)) >> 1
    count = (b5 << 16) | (b6 << 8) | b7
  }

  /// Number of payload bytes (before padding). Cannot overflow: count < 2^24, width <= 64.
  @inlinable
  public var payloadSize: Int {
    switch widthType {
    case .bits: return (count * width + 7) >> 3
    case .multiply: return count * width
    case .ignore: return count
    }
  }

  /// Total bytes the node occupies: header plus payload rounded up to 8.
  @inlinable
  public var byteSize: Int { 8 + ((payloadSize + 7) & ~7) }

  /// The flags byte (byte 4) of the encoded header.
  public var flagsByte: UInt8 {
    var f: UInt8 = 0
    if isInner { f |= 0x80 }
    if hasRefs { f |= 0x40 }
    if contextFlag { f |= 0x20 }
    f |= widthType.rawValue << 3
    f |= UInt8(NodeHeader.widthCode(width))
    return f
  }

  /// The code (0...7) for a width of 0, 1, 2, 4, ..., 64.
  public static func widthCode(_ width: Int) -> Int {
    switch width {
    case 0: return 0
    case 1: return 1
    case 2: return 2
    case 4: return 3
    case 8: return 4
    case 16: return 5
    case 32: return 6
    default: return 7
    }
  }

  /// The 8 encoded bytes (checksum `AAAA`).
  public var encoded: [UInt8] {
    [0x41, 0x41, 0x41, 0x41, flagsByte, UInt8(truncatingIfNeeded: count >> 16),
     UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
  }
}
