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

  /// Runs the compression function over `blocks` 64-byte blocks at `data`.
  static func compress(
    _ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
    _ data: UnsafeRawPointer, blocks: Int
  ) {
    let k = SHA256Constants.k
    var w: (
      UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
      UInt32, UInt32, UInt32
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &w) { raw in
      let w = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
      var block = data
      for _ in 0..<blocks {
        for i in 0..<16 {
          w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self))
        }
        var a = h.0, b = h.1, c = h.2, d = h.3, e = h.4, f = h.5, g = h.6, hh = h.7
        for i in 0..<64 {
          let wi: UInt32
          if i < 16 {
            wi = w[i]
          } else {
            let w15 = w[(i &- 15) & 15]
            let w2 = w[(i &- 2) & 15]
            let s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3)
            let s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10)
            wi = w[i & 15] &+ s0 &+ w[(i &- 7) & 15] &+ s1
            w[i & 15] = wi
          }
          let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
          let ch = (e & f) ^ (~e & g)
          let t1 = hh &+ s1 &+ ch &+ k[i] &+ wi
          let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
          let maj = (a & b) ^ (a & c) ^ (b & c)
          let t2 = s0 &+ maj
          hh = g; g = f; f = e; e = d &+ t1
          d = c; c = b; b = a; a = t1 &+ t2
        }
        h.0 &+= a; h.1 &+= b; h.2 &+= c; h.3 &+= d
        h.4 &+= e; h.5 &+= f; h.6 &+= g; h.7 &+= hh
        block += 64
      }
    }
  }
}

/// The 64 round constants (FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the
/// cube roots of the first 64 primes), in memory that is never freed.
enum SHA256Constants {
  nonisolated(unsafe) static let k: UnsafePointer<UInt32> = {
    let values: [UInt32] = [
      0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
      0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
      0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
      0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
      0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
      0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
      0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
      0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
    let p = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
    p.initialize(from: values, count: 64)
    return UnsafePointer(p)
  }()
}
