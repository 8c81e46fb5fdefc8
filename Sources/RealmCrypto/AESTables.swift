/// The lookup tables of the table-driven AES implementation (FIPS-197, §5), computed once from
/// the field arithmetic rather than typed in: the S-box and its inverse, and the four
/// round tables of each direction, which fold SubBytes/ShiftRows/MixColumns (or their inverses)
/// into one 32-bit lookup per state byte.
///
/// Words are little-endian: byte 0 of a column is the low byte, so state words load straight
/// from memory on little-endian machines and from bytes everywhere else.
final class AESTables: @unchecked Sendable {
  /// The tables, shared by every key. Read-only after initialisation.
  static let shared = AESTables()

  /// Encryption round tables `te[0..<1024]` (4 × 256 words), then decryption `td[0..<1024]`.
  let te: UnsafeMutablePointer<UInt32>
  let td: UnsafeMutablePointer<UInt32>
  /// S-box and inverse S-box (256 bytes each).
  let sbox: UnsafeMutablePointer<UInt8>
  let inverseSbox: UnsafeMutablePointer<UInt8>

  private init() {
    te = .allocate(capacity: 1024)
    td = .allocate(capacity: 1024)
    sbox = .allocate(capacity: 256)
    inverseSbox = .allocate(capacity: 256)
    // Powers of the generator 3 give logarithms for the inverse in GF(2^8).
    var exp = [UInt8](repeating: 0, count: 256)
    var log = [UInt8](repeating: 0, count: 256)
    var x: UInt8 = 1
    for i in 0..<255 {
      exp[i] = x
      log[Int(x)] = UInt8(i)
      x ^= AESTables.xtime(x)
    }
    for i in 0..<256 {
      let inverse: UInt8 = i == 0 ? 0 : exp[(255 - Int(log[i])) % 255]
      var s = inverse
      var r = inverse
      for _ in 0..<4 {
        r = (r << 1) | (r >> 7)
        s ^= r
      }
      s ^= 0x63
      sbox[i] = s
      inverseSbox[Int(s)] = UInt8(i)
    }
    for i in 0..<256 {
      let s = sbox[i]
      let s2 = AESTables.xtime(s)
      let s3 = s2 ^ s
      let word = UInt32(s2) | UInt32(s) << 8 | UInt32(s) << 16 | UInt32(s3) << 24
      for t in 0..<4 { te[t * 256 + i] = AESTables.rotateLeft(word, 8 * t) }
      let v = inverseSbox[i]
      let v9 = AESTables.multiply(v, 9)
      let v11 = AESTables.multiply(v, 11)
      let v13 = AESTables.multiply(v, 13)
      let v14 = AESTables.multiply(v, 14)
      let inverseWord = UInt32(v14) | UInt32(v9) << 8 | UInt32(v13) << 16 | UInt32(v11) << 24
      for t in 0..<4 { td[t * 256 + i] = AESTables.rotateLeft(inverseWord, 8 * t) }
    }
  }

  /// Multiplication by x (that is, 2) in GF(2^8) with the AES polynomial.
  static func xtime(_ b: UInt8) -> UInt8 { (b << 1) ^ ((b & 0x80) != 0 ? 0x1B : 0) }

  /// Multiplication in GF(2^8).
  static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
    var a = a
    var b = b
    var p: UInt8 = 0
    while b != 0 {
      if b & 1 != 0 { p ^= a }
      a = xtime(a)
      b >>= 1
    }
    return p
  }

  static func rotateLeft(_ w: UInt32, _ n: Int) -> UInt32 {
    n == 0 ? w : (w << UInt32(n)) | (w >> UInt32(32 - n))
  }

  /// InvMixColumns of one little-endian column word (for the decryption key schedule).
  func inverseMixColumn(_ w: UInt32) -> UInt32 {
    // td[i] = InvMixColumns(InvSubBytes(i)); feed it S(b) so the substitution cancels.
    td[Int(sbox[Int(w & 0xFF)])] ^ td[256 + Int(sbox[Int((w >> 8) & 0xFF)])]
      ^ td[512 + Int(sbox[Int((w >> 16) & 0xFF)])] ^ td[768 + Int(sbox[Int(w >> 24)])]
  }
}
