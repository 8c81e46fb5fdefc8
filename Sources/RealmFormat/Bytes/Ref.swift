/// A reference to a node: its byte offset from the start of the file.
///
/// Corresponds to `realm::ref_type` in realm-core. Ref 0 is the null ref.
public struct Ref: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The byte offset.
  public let rawValue: Int
  /// Wraps an offset.
  @inlinable public init(rawValue: Int) { self.rawValue = rawValue }
  /// Wraps an offset.
  @inlinable public init(_ offset: Int) { self.rawValue = offset }
  /// The null ref.
  public static let null = Ref(0)
  /// True for the null ref.
  @inlinable public var isNull: Bool { rawValue == 0 }
  public static func < (a: Ref, b: Ref) -> Bool { a.rawValue < b.rawValue }
  public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// An element of a has-refs array: a ref, a tagged integer (low bit set), or null.
///
/// Corresponds to `realm::RefOrTagged`.
public enum RefOrTagged: Equatable, Sendable {
  case null
  case ref(Ref)
  case tagged(UInt64)

  /// Classifies a raw 64-bit element.
  @inlinable
  public init(raw: Int64) {
    let u = UInt64(bitPattern: raw)
    if u == 0 {
      self = .null
    } else if u & 1 == 1 {
      self = .tagged(u >> 1)
    } else if let i = Int(exactly: u) {
      self = .ref(Ref(i))
    } else {
      // An even value above Int.max cannot be a valid offset; surface it as a huge ref that
      // every bounds check rejects.
      self = .ref(Ref(Int.max & ~7))
    }
  }

  /// Encodes a tagged integer (`n < 2^63`).
  @inlinable
  public static func taggedRaw(_ n: UInt64) -> Int64 { Int64(bitPattern: (n << 1) | 1) }
}
