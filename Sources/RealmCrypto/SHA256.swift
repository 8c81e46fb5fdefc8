/// SHA-256 and SHA-224 (FIPS 180-4, §6.2 and §6.3): incremental hashing with no allocation
/// after `init`.
///
/// ```swift
/// var h = SHA256(variant: .sha224)
/// h.update(bytes)
/// let digest = h.finish()   // 28 bytes for SHA-224, 32 for SHA-256
/// ```
public struct SHA256: Sendable {
  /// The two members of the family realmctl needs.
  public enum Variant: Sendable {
    /// SHA-256: 32-byte digests.
    case sha256
    /// SHA-224: SHA-256 with other initial values, truncated to 28 bytes.
    case sha224

    /// Digest size in bytes.
    public var digestSize: Int { self == .sha256 ? 32 : 28 }
  }

  /// Size of a message block in bytes.
  public static let blockSize = 64

  /// The variant.
  public let variant: Variant
  /// The chaining state H0..H7.
  var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
  /// Bytes hashed so far.
  var length: UInt64 = 0
  /// A partial block waiting for more input.
  var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
  var pendingCount = 0

  /// Starts a hash.
  public init(variant: Variant = .sha256) {
    self.variant = variant
    switch variant {
    case .sha256:
      state = (0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19)
    case .sha224:
      state = (0xc105_9ed8, 0x367c_d507, 0x3070_dd17, 0xf70e_5939, 0xffc0_0b31, 0x6858_1511, 0x64f9_8fa7, 0xbefa_4fa4)
    }
  }

  /// Hashes `bytes`.
  public static func hash(_ bytes: some Collection<UInt8>, variant: Variant = .sha256) -> [UInt8] {
    var h = SHA256(variant: variant)
    h.update(Array(bytes))
    return h.finish()
  }

  /// Adds `bytes` to the message.
  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// Adds `bytes` to the message.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard var p = bytes.baseAddress else { return }
    var n = bytes.count
    length &+= UInt64(n)
    if pendingCount > 0 {
      let take = min(n, 64 - pendingCount)
      withUnsafeMutableBytes(of: &pending) { buf in
        (buf.baseAddress! + pendingCount).copyMemory(from: p, byteCount: take)
      }
      pendingCount += take
      p += take
      n -= take
      guard pendingCount == 64 else { return }
      let block = pending
      withUnsafeBytes(of: block) { SHA256.compress(&state, $0.baseAddress!, blocks: 1) }
      pendingCount = 0
    }
    let whole = n / 64
    if whole > 0 {
      SHA256.compress(&state, p, blocks: whole)
      p += whole * 64
      n -= whole * 64
    }
    if n > 0 {
      withUnsafeMutableBytes(of: &pending) { buf in buf.baseAddress!.copyMemory(from: p, byteCount: n) }
      pendingCount = n
    }
  }

  /// Pads the message and returns the digest (28 or 32 bytes).
  public mutating func finish() -> [UInt8] {
    var out = [UInt8](repeating: 0, count: variant.digestSize)
    out.withUnsafeMutableBytes { finish(into: $0.baseAddress!) }
    return out
  }

  /// Pads the message and writes the digest (``Variant/digestSize`` bytes) to `output`.
  public mutating func finish(into output: UnsafeMutableRawPointer) {
    let bitLength = length &* 8
    var tail: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let blocks = pendingCount < 56 ? 1 : 2
    let p = pending
    let count = pendingCount
    withUnsafeMutableBytes(of: &tail) { buf in
      let base = buf.baseAddress!
      withUnsafeBytes(of: p) { base.copyMemory(from: $0.baseAddress!, byteCount: count) }
      base.storeBytes(of: 0x80, toByteOffset: count, as: UInt8.self)
      base.storeBytes(of: bitLength.bigEndian, toByteOffset: blocks * 64 - 8, as: UInt64.self)
      SHA256.compress(&state, base, blocks: blocks)
    }
    let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
    for i in 0..<(variant.digestSize / 4) {
      output.storeBytes(of: words[i].bigEndian, toByteOffset: 4 * i, as: UInt32.self)
    }
  }

  // MARK: - Compression

  @inline(__always)
  static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }
}
