/// A point in time: seconds and nanoseconds since 1970-01-01 UTC (`realm::Timestamp`).
///
/// Nanoseconds have the same sign as seconds and `|nanoseconds| < 1_000_000_000`.
public struct Timestamp: Sendable, Hashable {
  /// Seconds since the epoch.
  public var seconds: Int64
  /// Nanoseconds, same sign as `seconds`.
  public var nanoseconds: Int32
  /// Creates a timestamp from Realm's two parts, as given (``isValid`` says whether Realm
  /// accepts them).
  public init(seconds: Int64, nanoseconds: Int32) {
    self.seconds = seconds
    self.nanoseconds = nanoseconds
  }

  /// The instant `seconds` + `nanoseconds` / 10^9 (`nanoseconds` of any sign and size) in
  /// Realm's form: nanoseconds of the sign of the seconds, below 10^9 in magnitude. So
  /// 1969-12-31T23:59:59.25Z, that is -1 s + 250,000,000 ns, is (0, -750,000,000). nil when the
  /// seconds overflow.
  public init?(seconds: Int64, addingNanoseconds nanoseconds: Int64) {
    // Floor division: whole seconds carried, a remainder in 0..<10^9.
    var carry = nanoseconds / 1_000_000_000
    var rest = nanoseconds % 1_000_000_000
    if rest < 0 {
      carry -= 1
      rest += 1_000_000_000
    }
    var (s, overflow) = seconds.addingReportingOverflow(carry)
    if overflow { return nil }
    if s < 0 && rest > 0 {
      s += 1
      rest -= 1_000_000_000
    }
    self.init(seconds: s, nanoseconds: Int32(rest))
  }

  /// True when Realm accepts the two parts (`realm::Timestamp`'s invariant): nanoseconds of
  /// magnitude below 10^9 and not of the other sign than the seconds.
  public var isValid: Bool { validityProblem == nil }

  /// Why Realm does not accept the two parts (nil when it does): "nanoseconds N are not
  /// below 10^9 in magnitude" or "seconds S and nanoseconds N have different signs".
  public var validityProblem: String? {
    if nanoseconds <= -1_000_000_000 || nanoseconds >= 1_000_000_000 {
      return "nanoseconds \(nanoseconds) are not below 10^9 in magnitude"
    }
    if (seconds > 0 && nanoseconds < 0) || (seconds < 0 && nanoseconds > 0) {
      return "seconds \(seconds) and nanoseconds \(nanoseconds) have different signs"
    }
    return nil
  }
}

/// A 12-byte MongoDB ObjectId, bytes in canonical (big-endian) order.
public struct ObjectId: Sendable, Hashable, Comparable {
  /// Bytes 0-7, big-endian.
  public var high: UInt64
  /// Bytes 8-11, big-endian.
  public var low: UInt32

  /// Creates an ObjectId from its two big-endian parts.
  public init(high: UInt64, low: UInt32) {
    self.high = high
    self.low = low
  }

  /// Creates an ObjectId from exactly 12 bytes; nil for another length.
  @inlinable
  public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
    guard let parts: (high: UInt64, low: UInt32) = bigEndianParts(bytes) else { return nil }
    self.init(high: parts.high, low: parts.low)
  }

  /// The 12 bytes.
  public var bytes: [UInt8] {
    bigEndianBytes(high, low)
  }

  public static func < (a: ObjectId, b: ObjectId) -> Bool {
    (a.high, a.low) < (b.high, b.low)
  }
}

/// A 16-byte UUID, bytes in RFC 4122 order.
public struct RealmUUID: Sendable, Hashable, Comparable {
  /// Bytes 0-7, big-endian.
  public var high: UInt64
  /// Bytes 8-15, big-endian.
  public var low: UInt64

  /// Creates a UUID from its two big-endian halves.
  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// Creates a UUID from exactly 16 bytes; nil for another length.
  @inlinable
  public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
    guard let parts: (high: UInt64, low: UInt64) = bigEndianParts(bytes) else { return nil }
    self.init(high: parts.high, low: parts.low)
  }

  /// The 16 bytes.
  public var bytes: [UInt8] {
    bigEndianBytes(high, low)
  }

  public static func < (a: RealmUUID, b: RealmUUID) -> Bool {
    (a.high, a.low) < (b.high, b.low)
  }
}

/// The two parts of an ObjectId or a UUID from its bytes: the first 8, then the rest, both
/// big-endian; nil when `bytes` is not 8 bytes longer than `Low`. Inlinable, like the two
/// initialisers that call it, so that a reader's call is specialised for its byte collection
/// (unspecialised, every byte went through the generic `Collection` witnesses).
@inlinable
func bigEndianParts<Low: FixedWidthInteger, C: Collection>(_ bytes: C) -> (high: UInt64, low: Low)?
where C.Element == UInt8 {
  guard bytes.count == 8 + Low.bitWidth / 8 else { return nil }
  var high: UInt64 = 0
  var low: Low = 0
  for (i, b) in bytes.enumerated() {
    if i < 8 { high = high << 8 | UInt64(b) } else { low = low << 8 | Low(b) }
  }
  return (high, low)
}

/// The bytes of `high` then of `low`, both big-endian.
private func bigEndianBytes<Low: FixedWidthInteger>(_ high: UInt64, _ low: Low) -> [UInt8] {
  (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
    + (0..<Low.bitWidth / 8).map { UInt8(truncatingIfNeeded: low >> (Low.bitWidth - 8 - 8 * $0)) }
}

/// An IEEE 754-2008 decimal128 in BID encoding, as Realm stores it (`realm::Decimal128`).
///
/// Conversion to and from text lives in `Decimal128+Text.swift`.
public struct Decimal128: Sendable, Hashable {
  /// Low 64 bits.
  public var low: UInt64
  /// High 64 bits (sign, combination field, high coefficient bits).
  public var high: UInt64
  /// Creates a value from its two words.
  public init(low: UInt64, high: UInt64) {
    self.low = low
    self.high = high
  }
  /// Realm's null marker: a NaN with payload 0xAA.
  public static let realmNull = Decimal128(low: 0xAA, high: 0x7C00_0000_0000_0000)
  /// Zero (coefficient 0, exponent 0).
  public static let zero = Decimal128(low: 0, high: 0x3040_0000_0000_0000)
}
