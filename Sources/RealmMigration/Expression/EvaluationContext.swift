import RealmModel
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Follows links during evaluation (`old.owner.name`): the migrator or the dump command
/// implements it over the file.
public protocol ObjectResolver {
  /// The values of the linked object in its class's property order, or nil when the
  /// object does not exist (the link then reads as null).
  func values(of link: ObjectLink) throws -> [RealmValue]?
}

/// What one evaluation sees: the object's values, the values set earlier in the same
/// `set`, a link resolver and the environment for `now()`, `uuid()` and `objectId()`.
///
/// Create one per step and reassign `old` (and `new`) for each object: arrays are
/// copied on write, so this costs no allocation.
public struct EvaluationContext {
  /// The object's values in its class's property order (as before this step).
  public var old: [RealmValue]
  /// Values of `new.x`, in the order of the `newValues` given to the compiler.
  public var new: [RealmValue]
  /// Follows links; without one, following a link fails with an error.
  public var resolver: (any ObjectResolver)?
  /// Clock and random source.
  public var environment: ExpressionEnvironment

  /// Creates a context.
  public init(
    old: [RealmValue] = [], new: [RealmValue] = [], resolver: (any ObjectResolver)? = nil,
    environment: ExpressionEnvironment = ExpressionEnvironment()
  ) {
    self.old = old
    self.new = new
    self.resolver = resolver
    self.environment = environment
  }
}

/// The clock and random source of `now()`, `uuid()` and `objectId()`.
///
/// `now()` is fixed when the environment is created (the same instant for every object of
/// a migration). `uuid()` gives random version-4 UUIDs and `objectId()` ObjectIds with
/// the clock's seconds, 5 random bytes and a counter; both come from a SplitMix64
/// generator, seeded from the system's random source unless a seed is given (tests).
public struct ExpressionEnvironment: Sendable {
  /// The instant `now()` returns.
  public var now: Timestamp
  private var state: UInt64
  private var counter: UInt32
  private let processBytes: UInt64

  /// An environment at the current time with a random seed.
  public init() {
    var rng = SystemRandomNumberGenerator()
    self.init(now: Self.currentTime(), seed: rng.next())
  }

  /// A deterministic environment: the same `now` and `seed` give the same values.
  public init(now: Timestamp, seed: UInt64) {
    self.now = now
    state = seed
    var mix = seed ^ 0x5DEE_CE66_D1CE_4E5B
    processBytes = Self.splitMix(&mix)
    counter = UInt32(truncatingIfNeeded: Self.splitMix(&mix)) & 0xFF_FFFF
  }

  private static func splitMix(_ s: inout UInt64) -> UInt64 {
    s &+= 0x9E37_79B9_7F4A_7C15
    var z = s
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A random version-4 UUID.
  public mutating func uuid() -> RealmUUID {
    let high = Self.splitMix(&state) & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
    let low = Self.splitMix(&state) & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
    return RealmUUID(high: high, low: low)
  }

  /// A new ObjectId: 4 bytes of seconds, 5 bytes fixed per environment, a 3-byte counter.
  public mutating func objectId() -> ObjectId {
    counter = (counter &+ 1) & 0xFF_FFFF
    let seconds = UInt64(UInt32(truncatingIfNeeded: now.seconds))
    let high = seconds << 32 | (processBytes >> 8) & 0xFFFF_FFFF
    let low = UInt32(truncatingIfNeeded: processBytes) << 24 | counter
    return ObjectId(high: high, low: low)
  }

  static func currentTime() -> Timestamp {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Timestamp(seconds: Int64(ts.tv_sec), nanoseconds: Int32(truncatingIfNeeded: ts.tv_nsec))
  }
}
