/// SHA-1 (FIPS 180-4), only for Realm Core 10's object keys: in format 20 the key of an object
/// with a String or ObjectId primary key is the first 8 bytes of the SHA-1 of the value (§4.9).
/// Not for anything that needs a secure hash.
enum SHA1 {
  /// The 20-byte digest of `message`.
  static func digest(_ message: [UInt8]) -> [UInt8] {
    var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    var data = message
    let bitLength = UInt64(message.count) &* 8
    data.append(0x80)
    while data.count % 64 != 56 { data.append(0) }
    for i in (0..<8).reversed() { data.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i)))) }
    var w = [UInt32](repeating: 0, count: 80)
    for chunk in stride(from: 0, to: data.count, by: 64) {
      for i in 0..<16 {
        let b = chunk + 4 * i
        w[i] = UInt32(data[b]) << 24 | UInt32(data[b + 1]) << 16 | UInt32(data[b + 2]) << 8 | UInt32(data[b + 3])
      }
      for i in 16..<80 { w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
      var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
      for i in 0..<80 {
        let (f, k): (UInt32, UInt32)
        switch i {
        case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
        case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
        case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
        default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
        }
        let t = rotl(a, 5) &+ f &+ e &+ k &+ w[i]
        (e, d, c, b, a) = (d, c, rotl(b, 30), a, t)
      }
      h[0] = h[0] &+ a
      h[1] = h[1] &+ b
      h[2] = h[2] &+ c
      h[3] = h[3] &+ d
      h[4] = h[4] &+ e
    }
    return h.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32($0))) } }
  }

  private static func rotl(_ v: UInt32, _ n: UInt32) -> UInt32 { (v << n) | (v >> (32 - n)) }
}
