/// CityHash64 as libc++'s `__murmur2_or_cityhash` computes it on 64-bit platforms: the hash
/// Realm Core 11-12 gives a dictionary key (`Mixed::hash`, `StringData::hash`) to place it in a
/// format-21/22 dictionary's cluster tree (§6.13). Checked against the keys of Realm's own
/// format-22 sample (`test_upgrade_database_4_22.realm`).
enum CityHash64 {
  private static let k0: UInt64 = 0xc3a5_c85c_97cb_3127
  private static let k1: UInt64 = 0xb492_b66f_be98_f273
  private static let k2: UInt64 = 0x9ae1_6a3b_2f90_404f
  private static let k3: UInt64 = 0xc949_d7c7_509e_6557

  /// The hash of `bytes`.
  static func hash(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBufferPointer { hash($0) }
  }

  static func hash(_ s: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let len = s.count
    if len <= 16 { return len0to16(s) }
    if len <= 32 { return len17to32(s) }
    if len <= 64 { return len33to64(s) }
    let n = UInt64(len)
    var x = load8(s, len - 40)
    var y = load8(s, len - 16) &+ load8(s, len - 56)
    var z = len16(load8(s, len - 48) &+ n, load8(s, len - 24))
    var v = weakLen32(s, len - 64, n, z)
    var w = weakLen32(s, len - 32, y &+ k1, x)
    x = x &* k1 &+ load8(s, 0)
    var remaining = (len - 1) & ~63
    var at = 0
    repeat {
      x = rotate(x &+ y &+ v.0 &+ load8(s, at + 8), 37) &* k1
      y = rotate(y &+ v.1 &+ load8(s, at + 48), 42) &* k1
      x ^= w.1
      y = y &+ v.0 &+ load8(s, at + 40)
      z = rotate(z &+ w.0, 33) &* k1
      v = weakLen32(s, at, v.1 &* k1, x &+ w.0)
      w = weakLen32(s, at + 32, z &+ w.1, y &+ load8(s, at + 16))
      swap(&z, &x)
      at += 64
      remaining -= 64
    } while remaining != 0
    return len16(len16(v.0, w.0) &+ shiftMix(y) &* k1 &+ z, len16(v.1, w.1) &+ x)
  }

  private static func load8(_ s: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt64 {
    var v: UInt64 = 0
    for i in 0..<8 { v |= UInt64(s[at + i]) << (8 * UInt64(i)) }
    return v
  }

  private static func load4(_ s: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
    var v: UInt32 = 0
    for i in 0..<4 { v |= UInt32(s[at + i]) << (8 * UInt32(i)) }
    return v
  }

  private static func rotate(_ v: UInt64, _ shift: UInt64) -> UInt64 {
    shift == 0 ? v : (v >> shift) | (v << (64 - shift))
  }

  private static func shiftMix(_ v: UInt64) -> UInt64 { v ^ (v >> 47) }

  private static func len16(_ u: UInt64, _ v: UInt64) -> UInt64 {
    let mul: UInt64 = 0x9ddf_ea08_eb38_2d69
    var a = (u ^ v) &* mul
    a ^= a >> 47
    var b = (v ^ a) &* mul
    b ^= b >> 47
    return b &* mul
  }

  private static func len0to16(_ s: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let len = s.count
    let n = UInt64(len)
    if len > 8 {
      let a = load8(s, 0)
      let b = load8(s, len - 8)
      return len16(a, rotate(b &+ n, n)) ^ b
    }
    if len >= 4 {
      let a = load4(s, 0)
      let b = load4(s, len - 4)
      // `a << 3` is 32-bit arithmetic in the original.
      return len16(n &+ UInt64(a &<< 3), UInt64(b))
    }
    if len > 0 {
      let y = UInt32(s[0]) &+ (UInt32(s[len >> 1]) << 8)
      let z = UInt32(truncatingIfNeeded: len) &+ (UInt32(s[len - 1]) << 2)
      return shiftMix(UInt64(y) &* k2 ^ UInt64(z) &* k3) &* k2
    }
    return k2
  }

  private static func len17to32(_ s: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let len = s.count
    let a = load8(s, 0) &* k1
    let b = load8(s, 8)
    let c = load8(s, len - 8) &* k2
    let d = load8(s, len - 16) &* k0
    return len16(rotate(a &- b, 43) &+ rotate(c, 30) &+ d, a &+ rotate(b ^ k3, 20) &- c &+ UInt64(len))
  }

  private static func weakLen32(
    _ w: UInt64, _ x: UInt64, _ y: UInt64, _ z: UInt64, _ a0: UInt64, _ b0: UInt64
  ) -> (UInt64, UInt64) {
    var a = a0 &+ w
    var b = rotate(b0 &+ a &+ z, 21)
    let c = a
    a = a &+ x &+ y
    b = b &+ rotate(a, 44)
    return (a &+ z, b &+ c)
  }

  private static func weakLen32(_ s: UnsafeBufferPointer<UInt8>, _ at: Int, _ a: UInt64, _ b: UInt64) -> (UInt64, UInt64) {
    weakLen32(load8(s, at), load8(s, at + 8), load8(s, at + 16), load8(s, at + 24), a, b)
  }

  private static func len33to64(_ s: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let len = s.count
    var z = load8(s, 24)
    var a = load8(s, 0) &+ (UInt64(len) &+ load8(s, len - 16)) &* k0
    var b = rotate(a &+ z, 52)
    var c = rotate(a, 37)
    a = a &+ load8(s, 8)
    c = c &+ rotate(a, 7)
    a = a &+ load8(s, 16)
    let vf = a &+ z
    let vs = b &+ rotate(a, 31) &+ c
    a = load8(s, 16) &+ load8(s, len - 32)
    z = z &+ load8(s, len - 8)
    b = rotate(a &+ z, 52)
    c = rotate(a, 37)
    a = a &+ load8(s, len - 24)
    c = c &+ rotate(a, 7)
    a = a &+ load8(s, len - 16)
    let wf = a &+ z
    let ws = b &+ rotate(a, 31) &+ c
    let r = shiftMix((vf &+ ws) &* k2 &+ (wf &+ vs) &* k0)
    return shiftMix(r &* k0 &+ vs) &* k2
  }
}
